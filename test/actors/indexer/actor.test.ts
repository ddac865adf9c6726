import test from 'ava';
import { join } from 'node:path';
import { createIndexerActor } from '../../../actors/indexer/actor.js';
import { INDEXER, type IndexerRequest } from '../../../actors/indexer/protocol.js';
import type { ReikaError } from '../../../runtime/index.js';
import { client, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';

async function withIndexer(run: (supervisor: Supervisor) => Promise<void>): Promise<void> {
  const supervisor = new Supervisor();
  try {
    await supervisor.register(INDEXER, createIndexerActor(), { maxThreads: 1 });
    await run(supervisor);
  } finally {
    await supervisor.close();
  }
}

test('the indexer actor answers a scan request from its pool', async (t) => {
  const root = writeTree(tempDir(), { 'a.ts': '', 'node_modules/x.js': '', 'docs/b.md': '' });
  await withIndexer(async (supervisor) => {
    const index = await client(supervisor, INDEXER).request({ type: 'scan', root } satisfies IndexerRequest);
    t.is(index.root, root);
    t.deepEqual(index.paths, ['a.ts', 'docs/b.md']);
    t.deepEqual(index.capped, []);
  });
});

test('the scan request carries smaller caps through to the worker', async (t) => {
  const root = writeTree(tempDir(), { 'a.ts': '', 'b.ts': '', 'c.ts': '' });
  await withIndexer(async (supervisor) => {
    const index = await client(supervisor, INDEXER).request({ type: 'scan', root, caps: { indexPaths: 2 } } satisfies IndexerRequest);
    t.deepEqual(index.paths, ['a.ts', 'b.ts']);
    t.deepEqual(index.capped, ['files']);
  });
});

test('a missing root or a file as root fails with one clear sentence', async (t) => {
  const root = writeTree(tempDir(), { 'f.txt': '' });
  await withIndexer(async (supervisor) => {
    const missing = (await t.throwsAsync(client(supervisor, INDEXER).request({ type: 'scan', root: join(root, 'nope') }))) as ReikaError;
    t.is(missing.code, 'REIKA_ERR_NO_SUCH_FOLDER');
    t.is(missing.message, `${join(root, 'nope')} does not exist`);
    const file = (await t.throwsAsync(client(supervisor, INDEXER).request({ type: 'scan', root: join(root, 'f.txt') }))) as ReikaError;
    t.is(file.message, `${join(root, 'f.txt')} is not a folder`);
  });
});

test('aborting the scope of a scan fails it as cancelled and the indexer keeps serving', async (t) => {
  const root = writeTree(tempDir(), { 'a.ts': '' });
  await withIndexer(async (supervisor) => {
    const pending = client(supervisor, INDEXER).request({ type: 'scan', root }, { scope: 'turn-1' });
    supervisor.abort('turn-1', 'user pressed Esc');
    const error = (await t.throwsAsync(pending)) as ReikaError;
    t.is(error.code, 'REIKA_ERR_CANCELLED');
    const index = await client(supervisor, INDEXER).request({ type: 'scan', root }, { scope: 'turn-2' });
    t.deepEqual(index.paths, ['a.ts']);
  });
});
