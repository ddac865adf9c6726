import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { cancelledError, ReikaError } from '../../runtime/errors.js';
import type { ScanCaps } from './caps.js';
import type { PreparedWork } from './prepared-scan.js';
import type { FileIndex, RepoMapFile } from './protocol.js';
import { traceEnv } from './startup-trace.js';

/**
 * The startup thread's file, in any out dir: in the bundle, one CommonJS file (`scripts/bundle.mjs`:
 * a CommonJS worker boots without the ES module loader); in tsc's output, the ES module.
 */
export function startupEntry(): URL {
  const bundled = new URL('../../workers/startup-entry.cjs', import.meta.url);
  return existsSync(bundled) ? bundled : new URL('../../workers/startup-entry.js', import.meta.url);
}

/** What the startup thread is given (`workerData`). */
export interface StartupWork {
  root: string;
  caps?: Partial<ScanCaps>;
  /** The bootstrap cache was looked up on the main thread and missed: the thread scans at once (and saves). */
  cacheMissed?: boolean;
}

/**
 * The startup thread's young generation, in MB. V8 lets a thread's young generation grow to tens
 * of MB while a scan allocates path strings and symbol records, and a thread's heap is part of
 * reika's RSS for as long as the thread lives. Capped at 4 MB, the peak RSS of a cold start in
 * the 150k tree fell from 131.9 to 120.7 MB (median of 5, main process 113.4 → 101.4 MB) with no
 * slower scan or ranking measured (bench/startup.bench.ts).
 */
export const STARTUP_YOUNG_GENERATION_MB = 4;

/** Startup threads still running, and who waits for none to be left. */
const running = new Set<Worker>();
let noneRunning: { promise: Promise<void>; resolve: () => void } | undefined;

/**
 * Settles once no startup thread is running (at once when none is). After the map is ranked, a
 * thread still writes the bootstrap cache on a miss; the tool executor's process is started after
 * that (cli/start-runtime.ts), so the two never hold their memory at the same time.
 */
export function startupThreadsEnded(): Promise<void> {
  if (running.size === 0) return Promise.resolve();
  if (!noneRunning) {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    noneRunning = { promise, resolve };
  }
  return noneRunning.promise;
}

/** What the startup thread posts: the index, then the ranked map; or one error. */
export type StartupMessage = { type: 'index'; index: FileIndex } | { type: 'ranked'; ranked: RepoMapFile[] } | { type: 'error'; message: string };

/**
 * Scans `root` and ranks its repo map in a thread of its own (`workers/startup-entry.ts`), started
 * at once: no piscina to load first, no pool thread to boot beside it. The thread ends by itself
 * when the map is ranked; `abort` ends it sooner. Failures reject as REIKA_ERR_INDEXER, an abort
 * as REIKA_ERR_CANCELLED.
 */
export function startupThread(work: StartupWork): PreparedWork {
  const env = traceEnv();
  const worker = new Worker(startupEntry(), { workerData: work, resourceLimits: { maxYoungGenerationSizeMb: STARTUP_YOUNG_GENERATION_MB }, ...(env ? { env } : {}) });
  running.add(worker);
  let settleIndex!: { resolve: (index: FileIndex) => void; reject: (error: Error) => void };
  let settleRanked!: { resolve: (ranked: RepoMapFile[]) => void; reject: (error: Error) => void };
  const index = new Promise<FileIndex>((resolve, reject) => (settleIndex = { resolve, reject }));
  const ranked = new Promise<RepoMapFile[]>((resolve, reject) => (settleRanked = { resolve, reject }));
  index.catch(() => {});
  ranked.catch(() => {});
  // Settling a settled promise does nothing, so every ending may reject both.
  const fail = (error: Error) => {
    settleIndex.reject(error);
    settleRanked.reject(error);
  };
  worker.on('message', (message: StartupMessage) => {
    if (message.type === 'index') settleIndex.resolve(message.index);
    else if (message.type === 'ranked') settleRanked.resolve(message.ranked);
    else fail(new ReikaError('REIKA_ERR_INDEXER', message.message));
  });
  worker.on('error', (error) => fail(new ReikaError('REIKA_ERR_INDEXER', error.message)));
  worker.on('exit', () => {
    fail(new ReikaError('REIKA_ERR_INDEXER', 'indexing stopped before the repo map was ranked'));
    running.delete(worker);
    if (running.size === 0 && noneRunning) {
      noneRunning.resolve();
      noneRunning = undefined;
    }
  });
  return {
    index,
    ranked,
    abort(reason) {
      fail(cancelledError(reason));
      void worker.terminate();
    },
  };
}
