import { performance } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';

/**
 * `REIKA_TRACE_STARTUP=1`: one stderr line per startup milestone, in milliseconds since the
 * process started, from the main thread and the indexer threads alike (a thread's clock starts
 * with the thread, so the main thread hands its origin down through the environment threads copy).
 * Off, a mark costs one boolean test.
 */

export const TRACE_STARTUP = process.env.REIKA_TRACE_STARTUP === '1';
const ORIGIN_VARIABLE = 'REIKA_TRACE_ORIGIN';

const origin = Number(process.env[ORIGIN_VARIABLE]) || performance.timeOrigin;
if (TRACE_STARTUP && threadId === 0) process.env[ORIGIN_VARIABLE] = String(performance.timeOrigin);

/** Writes `[startup 123.4 ms t0] label` when tracing is on. */
export function traceStartup(label: string): void {
  if (!TRACE_STARTUP) return;
  const ms = performance.timeOrigin + performance.now() - origin;
  process.stderr.write(`[startup ${ms.toFixed(1)} ms t${threadId}] ${label}\n`);
}
