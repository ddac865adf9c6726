import { resolve } from 'node:path';
import { IndexerPool } from './pool.js';
import { PreparedScan } from './prepared-scan.js';

/**
 * Starting the indexer before the runtime: `reika -p` calls {@link prestartIndexer} as the first
 * thing after its arguments are read, so the indexer thread boots, scans and ranks the repo map
 * while the main thread is still loading the runtime and the session. The indexer actor adopts
 * the pool and the prepared scan when it is set up without options (`createIndexerActor`), and the
 * bootstrap's scan and repo-map requests are answered from it.
 */

interface Prestarted {
  pool: IndexerPool;
  scan: PreparedScan;
}

let prestarted: Prestarted | undefined;

/**
 * Starts the indexer pool and a prepared scan of `root`, unless one is already waiting to be
 * adopted; returns the waiting scan (a caller may await its `index` or `ranked`).
 */
export function prestartIndexer(root: string): PreparedScan {
  if (!prestarted) {
    const pool = new IndexerPool();
    prestarted = { pool, scan: new PreparedScan(pool, resolve(root)) };
  }
  return prestarted.scan;
}

/** The prestarted pool and scan, handed over once (to the indexer actor). */
export function takePrestartedIndexer(): Prestarted | undefined {
  const taken = prestarted;
  prestarted = undefined;
  return taken;
}

/** Ends a prestarted pool that nothing adopted (the run stopped before the runtime started). */
export async function discardPrestartedIndexer(): Promise<void> {
  await takePrestartedIndexer()?.pool.close();
}
