import { resolve } from 'node:path';
import { cacheEnabled, loadBootstrap, type CachedBootstrap } from './bootstrap-cache.js';
import { PreparedScan, type PreparedWork } from './prepared-scan.js';
import { startupThread } from './startup-thread.js';
import { traceStartup } from './startup-trace.js';

// Starting the indexer before the runtime: `reika -p` calls {@link prestartIndexer} as the first
// thing after its arguments are read. The bootstrap cache is looked up right there, on the main
// thread (`bootstrap-cache.ts`: one small file and a stat per stamp): a hit starts no thread at all.
// On a miss a thread boots, scans and ranks the repo map while the main thread is still loading
// the runtime and the session (`startup-thread.ts`). The indexer actor adopts the prepared scan
// when it is set up without options (`createIndexerActor`), and the bootstrap's scan and repo-map
// requests are answered from it.

let prestarted: PreparedScan | undefined;

/**
 * Starts a prepared scan of `root` in a thread of its own, unless one is already waiting to be
 * adopted; returns the waiting scan (a caller may await its `index` or `ranked`).
 */
export function prestartIndexer(root: string): PreparedScan {
  if (!prestarted) {
    const absolute = resolve(root);
    const enabled = cacheEnabled();
    const hit = enabled ? loadBootstrap(absolute) : undefined;
    traceStartup(`bootstrap cache: ${!enabled ? 'off' : hit ? 'hit' : 'miss'} (main thread)`);
    prestarted = new PreparedScan(absolute, undefined, hit ? answered(hit) : startupThread({ root: absolute, cacheMissed: enabled }));
  }
  return prestarted;
}

/** A prepared scan the cache answered: nothing runs, nothing to end. */
function answered(hit: CachedBootstrap): PreparedWork {
  return { index: Promise.resolve(hit.index), ranked: Promise.resolve(hit.ranked), abort() {} };
}

/** The prestarted scan, handed over once (to the indexer actor). */
export function takePrestartedIndexer(): PreparedScan | undefined {
  const taken = prestarted;
  prestarted = undefined;
  return taken;
}

/** Ends a prestarted scan that nothing adopted (the run stopped before the runtime started). */
export function discardPrestartedIndexer(): void {
  takePrestartedIndexer()?.abort('not adopted');
}
