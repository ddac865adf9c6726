import { homedir } from 'node:os';
import { decodeAnsiC } from './shell-ansi-c.js';

/**
 * A small bash parser for deciding what a command line runs — not for running it. It splits
 * compound commands (`;`, `&&`, `||`, `|`, `&`, newlines), descends into subshells, `$( )`,
 * backticks and process substitution, resolves quoting and escapes, skips heredoc bodies and
 * comments, and returns every simple command it finds, flattened, in order.
 */

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
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `<<`, `<<<`… without the fd number. */
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
  /** The command whose output is piped into this one (`a | b`: set on b). */
  pipedFrom?: SimpleCommand;
}

export interface ParsedCommand {
  commands: SimpleCommand[];
  /** Set when the text is not valid shell (e.g. an unterminated quote). */
  error?: string;
}

class ParseError extends Error {}

const METACHARS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const DROP_WHOLE = new Set(['for', 'case', 'select', 'function', 'in', 'esac', 'fi', 'done', '}', ';;', 'coproc']);
const PREFIX_WORDS = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{']);

/** Parses a command line into the simple commands it would run. */
export function parseCommand(source: string, home = homedir()): ParsedCommand {
  const parser = new Parser(source, home);
  try {
    parser.sequence(null, 0);
    return { commands: parser.commands };
  } catch (error) {
    if (error instanceof ParseError) return { commands: parser.commands, error: error.message };
    throw error;
  }
}

interface Builder {
  words: Word[];
  redirects: Redirect[];
  depth: number;
  pipedFrom?: SimpleCommand;
}

class Parser {
  readonly commands: SimpleCommand[] = [];
  private i = 0;
  private heredocs: Redirect[] = [];

  constructor(
    private readonly src: string,
    private readonly home: string,
  ) {}

  /** Parses until end of input (`until` null) or the closing `)`. */
  sequence(until: ')' | null, depth: number): void {
    if (depth > 32) throw new ParseError('nested too deeply');
    let current: Builder = { words: [], redirects: [], depth };
    const finish = () => {
      const done = this.finish(current);
      current = { words: [], redirects: [], depth };
      return done;
    };
    for (;;) {
      this.skipBlanks();
      if (this.i >= this.src.length) {
        if (until) throw new ParseError('unterminated "(" or "$("');
        finish();
        return;
      }
      const c = this.src[this.i]!;
      if (c === '#') {
        while (this.i < this.src.length && this.src[this.i] !== '\n') this.i++;
      } else if (c === '\n') {
        finish();
        this.i++;
        this.readHeredocBodies();
      } else if (c === ';' || c === '&' || c === '|') {
        if (c === '&' && this.src[this.i + 1] === '>') {
          this.redirect(current);
          continue;
        }
        const done = finish();
        const begin = this.i++;
        while (this.i < this.src.length && ';&|'.includes(this.src[this.i]!)) this.i++;
        const op = this.src.slice(begin, this.i);
        if (op === '|' || op === '|&') current.pipedFrom = done;
      } else if (c === ')') {
        this.i++;
        finish();
        if (until === ')') return;
      } else if (c === '(') {
        finish();
        this.i++;
        if (this.src[this.i] === '(') this.skipArithmetic();
        else this.sequence(')', depth + 1);
      } else if (c === '<' || c === '>' || (/[0-9]/.test(c) && this.isFdRedirect())) {
        this.redirect(current);
      } else {
        const word = this.word(depth);
        if (current.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word.text) && !word.text.startsWith('=')) continue;
        current.words.push(word);
      }
    }
  }

  private finish(builder: Builder): SimpleCommand | undefined {
    let words = builder.words;
    while (words.length > 0 && !words[0]!.quoted && PREFIX_WORDS.has(words[0]!.text)) words = words.slice(1);
    if (words.length > 0 && !words[0]!.quoted && DROP_WHOLE.has(words[0]!.text)) words = [];
    if (words.length === 0 && builder.redirects.length === 0) return undefined;
    const command: SimpleCommand = { words, redirects: builder.redirects, depth: builder.depth };
    if (builder.pipedFrom) command.pipedFrom = builder.pipedFrom;
    this.commands.push(command);
    return command;
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.src[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && this.src[this.i + 1] === '\n') this.i += 2;
      else return;
    }
  }

  private isFdRedirect(): boolean {
    let j = this.i;
    while (/[0-9]/.test(this.src[j] ?? '')) j++;
    return this.src[j] === '<' || this.src[j] === '>';
  }

  private redirect(current: Builder): void {
    while (/[0-9]/.test(this.src[this.i]!)) this.i++;
    const rest = this.src.slice(this.i, this.i + 3);
    const op = ['<<<', '&>>', '<<-', '>>', '<<', '<&', '>&', '>|', '<>', '&>', '<(', '>(', '<', '>'].find((o) => rest.startsWith(o))!;
    this.i += op.length;
    if (op === '<(' || op === '>(') {
      this.sequence(')', current.depth + 1);
      return;
    }
    this.skipBlanks();
    if (op === '<<' || op === '<<-') {
      const heredoc: Redirect = { op, target: this.word(current.depth), body: '' };
      current.redirects.push(heredoc);
      this.heredocs.push(heredoc);
      return;
    }
    const target = this.word(current.depth);
    if (target.text === '' && !target.quoted) throw new ParseError(`a redirection "${op}" has no target`);
    // `>&2`, `2>&1`, `<&-` duplicate descriptors: no file is named.
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target.text)) return;
    current.redirects.push({ op: op === '>&' ? '&>' : op, target });
  }

  private readHeredocBodies(): void {
    for (const heredoc of this.heredocs) {
      for (;;) {
        if (this.i >= this.src.length) return;
        let end = this.src.indexOf('\n', this.i);
        if (end === -1) end = this.src.length;
        let line = this.src.slice(this.i, end);
        this.i = end + 1;
        if (heredoc.op === '<<-') line = line.replace(/^\t+/, '');
        if (line === heredoc.target.text) break;
        heredoc.body += `${line}\n`;
      }
    }
    this.heredocs = [];
  }

  /** Skips an arithmetic body up to its `))`; `opener` names it in the error. */
  private skipArithmetic(opener = '(('): void {
    let level = 0;
    while (this.i < this.src.length) {
      const c = this.src[this.i++];
      if (c === '(') level++;
      else if (c === ')') {
        if (level === 0 && this.src[this.i] === ')') {
          this.i++;
          return;
        }
        level--;
      }
    }
    throw new ParseError(`unterminated "${opener}"`);
  }

  /** Reads one word up to an unquoted metacharacter. */
  word(depth: number): Word {
    const word: Word = { text: '', quoted: false, dynamic: false, substituted: false };
    const start = this.i;
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (METACHARS.has(c)) break;
      if (c === '\\') {
        const next = this.src[this.i + 1];
        this.i += 2;
        if (next === undefined) break;
        if (next !== '\n') {
          word.text += next;
          word.quoted = true;
        }
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end === -1) throw new ParseError('unterminated single quote');
        word.text += this.src.slice(this.i + 1, end);
        word.quoted = true;
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        this.doubleQuoted(word, depth);
        word.quoted = true;
      } else if (c === '$') {
        if (this.src[this.i + 1] === "'") {
          this.i += 2;
          const decoded = decodeAnsiC(this.src, this.i);
          if (!decoded) throw new ParseError("unterminated $'…' quote");
          word.text += decoded.text;
          this.i = decoded.end;
          word.quoted = true;
        } else if (this.src[this.i + 1] === '"') {
          this.i++;
        } else {
          this.dollar(word, depth);
        }
      } else if (c === '`') {
        this.backticks(word, depth);
      } else if (c === '~' && this.i === start && (this.i + 1 >= this.src.length || /[/\s;&|)]/.test(this.src[this.i + 1]!))) {
        word.text += this.home;
        this.i++;
      } else {
        word.text += c;
        this.i++;
      }
    }
    return word;
  }

  private doubleQuoted(word: Word, depth: number): void {
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const next = this.src[this.i + 1];
        if (next !== undefined && '$`"\\\n'.includes(next)) {
          if (next !== '\n') word.text += next;
          this.i += 2;
        } else {
          word.text += c;
          this.i++;
        }
      } else if (c === '$') {
        this.dollar(word, depth);
      } else if (c === '`') {
        this.backticks(word, depth);
      } else {
        word.text += c;
        this.i++;
      }
    }
    throw new ParseError('unterminated double quote');
  }

  /** `$(…)`, `$((…))`, `${…}`, `$NAME`, `$1`… at `this.i` (which points at `$`). */
  private dollar(word: Word, depth: number): void {
    const next = this.src[this.i + 1];
    if (next === '(') {
      const begin = this.i;
      if (this.src[this.i + 2] === '(') {
        this.i += 3;
        this.skipArithmetic('$((');
        word.text += this.src.slice(begin, this.i);
        word.dynamic = true;
        return;
      }
      this.i += 2;
      this.sequence(')', depth + 1);
      word.text += this.src.slice(begin, this.i);
      word.dynamic = true;
      word.substituted = true;
      return;
    }
    if (next === '{') {
      const end = this.src.indexOf('}', this.i + 2);
      if (end === -1) throw new ParseError('unterminated "${"');
      const name = this.src.slice(this.i + 2, end);
      this.i = end + 1;
      this.variable(word, name, `\${${name}}`);
      return;
    }
    const match = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.src.slice(this.i + 1));
    if (!match) {
      word.text += '$';
      this.i++;
      return;
    }
    this.i += 1 + match[1]!.length;
    this.variable(word, match[1]!, `$${match[1]}`);
  }

  private variable(word: Word, name: string, raw: string): void {
    if (name === 'HOME') word.text += this.home;
    else {
      word.text += raw;
      word.dynamic = true;
    }
  }

  private backticks(word: Word, depth: number): void {
    let inner = '';
    let j = this.i + 1;
    for (;;) {
      const c = this.src[j];
      if (c === undefined) throw new ParseError('unterminated backtick');
      if (c === '`') break;
      if (c === '\\' && '`$\\'.includes(this.src[j + 1] ?? '')) {
        inner += this.src[j + 1];
        j += 2;
      } else {
        inner += c;
        j++;
      }
    }
    word.text += this.src.slice(this.i, j + 1);
    word.dynamic = true;
    word.substituted = true;
    this.i = j + 1;
    const nested = parseCommand(inner, this.home);
    for (const command of nested.commands) this.commands.push({ ...command, depth: command.depth + depth + 1 });
    if (nested.error) throw new ParseError(nested.error);
  }
}
