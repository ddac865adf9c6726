import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tempDir } from '../helpers/temp.js';
import { reikaBin } from '../helpers/binary.js';
import { testSite, watchChild } from '../helpers/watchdog.js';
import { running as alive } from '../helpers/processes.js';

/** Shared by the headless end-to-end tests: run the BUILT `reika` binary as a user would. */

export const mainJs = reikaBin;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  stdin?: string | Buffer;
  /** Called with each stdout line as it arrives; may send a signal to the child. */
  onLine?(line: string, child: { pid: number; kill(signal: NodeJS.Signals): void }): void;
  /** Called with each stderr line as it arrives; may send a signal to the child. */
  onErrLine?(line: string, child: { pid: number; kill(signal: NodeJS.Signals): void }): void;
  /** Called right after the spawn (e.g. to signal the child at a chosen moment). */
  onSpawn?(child: { pid: number; kill(signal: NodeJS.Signals): void }): void;
  /**
   * How long the run may take before the watchdog kills it (its process group and all under it)
   * and the run fails naming the test (default `CHILD_LIMIT_MS` of helpers/watchdog.ts, 180 s).
   */
  limitMs?: number;
}

/** A clean environment: no REIKA_* from the caller, HOME in a temp folder (no ~/.config/reika/.env). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('REIKA_')) env[key] = value;
  // No language servers unless a test asks for them (see helpers/temp.ts).
  return { ...env, HOME: tempDir('reika-home-'), REIKA_DIAGNOSTICS: 'off', ...extra };
}

/**
 * Runs `reika ARGS` to its end. It leads a process group of its own; a run that has not ended
 * after `limitMs` is killed with all under it and the promise rejects with a note naming the test.
 */
export function runReika(args: string[], options: RunOptions): Promise<Run> {
  const site = testSite();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainJs, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const watch = watchChild(child, `reika ${describeArgs(args)}`, { limitMs: options.limitMs, site });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        options.onLine?.(line, { pid: child.pid!, kill: (signal) => child.kill(signal) });
      }
    });
    let pendingErr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!options.onErrLine) return;
      pendingErr += chunk;
      let newline: number;
      while ((newline = pendingErr.indexOf('\n')) >= 0) {
        const line = pendingErr.slice(0, newline);
        pendingErr = pendingErr.slice(newline + 1);
        options.onErrLine(line, { pid: child.pid!, kill: (signal) => child.kill(signal) });
      }
    });
    child.on('error', reject);
    // 'close' comes after the exit and after the pipes drained.
    child.on('close', (code, signal) => {
      if (watch.note) reject(new Error(`${watch.note}\nstderr so far:\n${stderr.slice(-2_000)}`));
      else resolve({ code, signal, stdout, stderr });
    });
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
    options.onSpawn?.({ pid: child.pid!, kill: (signal) => child.kill(signal) });
  });
}

/** The arguments as a reader would type them, long ones cut. */
export function describeArgs(args: string[]): string {
  return args.map((arg) => (arg.length > 60 ? `${JSON.stringify(arg.slice(0, 57))}…` : /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
}

/** True while the process runs; a zombie (dead, waiting to be reaped by whoever adopted it) counts as gone. */
export { alive };

/** A process as a failure message names it: its pid and command line. */
export function describeProcess(pid: number): string {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200)}`;
  } catch {
    return `${pid} (gone)`;
  }
}

/** Processes whose working directory is `dir` (what a leaked actor or command would keep). */
export function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir && alive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone or not ours
    }
  }
  return found;
}

/**
 * The processes still in `dir` once they have had up to 20 s to end (polled): a SIGKILL is sent,
 * not done, when kill() returns, and a loaded machine takes a while to end a big process.
 */
export async function processesLeftIn(dir: string): Promise<number[]> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (processesIn(dir).length === 0) return [];
  }
  return processesIn(dir);
}
