import { resolve } from 'node:path';
import { PreparedScan } from './prepared-scan.js';
import { startupThread } from './startup-thread.js';

/**
 * Starting the indexer before the runtime: `reika -p` calls {@link prestartIndexer} as the first
 * thing after its arguments are read, so a thread boots, scans and ranks the repo map while the
 * main thread is still loading the runtime and the session (`startup-thread.ts`). The indexer
 * actor adopts the prepared scan when it is set up without options (`createIndexerActor`), and
 * the bootstrap's scan and repo-map requests are answered from it.
 */

let prestarted: PreparedScan | undefined;

/**
 * Starts a prepared scan of `root` in a thread of its own, unless one is already waiting to be
 * adopted; returns the waiting scan (a caller may await its `index` or `ranked`).
 */
export function prestartIndexer(root: string): PreparedScan {
  if (!prestarted) {
    const absolute = resolve(root);
    prestarted = new PreparedScan(absolute, undefined, startupThread({ root: absolute }));
  }
  return prestarted;
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
