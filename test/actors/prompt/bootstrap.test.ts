import test from 'ava';
import type { Router } from '../../../runtime/calls.js';
import { ReikaError } from '../../../runtime/errors.js';
import { bootstrap } from '../../../actors/prompt/bootstrap.js';
import type { FileIndex } from '../../../actors/indexer/protocol.js';
import { tempDir } from '../../helpers/temp.js';

/** A router whose indexer answers the scan and fails the repo map with `error`. */
function failingMap(error: Error): Router {
  return {
    async request<R>(_to: string, body: unknown): Promise<R> {
      if ((body as { type: string }).type === 'scan') return { paths: ['a.ts'], capped: [] } as unknown as FileIndex as R;
      throw error;
    },
  };
}

test('a repo map that fails goes on without a map and says why', async (t) => {
  const boot = await bootstrap(failingMap(new ReikaError('REIKA_ERR_ACTOR_CRASHED', 'the indexer crashed')), { root: tempDir('reika-boot-'), budgetTokens: 3200 });
  t.is(boot.repoMapError, 'the indexer crashed');
  t.deepEqual(boot.repoMap.files, []);
});

test('a runtime closing under the bootstrap ends it, instead of reporting "the supervisor is closed" as the map\'s problem', async (t) => {
  const closing = bootstrap(failingMap(new ReikaError('REIKA_ERR_CLOSED', 'the supervisor is closed')), { root: tempDir('reika-boot-'), budgetTokens: 3200 });
  const error = await t.throwsAsync(closing);
  t.is((error as ReikaError).code, 'REIKA_ERR_CLOSED');
});
