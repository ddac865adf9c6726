import { spawn } from 'node:child_process';
import { findProgram as findOnPath } from '../../../find-program.js';
import { onAbort } from '../../../../runtime/abort.js';

/** Where `name` is on `PATH` (an executable file), or undefined; looked up once per process and PATH. */
export function findProgram(name: string, path = process.env.PATH ?? ''): string | undefined {
  const key = `${name}\0${path}`;
  if (!found.has(key)) found.set(key, findOnPath(name, { path }));
  return found.get(key);
}
const found = new Map<string, string | undefined>();

export interface ProgramResult {
  /** Null when the program was killed (abort) or could not start. */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  aborted: boolean;
}

/**
 * Runs a searcher (`rg`, `git`) to its end and returns what it printed. Abort kills it at once
 * (SIGKILL: a searcher holds nothing worth a clean exit) and resolves only after it has exited,
 * so no process outlives the call. `onSpawn` gets its pid (tests).
 */
export function runProgram(command: string, args: string[], options: { cwd: string; signal: AbortSignal; onSpawn?: (pid: number) => void }): Promise<ProgramResult> {
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    let stderr = '';
    let aborted = false;
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const remove = onAbort(options.signal, () => {
      aborted = true;
      child.kill('SIGKILL');
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      remove();
      resolve({ code, stdout: Buffer.concat(stdout), stderr, aborted });
    };
    child.once('error', () => finish(null));
    child.once('close', (code) => finish(aborted ? null : code));
  });
}
