import { parseCommand, type Redirect, type SimpleCommand, type Word } from './parse.js';
import { gitAliasScript, inlineCode, interpreterOptions, scriptFromInput, shellScript } from './scripts.js';
import { basename } from './words.js';

export { basename, readFlags, subcommand, type Flags } from './words.js';

// What a simple command really runs once wrappers are looked through: `sudo`, `doas`, `env`,
// `nohup`, `time`, `nice`, `timeout`, `stdbuf`, `setsid`, `command`, `exec`, `xargs`,
// `bash -c '…'` / `sh -c '…'`, scripts piped or here-doc'd into a shell, `eval …`,
// `find -exec …`, `git -c alias.x='!…' x` and `python -m pip`; and for interpreters, the inline
// code they are given (`python3 -c`, `node -e`, `perl -e`…).

/** A command as the rules see it: its name (basename) and arguments as plain strings. */
export interface Effective {
  name: string;
  args: string[];
  /** The words themselves (to know which were dynamic). */
  words: Word[];
  redirects: Redirect[];
  /** Nesting depth of the original command (0 = top level of the command line). */
  depth: number;
  /** The subshells the original command runs in (see SimpleCommand.scopes). */
  scopes: number[];
  /** The command name is only known at run time (`$RM`, `${SHELL:-sh}`, `$(echo rm)`). */
  computedName: boolean;
  /** Run once per input item by `find -exec` or `xargs`: on files chosen at run time. */
  via?: 'find' | 'xargs';
  /** Run as root (or another user) through `sudo`, `doas`, `pkexec`, `run0`. */
  elevated?: string;
  /** A shell or interpreter whose script is only known at run time: where it comes from. */
  unknownScript?: string;
  /** An interpreter's inline program (`python3 -c CODE`, `node -e CODE`, a here-doc). */
  code?: string;
}

export interface Unwrapped {
  commands: Effective[];
  /** Parse errors anywhere, including inside `bash -c` strings. */
  errors: string[];
  /** Constructs whose effect no parse can see (from the parser). */
  hazards: string[];
  /** Scope numbers for nested shells (negative, so they never meet the parser's own). */
  nextScope: number;
}

const MAX_NESTING = 8;
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'busybox']);
const ELEVATORS = new Set(['sudo', 'doas', 'pkexec', 'run0']);

/** Parses a command line and unwraps every simple command in it. */
export function unwrapCommandLine(source: string, home?: string): Unwrapped {
  const out: Unwrapped = { commands: [], errors: [], hazards: [], nextScope: 0 };
  collect(source, 0, out, home, [], undefined);
  return out;
}

/** Parses `source` and unwraps its commands; `scopes` are those of the command that runs it. */
function collect(source: string, level: number, out: Unwrapped, home: string | undefined, scopes: number[], via: Effective['via']): void {
  if (level > MAX_NESTING) {
    out.errors.push('commands nested too deeply');
    return;
  }
  const parsed = parseCommand(source, home);
  if (parsed.error) out.errors.push(parsed.error);
  out.hazards.push(...parsed.hazards);
  for (const command of parsed.commands) unwrap({ ...command, scopes: [...scopes, ...command.scopes] }, level, out, home, via);
}

/** Skips options; `withValue` lists the options that take the next word as their value. */
function skipOptions(words: Word[], withValue: Set<string>): Word[] {
  let i = 0;
  while (i < words.length) {
    const text = words[i]!.text;
    if (text === '--') return words.slice(i + 1);
    if (!text.startsWith('-') || text === '-') break;
    i += withValue.has(text) ? 2 : 1;
  }
  return words.slice(i);
}

const literal = (text: string): Word => ({ text, quoted: false, dynamic: false, substituted: false });
const describe = (words: Word[]) => words.map((w) => w.text).join(' ');

