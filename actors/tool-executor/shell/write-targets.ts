import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { compileGlob } from '../files/glob-match.js';
import { readFlags, type Effective } from './unwrap.js';

const OUTPUT_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const VALUE_FLAGS = new Set(['-t', '--target-directory', '-m', '--mode', '-S', '--suffix', '-s', '--size', '-o', '-g', '-r', '--reference']);

/**
 * The files a command writes, as written on the command line (relative to where it runs):
 * redirections, the operands of file commands, `sed -i`/`perl -i` files, `--output=` values,
 * `find -fprint` files, `tar -C` folders; and, given the folder it runs in, the existing files
 * it would empty, overwrite or delete.
 */
export function writeTargets(command: Effective): string[] {
  const targets = command.redirects.filter((r) => OUTPUT_REDIRECTS.has(r.op)).map((r) => r.target.text);
  const { name, args } = command;
  const flags = () => readFlags(args, VALUE_FLAGS);
  const valueOf = (...options: string[]) => {
    const found: string[] = [];
    for (let i = 0; i < args.length; i++) {
      for (const option of options) {
        if (args[i] === option && args[i + 1] !== undefined) found.push(args[i + 1]!);
        else if (option.startsWith('--') && args[i]!.startsWith(`${option}=`)) found.push(args[i]!.slice(option.length + 1));
        else if (!option.startsWith('--') && option.length === 2 && args[i]!.startsWith(option) && args[i]!.length > 2 && !args[i]!.startsWith('--')) found.push(args[i]!.slice(2));
      }
    }
    return found;
  };
  targets.push(...valueOf('--output'));
  switch (name) {
    case 'tee':
    case 'touch':
    case 'mkdir':
    case 'rmdir':
    case 'rm':
    case 'truncate':
    case 'unlink':
    case 'shred':
      targets.push(...flags().operands);
      break;
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      // The mode or owner comes first unless --reference gives it.
      const operands = flags().operands;
      targets.push(...(args.some((a) => a.startsWith('--reference')) ? operands : operands.slice(1)));
      break;
    }
    case 'cp':
    case 'mv':
    case 'ln':
    case 'install':
    case 'rsync': {
      const [target] = valueOf('-t', '--target-directory');
      const operands = flags().operands;
      if (target) targets.push(target);
      else if (operands.length >= 2 && !(name === 'rsync' && operands.at(-1)!.includes(':'))) targets.push(operands.at(-1)!);
      else if (name === 'install' && args.includes('-d')) targets.push(...operands);
      // mv takes its sources away.
      if (name === 'mv') targets.push(...(target ? operands : operands.slice(0, -1)));
      break;
    }
    case 'dd':
      for (const arg of args) if (arg.startsWith('of=')) targets.push(arg.slice(3));
      break;
    case 'sed':
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) targets.push(...sedFiles(args));
      break;
    case 'perl':
    case 'ruby':
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a))) targets.push(...scriptFiles(args));
      break;
    case 'sort':
    case 'shuf':
    case 'base64':
    case 'patch':
      targets.push(...valueOf('-o'));
      if (name === 'patch') targets.push(...flags().operands.slice(0, 1));
      break;
    case 'uniq': {
      const operands = flags().operands;
      if (operands.length >= 2) targets.push(operands[1]!);
      break;
    }
    case 'find':
      for (let i = 0; i < args.length; i++) if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(args[i]!) && args[i + 1]) targets.push(args[i + 1]!);
      break;
    case 'tar': {
      const first = args[0] ?? '';
      const extracts = args.some((a) => a === '--extract' || a === '--get') || /^-?[a-zA-Z]*x/.test(first);
      const creates = args.some((a) => a === '--create') || /^-?[a-zA-Z]*c/.test(first);
      if (extracts) targets.push(...(valueOf('-C', '--directory').length > 0 ? valueOf('-C', '--directory') : ['.']));
      if (creates) targets.push(...valueOf('-f', '--file'));
      break;
    }
    case 'unzip':
      targets.push(...valueOf('-d'));
      break;
  }
  return targets;
}

/** `sed [-i] [-e SCRIPT | SCRIPT] FILE…`: the files. */
function sedFiles(args: string[]): string[] {
  const files: string[] = [];
  let scriptGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-e' || arg === '-f' || arg === '--expression' || arg === '--file') {
      scriptGiven = true;
      i++;
    } else if (arg.startsWith('--expression=') || arg.startsWith('--file=')) scriptGiven = true;
    else if (arg === '-l' || arg === '--line-length') i++;
    else if (arg.startsWith('-') && arg !== '-') continue;
    else if (!scriptGiven) scriptGiven = true;
    else files.push(arg);
  }
  return files;
}

/** `perl -i -pe CODE FILE…`: the files after the code. */
function scriptFiles(args: string[]): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (/^-[a-zA-Z]*[eE]$/.test(arg)) i++;
    else if (!arg.startsWith('-')) files.push(arg);
  }
  return files;
}

