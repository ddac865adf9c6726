import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createIndexerActor } from '../../../actors/indexer/actor.js';
import { IndexerPool } from '../../../actors/indexer/pool.js';
import { prestartIndexer, takePrestartedIndexer } from '../../../actors/indexer/prestart.js';
import { INDEXER, type FileIndex, type IndexerRequest, type RepoMap } from '../../../actors/indexer/protocol.js';
import { buildRepoMap } from '../../../actors/indexer/repo-map.js';
import { startupThread } from '../../../actors/indexer/startup-thread.js';
import type { ReikaError } from '../../../runtime/errors.js';
import { Supervisor } from '../../../runtime/supervisor.js';
import { gitRepo } from '../../helpers/temp.js';
import { CENTRAL_MODULE, sampleRepo } from './repo-map-sample.js';
import { client } from '../../../runtime/actor.js';

/** A supervisor with an indexer registered with `options` (undefined: adopts a prestarted pool). */
async function withIndexer<T>(options: { maxThreads: number } | undefined, use: (ask: <R>(body: IndexerRequest, scope?: string) => Promise<R>, supervisor: Supervisor) => Promise<T>): Promise<T> {
  const supervisor = new Supervisor();
  try {
    await supervisor.register(INDEXER, createIndexerActor(), options);
    return await use(<R>(body: IndexerRequest, scope?: string) => client(supervisor, INDEXER).request(body, scope ? { scope } : {}) as Promise<R>, supervisor);
  } finally {
    await supervisor.close();
  }
}

/** The index without its timing. */
const comparable = (index: FileIndex) => JSON.stringify({ ...index, stats: { ...index.stats, ms: 0 } });

const tree = sampleRepo({ packages: 20, modulesPerPackage: 8, testsPerPackage: 3 });

test('a prepared scan gives the same index and the same map bytes as a plain scan and map', async (t) => {
  const root = gitRepo(tree);
  const plain = await withIndexer({ maxThreads: 2 }, async (ask) => {
    const index = await ask<FileIndex>({ type: 'scan', root });
    return { index, map: await ask<RepoMap>({ type: 'repo-map', root, paths: index.mapCandidates!, budgetTokens: 2_000 }) };
  });
  const prepared = await withIndexer({ maxThreads: 2 }, async (ask) => {
    const index = await ask<FileIndex>({ type: 'scan', root, prepareMap: true });
    return { index, map: await ask<RepoMap>({ type: 'repo-map', root, paths: index.mapCandidates!, budgetTokens: 2_000 }) };
  });
  t.is(comparable(prepared.index), comparable(plain.index));
  t.is(prepared.map.text, plain.map.text);
  t.is(JSON.stringify(prepared.map), JSON.stringify(plain.map));
  t.is(prepared.map.files[0]!.path, CENTRAL_MODULE);
  t.true(prepared.map.omitted > 0);
});

test('the bootstrap after a prestart is answered from the prestarted scan, once', async (t) => {
  const root = gitRepo(tree);
  const scan = prestartIndexer(root);
  t.is(prestartIndexer(root), scan, 'one prestart waits at a time');
  await scan.ranked;
  // Changed after the prestarted map was ranked: only a fresh build can see the new name.
  const central = join(root, CENTRAL_MODULE);
  writeFileSync(central, `${readFileSync(central, 'utf8')}\nexport function lateAddition(): void {}\n`);
  await withIndexer(undefined, async (ask) => {
    t.is(takePrestartedIndexer(), undefined, 'the actor adopted the prestarted pool');
    const index = await ask<FileIndex>({ type: 'scan', root });
    const first = await ask<RepoMap>({ type: 'repo-map', root, paths: index.mapCandidates!, budgetTokens: 3_200 });
    t.notRegex(first.text, /lateAddition/);
    const again = await ask<FileIndex>({ type: 'scan', root });
    const second = await ask<RepoMap>({ type: 'repo-map', root, paths: again.mapCandidates!, budgetTokens: 3_200 });
    t.regex(second.text, /lateAddition/);
  });
});

test('a repo-map request for other files than the prepared scan found is built afresh', async (t) => {
  const root = gitRepo(tree);
  await withIndexer({ maxThreads: 1 }, async (ask) => {
    const index = await ask<FileIndex>({ type: 'scan', root, prepareMap: true });
    const some = index.mapCandidates!.slice(0, 5);
    const map = await ask<RepoMap>({ type: 'repo-map', root, paths: some, budgetTokens: 3_200 });
    t.deepEqual(map.files.map((file) => file.path).sort(), [...some].sort());
  });
});

test('aborting a prepared scan or the map it waits for fails as cancelled, and the indexer keeps serving', async (t) => {
  const root = gitRepo(tree);
  await withIndexer({ maxThreads: 1 }, async (ask, supervisor) => {
    const scanning = ask({ type: 'scan', root, prepareMap: true }, 'turn-1');
    supervisor.abort('turn-1', 'user pressed Esc');
    t.is(((await t.throwsAsync(scanning)) as ReikaError).code, 'REIKA_ERR_CANCELLED');

    const index = await ask<FileIndex>({ type: 'scan', root, prepareMap: true }, 'turn-2');
    const mapping = ask({ type: 'repo-map', root, paths: index.mapCandidates!, budgetTokens: 3_200 }, 'turn-2');
    supervisor.abort('turn-2', 'user pressed Esc');
    t.is(((await t.throwsAsync(mapping)) as ReikaError).code, 'REIKA_ERR_CANCELLED');

    const again = await ask<FileIndex>({ type: 'scan', root, prepareMap: true }, 'turn-3');
    const map = await ask<RepoMap>({ type: 'repo-map', root, paths: again.mapCandidates!, budgetTokens: 3_200 }, 'turn-3');
    t.is(map.files[0]!.path, CENTRAL_MODULE);
  });
});

test('the startup thread gives the index and the ranked files that the pool gives', async (t) => {
  const root = gitRepo(tree);
  const work = startupThread({ root });
  const pool = new IndexerPool({ maxThreads: 2 });
  try {
    const index = await pool.scan(root);
    t.is(comparable(await work.index), comparable(index));
    const map = await buildRepoMap(pool, { root, paths: index.mapCandidates!, budgetTokens: 3_200 });
    t.is(JSON.stringify(await work.ranked), JSON.stringify(map.files));
  } finally {
    await pool.close();
  }
});

test('a startup thread fails with the scan error, or as cancelled when aborted', async (t) => {
  const missing = startupThread({ root: join(gitRepo(tree), 'nope') });
  const error = (await t.throwsAsync(missing.index)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_INDEXER');
  t.regex(error.message, /nope does not exist$/);
  await t.throwsAsync(missing.ranked);

  const aborted = startupThread({ root: gitRepo(tree) });
  aborted.abort('user pressed Esc');
  t.is(((await t.throwsAsync(aborted.index)) as ReikaError).code, 'REIKA_ERR_CANCELLED');
  t.is(((await t.throwsAsync(aborted.ranked)) as ReikaError).code, 'REIKA_ERR_CANCELLED');
});
