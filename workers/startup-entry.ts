import { parentPort, workerData } from 'node:worker_threads';
import type { ScanCaps } from '../actors/indexer/caps.js';
import type { FileIndex, RepoMapFile } from '../actors/indexer/protocol.js';
import { traceStartup } from '../actors/indexer/startup-trace.js';
import { scanAndMap } from './scan-and-map.js';

/**
 * The startup thread (`actors/indexer/startup-thread.ts`): a plain worker thread, not a piscina
 * one, so it starts before piscina is even loaded and boots with nothing but the scan and the map
 * code. It scans `workerData.root`, posts the index, ranks the repo map, posts that, and ends.
 * A failure is posted as a message; the main thread ends the thread to abort it.
 */

export interface StartupWork {
  root: string;
  caps?: Partial<ScanCaps>;
}

export type StartupMessage = { type: 'index'; index: FileIndex } | { type: 'ranked'; ranked: RepoMapFile[] } | { type: 'error'; message: string };

traceStartup('indexer thread: modules loaded');

const port = parentPort!;
const post = (message: StartupMessage) => port.postMessage(message);
const work = workerData as StartupWork;
try {
  const ranked = scanAndMap(work.root, { caps: work.caps, onIndex: (index) => post({ type: 'index', index }) });
  post({ type: 'ranked', ranked });
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}