/** An existing file a command would empty, overwrite or delete. */
export interface Doomed {
  /** Absolute path (not resolved through symlinks). */
  path: string;
  /**
   * `delete` for plain removal; `overwrite` loses the content in place; `replace` is a command's
   * output written over a file (`> f`): routine for logs, so it only counts for precious files.
   */
  kind: 'delete' | 'overwrite' | 'replace';
  /** What happens, for the reason shown: "empties", "truncates", "overwrites", "deletes". */
  how: string;
  /** Its size in bytes. */
  size: number;
}

const EMPTYING = /^(|:|true|false)$/;
/** Files whose content is the work itself, not output: secrets and databases. */
const PRECIOUS = /^\.env(\..+)?$|\.(pem|key|p12|pfx|kdbx|sqlite3?|db)$/;

/** The existing files `command` (run in `cwd`) would destroy the content of. */
export function doomedFiles(command: Effective, cwd: string): Doomed[] {
  const found: Doomed[] = [];
  const at = (path: string) => resolve(cwd, path);
  const push = (path: string, kind: Doomed['kind'], how: string) => {
    for (const file of expand(command, path, cwd)) {
      const size = fileSize(file);
      if (size !== undefined) found.push({ path: file, kind, how, size });
    }
  };
  const { name, args } = command;
  const flags = readFlags(args, VALUE_FLAGS);
  const empty = producesNothing(command);
  for (const redirect of command.redirects) {
    if (!['>', '>|', '&>'].includes(redirect.op) || redirect.target.dynamic) continue;
    if (empty) push(redirect.target.text, 'overwrite', 'empties');
    else if (PRECIOUS.test(basename(redirect.target.text))) push(redirect.target.text, 'replace', 'overwrites');
  }
  switch (name) {
    case 'truncate': {
      const size = args.find((a, i) => args[i - 1] === '-s' || args[i - 1] === '--size') ?? args.find((a) => a.startsWith('--size='))?.slice(7) ?? args.find((a) => /^-s./.test(a))?.slice(2);
      if (size === undefined || !/^[+>]/.test(size)) for (const file of flags.operands) push(file, 'overwrite', 'truncates');
      break;
    }
    case 'dd':
      for (const arg of args) if (arg.startsWith('of=')) push(arg.slice(3), 'overwrite', 'overwrites');
      break;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln': {
      if (name === 'ln' && !(flags.short.has('f') || flags.long.has('force'))) break;
      if (flags.short.has('n') || flags.short.has('i') || flags.short.has('b') || flags.long.has('no-clobber') || flags.long.has('interactive') || flags.long.has('backup') || args.includes('--update=none')) break;
      const targetDir = args.find((a, i) => args[i - 1] === '-t' || args[i - 1] === '--target-directory') ?? args.find((a) => a.startsWith('--target-directory='))?.split('=')[1];
      const operands = flags.operands;
      const sources = targetDir ? operands : operands.slice(0, -1);
      const dest = targetDir ?? (operands.length >= 2 ? operands.at(-1) : undefined);
      if (dest === undefined || dest.startsWith('/dev/')) break;
      if (isDirectory(at(dest))) for (const source of sources) push(resolve(at(dest), basename(source)), 'overwrite', 'overwrites');
      else if (!targetDir) push(dest, 'overwrite', 'overwrites');
      break;
    }
    case 'rm':
    case 'unlink':
      for (const file of flags.operands) push(file, 'delete', 'deletes');
      break;
  }
  return found;
}

/** `: > f`, `> f`, `true > f`, `cat /dev/null > f`, `echo -n > f`, `printf '' > f`: output is empty. */
function producesNothing(command: Effective): boolean {
  const { name, args } = command;
  if (EMPTYING.test(name)) return true;
  if (name === 'cat') return args.length > 0 && args.every((a) => a === '/dev/null');
  if (name === 'echo') return args.length > 0 && args.every((a) => /^-[neE]*n[neE]*$/.test(a));
  if (name === 'printf') return args.length === 1 && args[0] === '';
  return false;
}

/** The size of a file (or symlink) at `path`, undefined when there is none. */
function fileSize(path: string): number | undefined {
  try {
    const info = lstatSync(path);
    return info.isFile() || info.isSymbolicLink() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

const GLOB = /[*?[]/;
const MAX_MATCHES = 500;

/**
 * The files an operand names once the shell expanded it: `*.log`, `logs/?.txt`, `[ab].txt`
 * (unquoted words only; dot files only for a pattern starting with a dot, as bash does).
 */
function expand(command: Effective, operand: string, cwd: string): string[] {
  const unquoted = command.words.some((w) => w.text === operand && !w.quoted && !w.dynamic);
  if (!GLOB.test(operand) || !unquoted) return [resolve(cwd, operand)];
  let paths = [operand.startsWith('/') ? '/' : cwd];
  for (const segment of operand.split('/').filter(Boolean)) {
    if (!GLOB.test(segment)) {
      paths = paths.map((path) => join(path, segment));
      continue;
    }
    const match = compileGlob(segment);
    const next: string[] = [];
    for (const dir of paths) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) if ((segment.startsWith('.') || !name.startsWith('.')) && match(name)) next.push(join(dir, name));
      if (next.length > MAX_MATCHES) break;
    }
    paths = next.slice(0, MAX_MATCHES);
  }
  return paths;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
