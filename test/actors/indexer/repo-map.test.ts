import test from 'ava';
import { Piscina } from 'piscina';
import { createIndexerActor } from '../../../actors/indexer/actor.js';
import { IndexerPool, POOL_ENTRY } from '../../../actors/indexer/pool.js';
import { INDEXER } from '../../../actors/indexer/protocol.js';
import { buildRepoMap, EXTRACT_BATCH, type TaskRunner } from '../../../actors/indexer/repo-map.js';
import type { ReikaError } from '../../../runtime/errors.js';
import { Supervisor } from '../../../runtime/supervisor.js';
import { roleOf } from '../../../actors/indexer/map/file-role.js';
import { gitRepo, tempDir, writeTree } from '../../helpers/temp.js';
import { CENTRAL_MODULE, sampleRepo } from './repo-map-sample.js';
import { client } from '../../../runtime/actor.js';

/** The indexer's pool with at most `threads` threads. */
async function withPool<T>(threads: number, use: (pool: IndexerPool) => Promise<T>): Promise<T> {
  const pool = new IndexerPool({ maxThreads: threads });
  try {
    return await use(pool);
  } finally {
    await pool.close();
  }
}

const root = gitRepo(sampleRepo({ packages: 12, modulesPerPackage: 6, testsPerPackage: 4 }));
const paths = Object.keys(sampleRepo({ packages: 12, modulesPerPackage: 6, testsPerPackage: 4 }));

test('the module every package depends on ranks first, and tests and generated code do not crowd out the core', async (t) => {
  const map = await withPool(2, (pool) => buildRepoMap(pool, { root, paths, budgetTokens: 3_200 }));
  t.is(map.files[0]!.path, CENTRAL_MODULE);
  t.is(map.text.split('\n')[0], `${CENTRAL_MODULE}: ServiceDescriptor, ServiceRegistry, registerService`);
  const top = map.files.slice(0, 20).map((file) => file.path);
  t.deepEqual(top.filter((path) => roleOf(path) !== 'core'), [], 'no test or generated file among the first 20');
  // The module of short common names is said by every file but means little.
  const common = map.files.findIndex((file) => file.path === 'packages/core/src/common.ts');
  t.true(common > 10, `common.ts ranked ${common}`);
  t.is(map.files.length, paths.length);
});

/** Exactly `threads` live threads on the indexer's worker file (IndexerPool starts with one). */
async function withThreads<T>(threads: number, use: (pool: TaskRunner) => Promise<T>): Promise<T> {
  const piscina = new Piscina({ filename: POOL_ENTRY.href, minThreads: threads, maxThreads: threads });
  try {
    return await use({ run: (name, task, signal) => piscina.run(task, { name, ...(signal ? { signal } : {}) }) });
  } finally {
    await piscina.destroy();
  }
}

test('the same tree gives the same bytes, run twice and with 1, 2 or 4 threads', async (t) => {
  const tree = sampleRepo({ packages: 60, modulesPerPackage: 12, testsPerPackage: 3 });
  const big = writeTree(tempDir(), tree);
  const request = { root: big, paths: Object.keys(tree), budgetTokens: 2_000 };
  t.true(request.paths.length > 10 * EXTRACT_BATCH, 'enough batches to spread over the threads');
  const runs = [
    await withThreads(1, (pool) => buildRepoMap(pool, request)),
    await withThreads(2, (pool) => buildRepoMap(pool, request)),
    await withThreads(4, (pool) => buildRepoMap(pool, { ...request, paths: [...request.paths].reverse() })),
    await withThreads(4, (pool) => buildRepoMap(pool, request)),
    await withPool(2, (pool) => buildRepoMap(pool, request)),
  ];
  for (const run of runs.slice(1)) {
    t.is(run.text, runs[0]!.text);
    t.is(JSON.stringify(run), JSON.stringify(runs[0]));
  }
  t.true(runs[0]!.omitted > 0);
});

test('the map keeps to its budget in whole lines and says how many files it left out', async (t) => {
  const map = await withPool(2, (pool) => buildRepoMap(pool, { root, paths, budgetTokens: 600 }));
  t.true(map.text.length <= 600 * 4, `${map.text.length} characters`);
  const lines = map.text.split('\n');
  t.is(lines.at(-1), `… ${map.omitted} more files not shown`);
  t.is(lines.length - 1 + map.omitted, map.files.length);
  for (const [index, line] of lines.slice(0, -1).entries()) t.true(line.startsWith(`${map.files[index]!.path}`));
});

test('files the map cannot read or does not know are left out, and the rest still map', async (t) => {
  const dir = writeTree(tempDir(), {
    'src/a.ts': 'export function alpha() {}\n',
    'src/b.ts': "import { alpha } from './a.js';\nexport const beta = alpha();\n",
    'README.md': '# not source\n',
    'src/blob.ts': Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02]),
  });
  const map = await withPool(1, (pool) =>
    buildRepoMap(pool, { root: dir, paths: ['src/a.ts', 'src/b.ts', 'README.md', 'src/blob.ts', 'src/gone.ts'], budgetTokens: 3_200 }),
  );
  t.deepEqual(map.text, 'src/a.ts: alpha\nsrc/b.ts: beta');
  t.is(map.omitted, 0);
});

test('an abort before or during a build rejects it as cancelled, and the pool keeps serving', async (t) => {
  await withPool(2, async (pool) => {
    const before = new AbortController();
    before.abort('stop');
    const early = (await t.throwsAsync(buildRepoMap(pool, { root, paths, budgetTokens: 3_200 }, before.signal))) as ReikaError;
    t.is(early.code, 'REIKA_ERR_CANCELLED');
    const during = new AbortController();
    const building = buildRepoMap(pool, { root, paths, budgetTokens: 3_200 }, during.signal);
    during.abort('stop');
    const late = (await t.throwsAsync(building)) as ReikaError;
    t.is(late.code, 'REIKA_ERR_CANCELLED');
    const map = await buildRepoMap(pool, { root, paths, budgetTokens: 3_200 });
    t.is(map.files[0]!.path, CENTRAL_MODULE);
  });
});

test('the indexer actor scans and maps a git repository on request', async (t) => {
  const supervisor = new Supervisor();
  try {
    await supervisor.register(INDEXER, createIndexerActor(), { maxThreads: 2 });
    const indexer = client(supervisor, INDEXER);
    const index = await indexer.request({ type: 'scan', root });
    const map = await indexer.request({ type: 'repo-map', root, paths: index.mapCandidates ?? index.paths, budgetTokens: 3_200 });
    t.is(map.files[0]!.path, CENTRAL_MODULE);
    t.is(map.files.length, paths.length);
    const missing = await t.throwsAsync(indexer.request({ type: 'repo-map', root: `${root}/nope`, paths: [], budgetTokens: 3_200 }));
    t.regex(missing!.message, /does not exist/);
  } finally {
    await supervisor.close();
  }
});

test('at most 3,000 source files are read, the first ones given', async (t) => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 3_010; i++) tree[`m/f${String(i).padStart(4, '0')}.py`] = `def f${i}_name():\n    pass\n`;
  const dir = writeTree(tempDir(), tree);
  const map = await withPool(2, (pool) => buildRepoMap(pool, { root: dir, paths: Object.keys(tree), budgetTokens: 100 }));
  t.is(map.files.length, 3_000);
  t.false(map.files.some((file) => file.path >= 'm/f3000.py'));
});
