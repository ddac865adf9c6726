import { performance } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import { environmentSwitch } from '../settings/process-settings.js';

// `REIKA_TRACE_STARTUP=1`: one stderr line per startup milestone, `[startup 123.4 ms t0] label`,
// in milliseconds since the process started, from the main thread (t0) and the indexer threads
// alike. A thread's clock starts with the thread, so the main thread's origin goes to the threads
// it starts in their environment ({@link traceEnv}). Off, a mark costs one boolean test.
// `bench/startup.bench.ts` prints the median of each milestone.

export const TRACE_STARTUP = environmentSwitch('REIKA_TRACE_STARTUP');
const ORIGIN_VARIABLE = 'REIKA_TRACE_ORIGIN';

const origin = (threadId !== 0 && Number(process.env[ORIGIN_VARIABLE])) || performance.timeOrigin;

/** Writes one trace line when tracing is on. */
export function traceStartup(label: string): void {
  if (!TRACE_STARTUP) return;
  const ms = performance.timeOrigin + performance.now() - origin;
  process.stderr.write(`[startup ${ms.toFixed(1)} ms t${threadId}] ${label}\n`);
}

/**
 * The environment for a thread started from here: the process's own, plus this thread's clock
 * origin when tracing (undefined otherwise: the thread gets the default environment).
 */
export function traceEnv(): NodeJS.ProcessEnv | undefined {
  return TRACE_STARTUP ? { ...process.env, [ORIGIN_VARIABLE]: String(origin) } : undefined;
}
