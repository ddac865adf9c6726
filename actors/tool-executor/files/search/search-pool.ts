import type { IndexerPool } from '../../../indexer/pool.js';

/**
 * The tool executor's indexer threads, for grep's walk path (`threaded-search.ts`): the indexer's
 * pool class and worker file in this process, made on the first walk that needs it (with rg or
 * git on PATH it may never be), its threads ended once idle (none kept) and all of them by
 * `closeSearchPool` when the executor is disposed.
 */
let pool: IndexerPool | undefined;

export async function searchPool(): Promise<IndexerPool> {
  if (pool) return pool;
  const { IndexerPool } = await import('../../../indexer/pool.js');
  return (pool ??= new IndexerPool({ lazy: true, minThreads: 0 }));
}

export async function closeSearchPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}
