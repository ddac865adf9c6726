import { parseCommand, type Redirect, type SimpleCommand, type Word } from './shell-parse.js';

/**
 * What a simple command really runs once wrappers are looked through: `sudo`, `doas`, `env`,
 * `nohup`, `time`, `nice`, `timeout`, `stdbuf`, `setsid`, `command`, `exec`, `xargs`,
 * `bash -c '…'` / `sh -c '…'`, `eval …`, `find -exec …` and `python -m pip`.
 */

/** A command as the rules see it: its name (basename) and arguments as plain strings. */
export interface Effective {
  name: string;
  args: string[];
  /** The words themselves (to know which were dynamic). */
  words: Word[];
  redirects: Redirect[];
  /** Nesting depth of the original command (0 = top level of the command line). */
  depth: number;
  /** The command name came from a command substitution (`$(…) -rf /`). */
  computedName: boolean;
}

export interface Unwrapped {
  commands: Effective[];
  /** Parse errors anywhere, including inside `bash -c` strings. */
  errors: string[];
}

const MAX_NESTING = 8;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);

/** Parses a command line and unwraps every simple command in it. */
export function unwrapCommandLine(source: string, home?: string): Unwrapped {
  const out: Unwrapped = { commands: [], errors: [] };
  collect(source, 0, out, home);
  return out;
}

function collect(source: string, level: number, out: Unwrapped, home?: string): void {
  if (level > MAX_NESTING) {
    out.errors.push('commands nested too deeply');
    return;
  }
  const parsed = parseCommand(source, home);
  if (parsed.error) out.errors.push(parsed.error);
  for (const command of parsed.commands) unwrap(command, level, out, home);
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

function unwrap(command: SimpleCommand, level: number, out: Unwrapped, home?: string): void {
  let words = command.words;
  for (let guard = 0; guard < 16 && words.length > 0; guard++) {
    const name = basename(words[0]!.text);
    const rest = words.slice(1);
    switch (name) {
      case 'sudo':
      case 'doas':
        words = skipOptions(rest, new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir']));
        continue;
      case 'env': {
        let i = 0;
        while (i < rest.length) {
          const text = rest[i]!.text;
          if (text === '-u' || text === '-C' || text === '--unset' || text === '--chdir') i += 2;
          else if (text === '-S' || text === '--split-string') {
            collect(rest.slice(i + 1).map((w) => w.text).join(' '), level + 1, out, home);
            return;
          } else if (text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) i += 1;
          else break;
        }
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
        collect(skipOptions(rest, new Set(['-n', '-d', '--interval'])).map((w) => w.text).join(' '), level + 1, out, home);
        return;
      case 'xargs': {
        words = skipOptions(rest, new Set(['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file']));
        if (words.length === 0) words = [{ text: 'echo', quoted: false, dynamic: false, substituted: false }];
        continue;
      }
      case 'ssh': {
        // The words after the host are a command line run on the remote side.
        const remote = skipOptions(rest, new Set(['-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-e', '-m', '-O', '-Q', '-S', '-W', '-w', '-E', '-B'])).slice(1);
        if (remote.length > 0) collect(remote.map((w) => w.text).join(' '), level + 1, out, home);
        break;
      }
      case 'eval':
        collect(rest.map((w) => w.text).join(' '), level + 1, out, home);
        return;
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
      default:
        if (SHELLS.has(name)) {
          const script = shellScript(rest) ?? scriptFromInput(command, rest);
          if (script !== undefined) {
            collect(script, level + 1, out, home);
            return;
          }
        }
    }
    break;
  }
  if (words.length === 0) {
    if (command.redirects.length > 0) {
      out.commands.push({ name: '', args: [], words: [], redirects: command.redirects, depth: command.depth, computedName: false });
    }
    return;
  }
  const name = basename(words[0]!.text);
  out.commands.push({
    name,
    args: words.slice(1).map((w) => w.text),
    words,
    redirects: command.redirects,
    depth: command.depth + level,
    computedName: words[0]!.substituted,
  });
  if (name === 'find') {
    for (let i = 1; i < words.length; i++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[i]!.text)) continue;
      let end = i + 1;
      while (end < words.length && words[end]!.text !== ';' && words[end]!.text !== '+') end++;
      const inner = words.slice(i + 1, end);
      if (inner.length > 0) unwrap({ words: inner, redirects: [], depth: command.depth }, level + 1, out, home);
      i = end;
    }
  }
}

/** The script of `bash -c SCRIPT` (also `-lc`, `-ec`, `-o pipefail -c`), or undefined. */
function shellScript(args: Word[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '-o' || text === '+o' || text === '-O' || text === '+O') {
      i++;
      continue;
    }
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(text)) return args[i + 1]?.text;
    if (!text.startsWith('-') && !text.startsWith('+')) return undefined;
  }
  return undefined;
}

/**
 * What a shell without `-c` and without a script file reads from stdin: a heredoc, a here-string,
 * or the text `echo`/`printf` pipes into it (`echo "rm -rf x" | sh`).
 */
function scriptFromInput(command: SimpleCommand, args: Word[]): string | undefined {
  if (args.some((w) => !w.text.startsWith('-') && !w.text.startsWith('+'))) return undefined;
  for (const redirect of command.redirects) {
    if (redirect.body !== undefined) return redirect.body;
    if (redirect.op === '<<<') return redirect.target.text;
  }
  const source = command.pipedFrom;
  const feeder = source?.words[0] ? basename(source.words[0].text) : undefined;
  if (source && (feeder === 'echo' || feeder === 'printf')) {
    const text = source.words.slice(1).filter((w, i) => i > 0 || !/^-[neE]+$/.test(w.text)).map((w) => w.text).join(' ');
    return feeder === 'printf' ? text.replace(/\\n/g, '\n') : text;
  }
  return undefined;
}

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** Flags of an argument list, normalised: `-rf`, `-r -f` and `--recursive --force` alike. */
export interface Flags {
  short: Set<string>;
  long: Set<string>;
  /** Non-option arguments (everything after `--` counts as one). */
  operands: string[];
}

export function readFlags(args: string[], withValue: Set<string> = new Set()): Flags {
  const flags: Flags = { short: new Set(), long: new Set(), operands: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      flags.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      flags.long.add(arg.slice(2).split('=')[0]!);
      if (withValue.has(arg) && !arg.includes('=')) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (const char of arg.slice(1)) flags.short.add(char);
      if (withValue.has(arg)) i++;
    } else {
      flags.operands.push(arg);
    }
  }
  return flags;
}
