import { spawn } from 'node:child_process';
import { onAbort } from '../../runtime/abort.js';

/** What a hook's process did. */
export interface HookRun {
  /** The exit code; null when it was killed (timeout, abort) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not end by itself: it ran past its timeout, the turn was aborted, it could not start. */
  ended?: { why: 'timeout' | 'aborted' | 'spawn'; detail?: string };
}

/** Output kept per stream; a hook that prints more is cut (its decision is in the first bytes). */
const KEEP_BYTES = 64 * 1024;
/** After the hook exits, how long a child it left holding its pipes may keep them. */
const DRAIN_MS = 200;

/** Process groups of hooks still running: reika does not leave one behind when it exits. */
const running = new Set<number>();
let exitHandler = false;

function track(pid: number | undefined): void {
  if (pid === undefined) return;
  running.add(pid);
  if (exitHandler) return;
  exitHandler = true;
  process.once('exit', () => {
    for (const group of running) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  });
}

/**
 * Runs one hook command: `/bin/bash -c COMMAND` in the project folder, outside the sandbox, with
 * the user's environment (SPEC §16: hooks are the user's own programs) plus `REIKA_PROJECT_DIR`
 * (and `CLAUDE_PROJECT_DIR`, so hooks written for Claude Code find their scripts). `input` is
 * written to its stdin as one JSON object. It runs in a process group of its own; at its timeout,
 * or when `signal` aborts, the whole group is killed. Never throws, never outlives its timeout.
 */
export function runHook(command: string, input: object, options: { cwd: string; timeoutMs: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv }): Promise<HookRun> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ code: null, stdout: '', stderr: '', ended: { why: 'aborted' } });
    const env = { ...(options.env ?? process.env), REIKA_PROJECT_DIR: options.cwd, CLAUDE_PROJECT_DIR: options.cwd };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('/bin/bash', ['-c', command], { cwd: options.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      return resolve({ code: null, stdout: '', stderr: '', ended: { why: 'spawn', detail: (error as Error).message } });
    }
    track(child.pid);
    const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], bytes: { stdout: 0, stderr: 0 } };
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]!.on('data', (chunk: Buffer) => {
        if (out.bytes[stream] >= KEEP_BYTES) return;
        out[stream].push(chunk.subarray(0, KEEP_BYTES - out.bytes[stream]));
        out.bytes[stream] += chunk.length;
      });
    }
    let ended: HookRun['ended'];
    let code: number | null = null;
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      removeAbort();
      // Whatever the hook left running in its group goes with it.
      killGroup();
      if (child.pid !== undefined) running.delete(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ code, stdout: Buffer.concat(out.stdout).toString('utf8'), stderr: Buffer.concat(out.stderr).toString('utf8'), ...(ended ? { ended } : {}) });
    };
    const stop = (why: 'timeout' | 'aborted') => {
      ended ??= { why };
      killGroup();
      finish();
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    let drain: NodeJS.Timeout | undefined;
    const removeAbort = options.signal ? onAbort(options.signal, () => stop('aborted')) : () => {};
    child.once('error', (error) => {
      ended ??= { why: 'spawn', detail: error.message };
      finish();
    });
    child.once('exit', (exitCode) => {
      code = exitCode;
      // What the hook wrote before it exited is in its pipes; a loop held up past DRAIN_MS would
      // run this timer before it reads them (a JSON deny lost, the call run), so the end waits
      // one turn more: the loop reads ready pipes before it runs the next immediate.
      drain = setTimeout(() => setImmediate(finish), DRAIN_MS);
    });
    child.once('close', finish);
    // A hook that does not read its stdin must not fail the write.
    child.stdin!.on('error', () => {});
    child.stdin!.end(`${JSON.stringify(input)}\n`);
  });
}
