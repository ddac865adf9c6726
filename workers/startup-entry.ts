import { parentPort, workerData } from 'node:worker_threads';
import { cachedScanAndMap, scanAndMap } from '../actors/indexer/scan-and-map.js';
import type { StartupMessage, StartupWork } from '../actors/indexer/startup-thread.js';
import { traceStartup } from '../actors/indexer/startup-trace.js';

// The startup thread (`actors/indexer/startup-thread.ts`): a plain worker thread, not a piscina
// one, so it starts before piscina is even loaded and boots with nothing but the scan and the map
// code. It scans `workerData.root`, posts the index, ranks the repo map, posts that, and ends;
// with the default caps the bootstrap cache answers instead when the tree is unchanged.
// A failure is posted as a message; the main thread ends the thread to abort it.

traceStartup('indexer thread: modules loaded');

const port = parentPort!;
const post = (message: StartupMessage) => port.postMessage(message);
const work = workerData as StartupWork;
try {
  if (work.caps === undefined) {
    // Default caps: the bootstrap cache may answer, unless the main thread found it missing already (written after 'ranked' on a miss).
    cachedScanAndMap(work.root, { missed: work.cacheMissed === true, onIndex: (index) => post({ type: 'index', index }), onRanked: (ranked) => post({ type: 'ranked', ranked }) });
  } else {
    const ranked = scanAndMap(work.root, { caps: work.caps, onIndex: (index) => post({ type: 'index', index }) });
    post({ type: 'ranked', ranked });
  }
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}
