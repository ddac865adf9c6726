import { homedir } from 'node:os';
import { decodeAnsiC } from './ansi-c.js';
import type { ParsedCommand, Redirect, SimpleCommand, Word } from './ast.js';

export type { ParsedCommand, Redirect, SimpleCommand, Word } from './ast.js';

// A small bash parser for deciding what a command line runs — not for running it. It splits
// compound commands (`;`, `&&`, `||`, `|`, `&`, newlines), descends into subshells, `$( )`,
// backticks and process substitution, resolves quoting and escapes, skips heredoc bodies and
// comments, and returns every simple command it finds, flattened, in order.

// Thrown and caught in this file only (parseCommand returns its message), so a plain Error, not a ReikaError.
class ParseError extends Error {}

const METACHARS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Characters that end a run of plain characters in a word, outside quotes and inside double quotes. */
const WORD_SPECIALS = '\\\'"$`';
const QUOTED_SPECIALS = '"\\$`';
const DROP_WHOLE = new Set(['for', 'case', 'select', 'function', 'in', 'esac', 'fi', 'done', '}', ';;', 'coproc']);
const PREFIX_WORDS = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{']);

/** Parses a command line into the simple commands it would run. */
export function parseCommand(source: string, home = homedir()): ParsedCommand {
  const parser = new Parser(source, home, { next: 0 });
  try {
    parser.sequence(null, 0);
    return { commands: parser.commands, hazards: parser.hazards };
  } catch (error) {
    if (error instanceof ParseError) return { commands: parser.commands, error: error.message, hazards: parser.hazards };
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
  readonly hazards: string[] = [];
  private i = 0;
  private heredocs: Redirect[] = [];
  /** The subshells the parser is inside now, outermost first. */
  private scopes: number[] = [];

  constructor(
    private readonly src: string,
    private readonly home: string,
    /** Scope numbers, shared with the parsers of nested backticks so they stay unique. */
    private readonly scopeCounter: { next: number },
  ) {}

  /** Parses until end of input (`until` null) or the closing `)` of a subshell. */
  sequence(until: ')' | null, depth: number): void {
    if (depth > 32) throw new ParseError('nested too deeply');
    if (until === null) return this.commandsUntil(null, depth);
    this.scopes.push(++this.scopeCounter.next);
    try {
      this.commandsUntil(until, depth);
    } finally {
      this.scopes.pop();
    }
  }

  private commandsUntil(until: ')' | null, depth: number): void {
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
        if (this.src[this.i] === '(') {
          this.i++;
          this.arithmetic('((', depth);
        } else this.sequence(')', depth + 1);
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
    const command: SimpleCommand = { words, redirects: builder.redirects, depth: builder.depth, scopes: [...this.scopes] };
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
      const begin = this.i - 2;
      this.sequence(')', current.depth + 1);
      current.redirects.push({ op, target: { text: this.src.slice(begin, this.i), quoted: false, dynamic: true, substituted: true } });
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

  /**
   * Reads an arithmetic body up to its `))`; `opener` names it in the error. Substitutions inside
   * (`$(( $(cmd) ))`, `${x:-$(cmd)}`, backticks) run, so they are parsed like any other.
   */
  private arithmetic(opener: string, depth: number): void {
    const scratch: Word = { text: '', quoted: false, dynamic: false, substituted: false };
    let level = 0;
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === '$') {
        this.dollar(scratch, depth);
        continue;
      }
      if (c === '`') {
        this.backticks(scratch, depth);
        continue;
      }
      this.i++;
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
        // A run of plain characters is taken as one slice: appended one by one, a 2 MB word was
        // 2M string pieces, ~65 MB of heap the executor kept after the call.
        const end = this.plainRun(this.i + 1, WORD_SPECIALS);
        word.text += this.src.slice(this.i, end);
        this.i = end;
      }
    }
    return word;
  }

  /** Where the run of characters from `from` not in `specials` (nor metacharacters, outside quotes) ends. */
  private plainRun(from: number, specials: string, metacharsEnd = true): number {
    let end = from;
    while (end < this.src.length && !(metacharsEnd && METACHARS.has(this.src[end]!)) && !specials.includes(this.src[end]!)) end++;
    return end;
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
        const end = this.plainRun(this.i + 1, QUOTED_SPECIALS, false);
        word.text += this.src.slice(this.i, end);
        this.i = end;
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
        const inner = this.commands.length;
        this.arithmetic('$((', depth);
        word.text += this.src.slice(begin, this.i);
        word.dynamic = true;
        if (this.commands.length > inner) word.substituted = true;
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
      this.braced(word, depth);
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

  /**
   * `${…}` at `this.i`: up to its matching `}`, through nested `${…}`, quotes and substitutions
   * (`${x:-$(cmd)}` runs cmd when x is unset, so cmd is parsed as a command).
   */
  private braced(word: Word, depth: number): void {
    const begin = this.i;
    const scratch: Word = { text: '', quoted: false, dynamic: false, substituted: false };
    this.i += 2;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) throw new ParseError('unterminated "${"');
      if (c === '}') break;
      if (c === '\\') this.i += 2;
      else if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end === -1) throw new ParseError('unterminated single quote');
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        this.doubleQuoted(scratch, depth);
      } else if (c === '$') this.dollar(scratch, depth);
      else if (c === '`') this.backticks(scratch, depth);
      else this.i++;
    }
    const body = this.src.slice(begin + 2, this.i);
    this.i++;
    if (/@P$/.test(body)) this.hazards.push(`\${${body}} expands its value as a prompt, running any substitutions in it`);
    this.variable(word, body, `\${${body}}`);
    if (scratch.substituted) word.substituted = true;
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
    const nested = new Parser(inner, this.home, this.scopeCounter);
    const scope = [...this.scopes, ++this.scopeCounter.next];
    let error: string | undefined;
    try {
      nested.sequence(null, 0);
    } catch (caught) {
      if (!(caught instanceof ParseError)) throw caught;
      error = caught.message;
    }
    for (const command of nested.commands) this.commands.push({ ...command, depth: command.depth + depth + 1, scopes: [...scope, ...command.scopes] });
    this.hazards.push(...nested.hazards);
    if (error) throw new ParseError(error);
  }
}
