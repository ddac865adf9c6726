import { onAbort } from '../../runtime/abort.js';
import { cancelledError } from '../../runtime/errors.js';
import type { ScanCaps } from './caps.js';
import type { IndexerPool } from './pool.js';
import type { FileIndex, RepoMapFile } from './protocol.js';
import { traceStartup } from './startup-trace.js';

/** A running scan-and-map: its two results, and how to end it. */
export interface PreparedWork {
  index: Promise<FileIndex>;
  ranked: Promise<RepoMapFile[]>;
  /** Ends the work if it still runs; what is still pending rejects as cancelled. */
  abort(reason: string): void;
}

/**
 * A scan whose repo map is prepared by the same thread (`scan-and-map.ts`): the
 * indexer answers the scan request from `index`, and the repo-map request that follows from
 * `ranked` when it asks for the map of that very scan (same root, same files). Owns the work's
 * abort: a request that gives up on it ends its thread, as any aborted indexer task does.
 */
export class PreparedScan {
  readonly index: Promise<FileIndex>;
  readonly ranked: Promise<RepoMapFile[]>;

  /** A pool task (a `prepareMap` scan request). */
  static inPool(pool: IndexerPool, root: string, caps?: Partial<ScanCaps>): PreparedScan {
    const controller = new AbortController();
    const task = pool.scanAndMap(root, { caps, signal: controller.signal });
    return new PreparedScan(root, caps, { ...task, abort: (reason) => controller.abort(reason) });
  }

  constructor(
    /** Absolute root. */
    readonly root: string,
    readonly caps: Partial<ScanCaps> | undefined,
    private readonly work: PreparedWork,
  ) {
    this.index = work.index;
    this.ranked = work.ranked;
    this.ranked.then(() => traceStartup('indexer: ranked map received'), () => {});
  }

  /** Ends the task (and its thread) if it is still running. */
  abort(reason = 'not needed'): void {
    this.work.abort(reason);
  }

  /**
   * True when a repo-map request for `paths` under `root` is for this scan's map candidates, as
   * the bootstrap asks (compared as lists, so the main thread needs no language table).
   */
  async isMapOf(root: string, paths: readonly string[]): Promise<boolean> {
    if (root !== this.root) return false;
    let index: FileIndex;
    try {
      index = await this.index;
    } catch {
      return false;
    }
    const ours = index.mapCandidates ?? index.paths;
    return ours.length === paths.length && ours.every((path, i) => path === paths[i]);
  }

  /**
   * `promise` (one of ours) unless `signal` aborts first: then the task is ended and a cancelled
   * error thrown. A task that fails on its own rejects with its error.
   */
  async await<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) {
      this.abort(String(signal.reason ?? 'cancelled'));
      throw cancelledError(String(signal.reason ?? 'cancelled'));
    }
    let removeAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      removeAbort = onAbort(signal, (reason) => {
        this.abort(String(reason ?? 'cancelled'));
        reject(cancelledError(String(reason ?? 'cancelled')));
      });
    });
    try {
      return await Promise.race([promise, aborted]);
    } finally {
      removeAbort();
    }
  }
}
