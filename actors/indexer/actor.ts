import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineActor, type ActorDefinition } from '../../runtime/actor.js';
import { ReikaError } from '../../runtime/errors.js';
import { IndexerPool, type IndexerPoolOptions } from './pool.js';
import type { FileIndex, IndexerProtocol } from './protocol.js';

/**
 * The indexer actor: runs in the main thread (`supervisor.register('indexer', indexerActor)`) as
 * a thin front for the piscina pool, so the tree is only ever walked in worker threads. The
 * request's `signal` goes to the pool: an abort ends the thread doing the work.
 */

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

/**
 * A definition that owns one pool (made in `setup`, ended in `dispose`); `register`'s options
 * tune the pool. Each supervisor registers its own definition.
 */
export function createIndexerActor(): ActorDefinition<IndexerProtocol, IndexerPoolOptions | undefined> {
  let pool: IndexerPool | undefined;
  return defineActor<IndexerProtocol, IndexerPoolOptions | undefined>({
    setup({ options }) {
      // A restarted incarnation never inherits the threads of the one before.
      void pool?.close();
      pool = new IndexerPool(options ?? {});
    },

    async handle(request, context) {
      if (!pool) throw new ReikaError('REIKA_ERR_CLOSED', 'the indexer is not running');
      switch (request.type) {
        case 'scan': {
          const root = await checkRoot(request.root);
          return pool.scan(root, { caps: request.caps, signal: context.signal }) satisfies Promise<FileIndex>;
        }
        case 'repo-map': {
          const root = await checkRoot(request.root);
          const { buildRepoMap } = await import('./repo-map.js');
          return buildRepoMap(pool, { root, paths: request.paths, budgetTokens: request.budgetTokens }, context.signal);
        }
      }
    },

    async dispose() {
      const closing = pool;
      pool = undefined;
      await closing?.close();
    },
  });
}

/** The application's indexer (one supervisor per process). */
export const indexerActor = createIndexerActor();
export default indexerActor;
