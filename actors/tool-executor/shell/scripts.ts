import { decodeEchoEscapes, decodePrintfEscapes } from './ansi-c.js';
import type { SimpleCommand, Word } from './parse.js';
import { basename } from './words.js';

/**
 * Where the program a shell or an interpreter runs comes from: `bash -c SCRIPT`, `python3 -c
 * CODE`, `node -e CODE`, awk's program, a here-doc, a here-string, `echo …|sh` (escapes decoded),
 * or a producer only known at run time (`base64 -d | sh`, `<(…)`, `"$X"`). A script file is not
 * inline text. Each returns `text` when the program is known, `unknown` naming its source when it
 * is not, and undefined when the program is a file (or there is none).
 */
export interface ScriptSource {
  text?: string;
  unknown?: string;
}

const describe = (words: Word[]) => words.map((w) => w.text).join(' ');

/** Options that carry an interpreter's inline program, per interpreter family. */
const CODE_OPTIONS: [RegExp, RegExp][] = [
  [/^(python[0-9.]*|pypy[0-9.]*|py)$/, /^-[A-Za-z]*c$/],
  [/^(node|nodejs|bun|deno)$/, /^(-e|--eval|-p|--print|-pe)$/],
  [/^(perl|ruby)$/, /^-[A-Za-z]*[eE]$/],
  [/^php$/, /^-r$/],
  [/^(lua|luajit|Rscript|osascript)$/, /^-e$/],
  // awk's program is its first operand; this only names the family.
  [/^(awk|gawk|mawk|nawk|busybox-awk)$/, /^$/],
];

/** The script of `bash -c SCRIPT` (also `-lc`, `-ec`, `-o pipefail -c`), or undefined. */
export function shellScript(args: Word[]): ScriptSource | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '-o' || text === '+o' || text === '-O' || text === '+O') {
      i++;
      continue;
    }
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(text)) {
      const script = args[i + 1];
      if (!script) return undefined;
      return script.dynamic ? { unknown: script.text } : { text: script.text };
    }
    if (!text.startsWith('-') && !text.startsWith('+')) return undefined;
  }
  return undefined;
}

/** The option list of an interpreter that takes inline code, or undefined. */
export function interpreterOptions(name: string): RegExp | undefined {
  return CODE_OPTIONS.find(([names]) => names.test(name))?.[1];
}

/** An interpreter's inline program (`-c CODE`, `-e CODE`, `-cCODE`; perl's `-ne CODE`). */
export function inlineCode(name: string, args: Word[]): ScriptSource | undefined {
  const option = interpreterOptions(name)!;
  if (/awk$/.test(name)) return awkProgram(args);
  if (/^(deno)$/.test(name) && args[0]?.text === 'eval' && args[1]) return args[1].dynamic ? { unknown: args[1].text } : { text: args[1].text };
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '--') break;
    if (option.test(text)) {
      const value = args[i + 1];
      if (!value) break;
      if (value.dynamic) return { unknown: value.text };
      parts.push(value.text);
      i++;
      continue;
    }
    // Python's `-c` ends the interpreter's options: what follows is the program's arguments.
    if (!text.startsWith('-')) break;
  }
  return parts.length > 0 ? { text: parts.join('\n') } : undefined;
}

/** `awk [-F sep] [-v a=b] 'PROGRAM' file…`: the program, unless it comes from a file (`-f`). */
function awkProgram(args: Word[]): ScriptSource | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '-f' || text.startsWith('--file')) return undefined;
    if (text === '-F' || text === '-v') i++;
    else if (text === '--') continue;
    else if (!text.startsWith('-')) return args[i]!.dynamic ? { unknown: text } : { text };
  }
  return undefined;
}

/**
 * What a shell or interpreter with no script operand reads from stdin: a heredoc, a here-string,
 * the text `echo`/`printf` pipe into it (`echo "rm -rf x" | sh`, escapes decoded), or — when
 * another program produces it (`base64 -d | sh`, `<(…)`) — `unknown` naming that program.
 * A script file (`sh run.sh`, `sh < run.sh`, `cat run.sh | sh`) is not inline text: undefined.
 */
export function scriptFromInput(command: SimpleCommand, args: Word[]): ScriptSource | undefined {
  const operands = args.filter((w) => !w.text.startsWith('-') || w.text === '-');
  const readsStdin = operands.length === 0 || operands[0]!.text === '-' || operands[0]!.text === '/dev/stdin';
  const processSubstitution = command.redirects.find((r) => r.op === '<(');
  if (!readsStdin) return operands[0]!.dynamic ? { unknown: operands[0]!.text } : undefined;
  for (const redirect of command.redirects) {
    if (redirect.body !== undefined) return { text: redirect.body };
    if (redirect.op === '<<<') return redirect.target.dynamic ? { unknown: redirect.target.text } : { text: redirect.target.text };
    if (redirect.op === '<') return undefined;
  }
  if (processSubstitution && operands.length === 0) return { unknown: 'a process substitution' };
  const source = command.pipedFrom;
  if (!source || source.words.length === 0) return undefined;
  const feeder = basename(source.words[0]!.text);
  const feed = source.words.slice(1);
  if (feeder === 'echo' || feeder === 'printf') {
    if (feed.some((w) => w.dynamic)) return { unknown: `${feeder} ${describe(feed)}` };
    if (feeder === 'printf') return { text: decodePrintfEscapes(feed.map((w) => w.text)) };
    let i = 0;
    let escapes = false;
    while (i < feed.length && /^-[neE]+$/.test(feed[i]!.text)) {
      if (feed[i]!.text.includes('e')) escapes = true;
      if (feed[i]!.text.includes('E')) escapes = false;
      i++;
    }
    const text = feed.slice(i).map((w) => w.text).join(' ');
    return { text: escapes ? decodeEchoEscapes(text) : text };
  }
  if (feeder === 'cat' && feed.length > 0 && feed.every((w) => !w.dynamic && !w.text.startsWith('-') && w.text !== '/dev/stdin')) return undefined;
  return { unknown: describe(source.words) };
}

/**
 * `git -c alias.NAME='!cmd' … NAME`: the shell command the alias runs, if the sub-command is
 * such an alias given on the command line.
 */
export function gitAliasScript(args: Word[]): string | undefined {
  const aliases = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '-c' || text.startsWith('-c')) {
      const value = text === '-c' ? args[++i]?.text : text.slice(2);
      const match = /^alias\.([^=]+)=(.*)$/s.exec(value ?? '');
      if (match) aliases.set(match[1]!.toLowerCase(), match[2]!);
      continue;
    }
    if (['-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'].includes(text)) {
      i++;
      continue;
    }
    if (text.startsWith('-')) continue;
    const alias = aliases.get(text.toLowerCase());
    if (alias?.startsWith('!')) return `${alias.slice(1)} ${args.slice(i + 1).map((w) => quote(w.text)).join(' ')}`.trim();
    return undefined;
  }
  return undefined;
}

function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
