import test from 'ava';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { IndexerPool } from '../../../actors/indexer/pool.js';
import { ReikaError } from '../../../runtime/errors.js';
import { tempDir, writeTree } from '../../helpers/temp.js';

const spinTasks = new URL('./spin-tasks.js', import.meta.url);

/** `Atomics.waitAsync` (Node 16+), missing from the ES2023 lib typings. */
interface AtomicsWaitAsync {
  waitAsync(view: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string };
}

test('the pool scans a folder in a worker thread', async (t) => {
  const pool = new IndexerPool({ maxThreads: 1 });
  t.teardown(() => pool.close());
  const root = writeTree(tempDir(), { '.gitignore': 'x.log\n', 'x.log': '', 'src/a.ts': '' });
  const index = await pool.scan(root);
  t.deepEqual(index.paths, ['.gitignore', 'src/a.ts']);
  t.deepEqual(index.mapCandidates, ['src/a.ts']);
});

test('aborting a running task ends its thread and rejects as cancelled; the pool goes on', async (t) => {
  const exited: number[] = [];
  let onExit: (id: number) => void = () => {};
  const pool = new IndexerPool({ filename: spinTasks, maxThreads: 2, onThreadExit: (id) => (exited.push(id), onExit(id)) });
  t.teardown(() => pool.close());
  const shared = new SharedArrayBuffer(8);
  const view = new Int32Array(shared);
  const controller = new AbortController();
  const running = pool.run('spin', shared, controller.signal);
  running.catch(() => {});
  // The task signals through shared memory that it is running.
  const started = (Atomics as unknown as AtomicsWaitAsync).waitAsync(view, 0, 0);
  if (started.async) await started.value;
  const spinningThread = Atomics.load(view, 0);
  t.not(spinningThread, 0);
  const ended = new Promise<void>((resolve) => {
    onExit = (id) => id === spinningThread && resolve();
    if (exited.includes(spinningThread)) resolve();
  });
  controller.abort('user pressed Esc');
  const error = (await t.throwsAsync(running)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CANCELLED');
  await ended;
  t.deepEqual(await pool.run('echo', { n: 1 }), { n: 1 });
});

test('an already aborted signal rejects before any work is sent', async (t) => {
  const pool = new IndexerPool({ filename: spinTasks, maxThreads: 1 });
  t.teardown(() => pool.close());
  const controller = new AbortController();
  controller.abort();
  const error = (await t.throwsAsync(pool.run('spin', new SharedArrayBuffer(8), controller.signal))) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CANCELLED');
});

test('a task that throws fails with a typed indexer error carrying its message', async (t) => {
  const pool = new IndexerPool({ filename: spinTasks, maxThreads: 1 });
  t.teardown(() => pool.close());
  const error = (await t.throwsAsync(pool.run('fail', 'no such thing'))) as ReikaError;
  t.true(ReikaError.isInstance(error));
  t.is(error.code, 'REIKA_ERR_INDEXER');
  t.is(error.message, 'no such thing');
});

test('a closed pool refuses work with a typed error', async (t) => {
  const pool = new IndexerPool({ maxThreads: 1 });
  await pool.close();
  const error = (await t.throwsAsync(pool.scan(tempDir()))) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CLOSED');
});

test('the CommonJS file piscina starts offers every task of the pool entry, each resolving to the entry’s function', async (t) => {
  // piscina require()s its worker file; the loader keeps the ES module entry out of require(esm),
  // whose load aborts the process when the thread is ended during it.
  const { POOL_ENTRY } = await import('../../../actors/indexer/pool.js');
  t.true(POOL_ENTRY.pathname.endsWith('.cjs'));
  const loader = createRequire(import.meta.url)(fileURLToPath(POOL_ENTRY)) as Record<string, Promise<unknown>>;
  const entry = (await import(new URL('pool-entry.js', POOL_ENTRY).href)) as Record<string, unknown>;
  t.deepEqual(Object.keys(loader).sort(), Object.keys(entry).sort());
  for (const name of Object.keys(entry)) t.is(await loader[name], entry[name], name);
});
