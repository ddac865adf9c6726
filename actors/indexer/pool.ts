import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { MessageChannel, type TransferListItem } from 'node:worker_threads';
import type { Piscina as PiscinaClass } from 'piscina';
import { cancelledError, ReikaError } from '../../runtime/errors.js';
import type { ScanCaps } from './caps.js';
import type { FileIndex, RepoMapFile } from './protocol.js';
import { traceEnv, traceStartup } from './startup-trace.js';

// Piscina is CommonJS: required (when the first pool is made), it loads ~4 ms sooner than
// imported, as Node then skips scanning its source for named exports.
const requirePiscina = () => (createRequire(import.meta.url)('piscina') as typeof import('piscina')).Piscina;

/** The worker file (it loads `workers/pool-entry.js`), next to this one in any out dir. */
export const POOL_ENTRY = new URL('../../workers/pool-loader.cjs', import.meta.url);

/** At most this many indexer threads (the repo map's extraction runs batches in parallel). */
export const MAX_INDEXER_THREADS = 4;
/** An idle extra thread ends after this long; one thread stays for `/cd`. */
const IDLE_TIMEOUT_MS = 10_000;

export interface IndexerPoolOptions {
  /** Defaults to the machine's parallelism, within 1–4. */
  maxThreads?: number;
  /** Errors the pool reports outside any task (a thread dying while idle). */
  onError?: (error: Error) => void;
  /** Called with a thread's id when it ends (idle timeout, abort, close). */
  onThreadExit?: (threadId: number) => void;
  /** Another worker file, for tests. */
  filename?: URL;
  /**
   * Start no thread (and load no piscina) before the first task. By default one thread starts at
   * once, so a scan asked for soon after finds it booted.
   */
  lazy?: boolean;
  /** Threads kept when idle (default 1: one stays for `/cd`); 0 lets every thread end. */
  minThreads?: number;
}

/**
 * The piscina pool of indexer threads. The main thread never walks the tree: it hands tasks to
 * the pool and awaits plain results. Every task takes a `signal`; aborting a task that is already
 * running ends its thread (piscina gives an abortable task a thread of its own), which is the only
 * way to stop a synchronous crawl.
 */
export class IndexerPool {
  private piscinaInstance: PiscinaClass | undefined;
  private closed = false;

  constructor(private readonly options: IndexerPoolOptions = {}) {
    if (!options.lazy) void this.piscina;
  }

  private get piscina(): PiscinaClass {
    if (this.piscinaInstance) return this.piscinaInstance;
    const options = this.options;
    const maxThreads = this.maxThreads;
    const Piscina = requirePiscina();
    const env = traceEnv();
    const piscina = new Piscina({
      filename: (options.filename ?? POOL_ENTRY).href,
      // The task a thread loads before it says it is ready: pool-loader's exports resolve together.
      name: 'scan',
      minThreads: Math.min(options.minThreads ?? 1, maxThreads),
      maxThreads,
      idleTimeout: IDLE_TIMEOUT_MS,
      ...(env ? { env } : {}),
    });
    traceStartup('indexer pool created');
    // Without a listener an 'error' event would throw in the main thread.
    piscina.on('error', (error: Error) => options.onError?.(error));
    if (options.onThreadExit) {
      const onThreadExit = options.onThreadExit;
      piscina.on('workerDestroy', (worker: { id: number }) => onThreadExit(worker.id));
    }
    this.piscinaInstance = piscina;
    return piscina;
  }

  /** Scans one root within caps in an indexer thread. */
  scan(root: string, options: { caps?: Partial<ScanCaps>; signal?: AbortSignal } = {}): Promise<FileIndex> {
    return this.run<FileIndex>('scan', { root, caps: options.caps }, options.signal);
  }

  /**
   * The scan, then the repo map's ranking of its map candidates, in one task of one thread
   * (`scan-and-map.ts`): `index` settles as soon as the scan is done, `ranked` when the
   * files are ranked (what `buildRepoMap` would rank for `index.mapCandidates`). An abort rejects
   * both that are still pending.
   */
  scanAndMap(root: string, options: { caps?: Partial<ScanCaps>; signal?: AbortSignal } = {}): { index: Promise<FileIndex>; ranked: Promise<RepoMapFile[]> } {
    const { port1, port2 } = new MessageChannel();
    const ranked = this.run<RepoMapFile[]>('scanAndMap', { root, caps: options.caps, port: port2 }, options.signal, [port2]);
    const index = new Promise<FileIndex>((resolve, reject) => {
      port1.once('message', (index: FileIndex) => {
        port1.close();
        resolve(index);
      });
      // The index is posted before the task returns; if the task failed first, no index is coming.
      ranked.catch((error: unknown) => {
        port1.close();
        reject(error);
      });
    });
    ranked.catch(() => {});
    index.catch(() => {});
    return { index, ranked };
  }

  /**
   * Runs one named task of `workers/pool-entry.ts`. An abort rejects with REIKA_ERR_CANCELLED at
   * once, whether the task was queued or running.
   */
  async run<R>(name: string, task: unknown, signal?: AbortSignal, transferList?: TransferListItem[]): Promise<R> {
    if (this.closed) throw new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down');
    if (signal?.aborted) throw cancelledError(String(signal.reason ?? 'cancelled'));
    try {
      return (await this.piscina.run(task, { name, ...(signal ? { signal } : {}), ...(transferList ? { transferList } : {}) })) as R;
    } catch (error) {
      if (signal?.aborted) throw cancelledError(String(signal.reason ?? 'cancelled'));
      if (ReikaError.isInstance(error)) throw error;
      // Piscina's own words for a pool closed under the task ('Terminating worker thread').
      if (this.closed) throw new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down');
      throw new ReikaError('REIKA_ERR_INDEXER', error instanceof Error ? error.message : String(error));
    }
  }

  /** The most threads this pool runs at once. */
  get maxThreads(): number {
    return this.options.maxThreads ?? Math.max(1, Math.min(MAX_INDEXER_THREADS, availableParallelism()));
  }

  /** Threads currently alive (for tests and diagnostics). */
  get threadCount(): number {
    return this.piscinaInstance?.threads.length ?? 0;
  }

  /** Ends every thread at once; running tasks are abandoned. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscinaInstance?.destroy();
  }
}
