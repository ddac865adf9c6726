import type * as PoolEntry from './pool-entry.js';

/**
 * The file piscina starts in each indexer thread, CommonJS on purpose. Piscina `require()`s its
 * worker file; Node 20 then loads an ES module synchronously (require(esm)), and a thread ended
 * while that load runs aborts the whole process (V8: "IsGraphAsync must be used on an
 * instantiated module"; 1 in 200 pools closed within 90 ms of their start here). This file
 * loads `pool-entry.js` with `import()`, whose termination Node handles. Each task is a promise of
 * its function: piscina awaits it, so a thread is ready only once the entry has loaded.
 */
const entry: Promise<typeof PoolEntry> = import('./pool-entry.js');

export const scan = entry.then((loaded) => loaded.scan);
export const scanAndMap = entry.then((loaded) => loaded.scanAndMap);
export const extractSymbols = entry.then((loaded) => loaded.extractSymbols);
export const rankFiles = entry.then((loaded) => loaded.rankFiles);
export const grepFiles = entry.then((loaded) => loaded.grepFiles);
// A failed load fails each task that awaits it, not the thread.
for (const task of [scan, scanAndMap, extractSymbols, rankFiles, grepFiles]) task.catch(() => {});
