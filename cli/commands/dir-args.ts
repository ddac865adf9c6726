import { resolve } from 'node:path';

/** The arguments of `reika index` and `reika map`: one optional folder and `--json`. */
export interface DirArgs {
  dir: string;
  json: boolean;
}

/** Parses `[DIR] [--json]`; a string is the one-line error to print. */
export function parseDirArgs(argv: string[], usage: string): DirArgs | string {
  let dir: string | undefined;
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg === '--') continue;
    else if (arg.startsWith('-') && arg !== '-') return `unknown option ${arg} (${usage})`;
    else if (dir === undefined) dir = arg;
    else return `one folder at a time (${usage})`;
  }
  return { dir: resolve(dir ?? '.'), json };
}

/**
 * The common start of `reika index` and `reika map`: `--help`, argument errors (exit 2), and a
 * stdout closed early (`reika index | head`), which is not an error. A number is the exit code.
 */
export function startDirCommand(argv: string[], usage: string): DirArgs | number {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const args = parseDirArgs(argv, usage);
  if (typeof args === 'string') {
    process.stderr.write(`reika: ${args}\n`);
    return 2;
  }
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  return args;
}
