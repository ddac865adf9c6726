import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineActor, type ActorDefinition } from '../../runtime/actor.js';
import { ReikaError } from '../../runtime/errors.js';
import { IndexerPool, type IndexerPoolOptions } from './pool.js';
import { PreparedScan } from './prepared-scan.js';
import { takePrestartedIndexer } from './prestart.js';
import type { FileIndex, IndexerProtocol, RepoMap } from './protocol.js';
import { renderRepoMap } from './render-map.js';
import { traceStartup } from './startup-trace.js';

// The indexer actor: runs in the main thread (`supervisor.register('indexer', indexerActor)`) as
// a thin front for the piscina pool, so the tree is only ever walked in worker threads. The
// request's `signal` goes to the pool: an abort ends the thread doing the work.
//
// A scan may come prepared (`prepareMap`, or prestarted in a thread of its own before the runtime
// by `prestart.ts`): its thread goes on to rank the repo map of its map candidates, and the
// repo-map request that follows for exactly those files is answered from it instead of being
// extracted again.

/** The root as an absolute folder, or a one-sentence error (checked here: cheap and async). */
async function checkRoot(root: string): Promise<string> {
  const absolute = resolve(root);
  try {
    if ((await stat(absolute)).isDirectory()) return absolute;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ReikaError('REIKA_ERR_NO_SUCH_FOLDER', `${absolute} does not exist`);
    throw new ReikaError('REIKA_ERR_NO_SUCH_FOLDER', `${absolute} cannot be read: ${(error as Error).message}`);
  }
  throw new ReikaError('REIKA_ERR_NO_SUCH_FOLDER', `${absolute} is not a folder`);
}

const sameCaps = (a: object | undefined, b: object | undefined) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * A definition that owns one pool (made in `setup`, ended in `dispose`); `register`'s options
 * tune the pool. Each supervisor registers its own definition. Set up without options, it adopts
 * the prestarted scan if there is one (and then starts its pool only on a first task).
 */
export function createIndexerActor(): ActorDefinition<IndexerProtocol, IndexerPoolOptions | undefined> {
  let pool: IndexerPool | undefined;
  /** A prepared scan not asked for yet. */
  let prepared: PreparedScan | undefined;
  /** A prepared scan whose index was answered; its map waits for the repo-map request. */
  let scanned: PreparedScan | undefined;

  const drop = (scan: PreparedScan | undefined) => scan?.abort();

  return defineActor<IndexerProtocol, IndexerPoolOptions | undefined>({
    setup({ options }) {
      // A restarted incarnation never inherits the threads of the one before.
      void pool?.close();
      drop(prepared);
      drop(scanned);
      scanned = undefined;
      prepared = options === undefined ? takePrestartedIndexer() : undefined;
      // With a prestarted scan the startup needs no pool thread: the pool starts on its first task.
      pool = new IndexerPool(prepared ? { lazy: true } : (options ?? {}));
    },

    async handle(request, context) {
      if (!pool) throw new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down');
      switch (request.type) {
        case 'scan': {
          traceStartup('indexer: scan requested');
          const root = await checkRoot(request.root);
          let scan = prepared?.root === root && sameCaps(prepared.caps, request.caps) ? prepared : undefined;
          if (scan !== prepared) drop(prepared);
          prepared = undefined;
          drop(scanned);
          scanned = undefined;
          if (!scan && request.prepareMap) scan = PreparedScan.inPool(pool, root, request.caps);
          if (scan) {
            try {
              const index = await scan.await(scan.index, context.signal);
              traceStartup('indexer: scan answered (prepared)');
              scanned = scan;
              return index;
            } catch (error) {
              // A prepared scan that failed on its own is simply run again, for the usual error.
              if (context.signal.aborted) throw error;
            }
          }
          return pool.scan(root, { caps: request.caps, signal: context.signal }) satisfies Promise<FileIndex>;
        }
        case 'repo-map': {
          traceStartup('indexer: repo map requested');
          const root = await checkRoot(request.root);
          const scan = scanned;
          scanned = undefined;
          if (scan && (await scan.isMapOf(root, request.paths))) {
            try {
              const ranked = await scan.await(scan.ranked, context.signal);
              traceStartup('indexer: repo map answered (prepared)');
              return renderRepoMap(ranked, request.budgetTokens) satisfies RepoMap;
            } catch (error) {
              if (context.signal.aborted) throw error;
            }
          } else drop(scan);
          const { buildRepoMap } = await import('./repo-map.js');
          return buildRepoMap(pool, { root, paths: request.paths, budgetTokens: request.budgetTokens }, context.signal);
        }
      }
    },

    async dispose() {
      const closing = pool;
      pool = undefined;
      drop(prepared);
      drop(scanned);
      prepared = scanned = undefined;
      await closing?.close();
    },
  });
}

/** The application's indexer (one supervisor per process). */
export const indexerActor = createIndexerActor();
export default indexerActor;