function unwrap(command: SimpleCommand, level: number, out: Unwrapped, home: string | undefined, via: Effective['via']): void {
  let words = command.words;
  let elevated: string | undefined;
  let unknownScript: string | undefined;
  let code: string | undefined;
  // A script run by another shell (`bash -c`, `su -c`, an alias) runs in a process of its own; `eval`'s runs here.
  const nested = (script: string, sameShell = false) =>
    collect(script, level + 1, out, home, sameShell ? command.scopes : [...command.scopes, --out.nextScope], via);
  for (let guard = 0; guard < 16 && words.length > 0; guard++) {
    const name = basename(words[0]!.text);
    const rest = words.slice(1);
    if (ELEVATORS.has(name)) {
      elevated ??= name;
      const after = skipOptions(rest, new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir']));
      if (after.length === 0) break;
      words = after;
      continue;
    }
    switch (name) {
      case 'env': {
        let i = 0;
        while (i < rest.length) {
          const text = rest[i]!.text;
          if (text === '-u' || text === '-C' || text === '--unset' || text === '--chdir') i += 2;
          else if (text === '-S' || text === '--split-string') {
            const script = rest.slice(i + 1);
            if (script.some((w) => w.dynamic)) {
              unknownScript = describe(script);
              break;
            }
            nested(describe(script));
            return;
          } else if (text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) i += 1;
          else break;
        }
        if (unknownScript) break;
        words = rest.slice(i);
        continue;
      }
      case 'nohup':
      case 'builtin':
      case 'unbuffer':
      case 'catchsegv':
        words = rest;
        continue;
      case 'time':
      case 'setsid':
        words = skipOptions(rest, new Set());
        continue;
      case 'command':
        if (rest.some((w) => w.text === '-v' || w.text === '-V')) return;
        words = skipOptions(rest, new Set());
        continue;
      case 'exec':
        words = skipOptions(rest, new Set(['-a']));
        continue;
      case 'nice':
        words = skipOptions(rest, new Set(['-n', '--adjustment']));
        continue;
      case 'ionice':
        words = skipOptions(rest, new Set(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']));
        continue;
      case 'stdbuf':
        words = skipOptions(rest, new Set(['-i', '-o', '-e']));
        continue;
      case 'timeout':
        words = skipOptions(rest, new Set(['-s', '-k', '--signal', '--kill-after'])).slice(1);
        continue;
      case 'watch':
        nested(describe(skipOptions(rest, new Set(['-n', '-d', '--interval']))));
        return;
      case 'xargs': {
        words = skipOptions(rest, new Set(['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file']));
        if (words.length === 0) words = [literal('echo')];
        via = 'xargs';
        continue;
      }
      case 'su': {
        elevated ??= 'su';
        const c = rest.findIndex((w) => w.text === '-c' || w.text === '--command');
        if (c !== -1 && rest[c + 1]) {
          if (rest[c + 1]!.dynamic) unknownScript = rest[c + 1]!.text;
          else {
            nested(rest[c + 1]!.text);
            pushElevated(out, command, 'su', level);
            return;
          }
        }
        break;
      }
      case 'ssh': {
        // The words after the host are a command line run on the remote side.
        const remote = skipOptions(rest, new Set(['-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-e', '-m', '-O', '-Q', '-S', '-W', '-w', '-E', '-B'])).slice(1);
        if (remote.length > 0) nested(describe(remote));
        break;
      }
      case 'alias':
        // With expand_aliases on, an alias's text runs later in this shell: judge it now.
        for (const word of rest) {
          const eq = word.text.indexOf('=');
          if (eq > 0) nested(word.text.slice(eq + 1), true);
        }
        break;
      case 'eval':
        if (rest.some((w) => w.dynamic)) {
          unknownScript = describe(rest);
          break;
        }
        nested(describe(rest), true);
        return;
      case 'git': {
        const alias = gitAliasScript(rest);
        if (alias !== undefined) nested(alias);
        break;
      }
      case 'python':
      case 'python3':
      case 'py': {
        const m = rest.findIndex((w) => w.text === '-m');
        if (m !== -1 && /^pip\d*(\.\d+)?$/.test(rest[m + 1]?.text ?? '')) {
          words = rest.slice(m + 1);
          continue;
        }
        break;
      }
    }
    if (name === 'source' || name === '.') {
      const script = scriptFromInput(command, rest);
      if (script?.text !== undefined) {
        nested(script.text, true);
        return;
      }
      if (script?.unknown) unknownScript = script.unknown;
    } else if (SHELLS.has(name)) {
      const script = shellScript(rest) ?? scriptFromInput(command, rest);
      if (script?.text !== undefined) {
        nested(script.text);
        if (elevated) pushElevated(out, command, elevated, level);
        return;
      }
      if (script?.unknown) unknownScript = script.unknown;
    } else if (interpreterOptions(name)) {
      const program = inlineCode(name, rest) ?? scriptFromInput(command, rest);
      if (program?.text !== undefined) code = program.text;
      else if (program?.unknown) unknownScript = program.unknown;
    }
    break;
  }
  if (words.length === 0) {
    if (command.redirects.length > 0) {
      out.commands.push({ name: '', args: [], words: [], redirects: command.redirects, depth: command.depth + level, scopes: command.scopes, computedName: false });
    }
    return;
  }
  const name = basename(words[0]!.text);
  const effective: Effective = {
    name,
    args: words.slice(1).map((w) => w.text),
    words,
    redirects: command.redirects,
    depth: command.depth + level,
    scopes: command.scopes,
    computedName: computedName(words[0]!, name),
  };
  if (via) effective.via = via;
  if (elevated) effective.elevated = elevated;
  if (unknownScript !== undefined) effective.unknownScript = unknownScript;
  if (code !== undefined) effective.code = code;
  out.commands.push(effective);
  if (name === 'find') {
    for (let i = 1; i < words.length; i++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[i]!.text)) continue;
      let end = i + 1;
      while (end < words.length && words[end]!.text !== ';' && words[end]!.text !== '+') end++;
      const inner = words.slice(i + 1, end);
      if (inner.length > 0) unwrap({ words: inner, redirects: [], depth: command.depth, scopes: command.scopes }, level + 1, out, home, 'find');
      i = end;
    }
  }
}

/**
 * A command word whose program is only known at run time: a substitution, an expansion in the
 * file name, or one that word splitting can cut up (`rm${IFS}-rf`). `$DIR/bin/tool` still runs a
 * program named `tool`, so it is judged as `tool`.
 */
function computedName(word: Word, name: string): boolean {
  if (word.substituted || /[$`]/.test(name)) return true;
  return word.dynamic && !/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/[^$`]*[^/$`]$/.test(word.text);
}

/** The elevation itself, recorded once its inner script has been unwrapped. */
function pushElevated(out: Unwrapped, command: SimpleCommand, name: string, level: number): void {
  out.commands.push({ name, args: [], words: [literal(name)], redirects: [], depth: command.depth + level, scopes: command.scopes, computedName: false, elevated: name });
}

