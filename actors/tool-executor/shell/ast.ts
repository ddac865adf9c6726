// What the shell parser (shell-parse.ts) returns: words, redirections, simple commands.

export interface Word {
  /** The word after quote removal; unknown expansions stay as written (`$X`). */
  text: string;
  /** Some part was quoted. */
  quoted: boolean;
  /** Contains an expansion whose value is unknown here (`$X`, `$(…)`, backticks). */
  dynamic: boolean;
  /** Contains a command substitution. */
  substituted: boolean;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `<<`, `<<<`… without the fd number; `<(`/`>(` for process substitution. */
  op: string;
  /** The file, or the delimiter of a heredoc, or the text of a here-string. */
  target: Word;
  /** A heredoc's text (what a shell reading it would run). */
  body?: string;
}

export interface SimpleCommand {
  /** Command word and arguments (leading `NAME=value` assignments removed). */
  words: Word[];
  redirects: Redirect[];
  /** Nesting: 0 for the top level, deeper inside substitutions and subshells. */
  depth: number;
  /**
   * The subshells it runs in, outermost first (`(…)`, `$(…)`, backticks, `<(…)`), each a number
   * unique within one parse: a `cd` inside one does not move the commands after it.
   */
  scopes: number[];
  /** The command whose output is piped into this one (`a | b`: set on b). */
  pipedFrom?: SimpleCommand;
}

export interface ParsedCommand {
  commands: SimpleCommand[];
  /** Set when the text is not valid shell (e.g. an unterminated quote). */
  error?: string;
  /** Constructs whose effect a parse cannot see (e.g. `${x@P}` runs its value's substitutions). */
  hazards: string[];
}
