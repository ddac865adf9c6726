import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore, WATCH_OFF_FILE, type Checkpoint } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { describeSafety, safetyStatus } from '../../../../actors/tool-executor/safety/status.js';
import { gitRepo, tempDir, writeTree } from '../../../helpers/temp.js';
import { toolSettings } from '../../../helpers/tool-settings.js';

/**
 * Warm checkpoints read only the paths the watcher saw change. Each test changes the tree the
 * way a step would, right before a snapshot, and checks the watched snapshot holds exactly the
 * tree a full walk by a store without a watcher finds (same tree id).
 */

const TREE = {
  'README.md': '# project\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/deep/b.ts': 'export const b = 2;\n',
  'docs/guide.md': 'guide\n',
  '.gitignore': 'node_modules/\n*.log\nbuild/\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
  'logs/keep.txt': 'kept\n',
};

/** A store whose watcher is built and vouched for (one snapshot behind its barrier taken). */
async function warmStore(t: ExecutionContext, root: string, options: { maxFileBytes?: number } = {}): Promise<CheckpointStore> {
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), ...options });
  t.teardown(() => store.stopWatching());
  await store.snapshot('s', 'bash', 'first');
  t.like(await store.watchSettled(), { kind: 'ready' });
  await store.snapshot('s', 'bash', 'baseline');
  t.is(store.lastScan, 'full', 'the first snapshot behind the watcher walks the tree');
  return store;
}

/** The tree a store without a watcher finds now. */
async function fullWalkTree(root: string, options: { maxFileBytes?: number } = {}): Promise<Checkpoint> {
  return CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false, ...options }).snapshot('s', 'bash', 'full walk');
}

/** Changes the tree, takes a watched snapshot, and compares it with a full walk. */
async function watched(t: ExecutionContext, store: CheckpointStore, root: string, change: () => unknown, options: { maxFileBytes?: number } = {}): Promise<Checkpoint> {
  await change();
  const checkpoint = await store.snapshot('s', 'bash', 'step');
  t.is(store.lastScan, 'watched', `the watcher: ${JSON.stringify(store.watchState())}, last rebuilt for ${store.watchFault()}`);
  t.is(store.lastWay, 'patched', `went through the index: ${store.lastDecline}`);
  const full = await fullWalkTree(root, options);
  t.is(checkpoint.tree, full.tree, 'the watched snapshot holds what a full walk finds');
  t.deepEqual(checkpoint.skipped, full.skipped);
  return checkpoint;
}

// Asynchronous: the tests of this file share one event loop, and the watchers theirs.
const bash = (root: string, command: string) => promisify(execFile)('/bin/bash', ['-c', command], { cwd: root });

for (const kind of ['repository', 'plain folder'] as const) {
  const project = () => (kind === 'repository' ? gitRepo(TREE) : writeTree(tempDir('reika-plain-'), TREE));

  test(`in a ${kind}: a change made just before a checkpoint is in it, and nothing changed reuses the last tree`, async (t) => {
    const root = project();
    const store = await warmStore(t, root);
    const before = await watched(t, store, root, () => {});
    await watched(t, store, root, () => writeFileSync(join(root, 'src/a.ts'), 'export const a = 2;\n'));
    const after = await watched(t, store, root, () => {});
    t.not(after.tree, before.tree);
    t.is((await store.undo('s', 3)).changed.join(), 'src/a.ts', 'undone to the snapshot before the edit');
    t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), 'export const a = 1;\n');
  });

  test(`in a ${kind}: a file in a new folder is held, and a later change inside that folder too`, async (t) => {
    const root = project();
    const store = await warmStore(t, root);
    await watched(t, store, root, () => writeTree(root, { 'new/deep/er/file.txt': 'new\n', 'new/top.txt': 'top\n' }));
    await watched(t, store, root, () => writeFileSync(join(root, 'new/deep/er/file.txt'), 'changed\n'));
    await watched(t, store, root, () => writeTree(root, { 'new/deep/er/more/x.txt': 'x\n' }));
    // Ignored folders stay out, new or old.
    await watched(t, store, root, () => writeTree(root, { 'build/out.js': 'built\n', 'node_modules/dep2/index.js': 'two\n', 'src/debug.log': 'log\n' }));
  });

  test(`in a ${kind}: renames of files and folders are held, and the renamed folder is watched under its new name`, async (t) => {
    const root = project();
    const store = await warmStore(t, root);
    await watched(t, store, root, () => renameSync(join(root, 'src/a.ts'), join(root, 'src/a2.ts')));
    await watched(t, store, root, () => renameSync(join(root, 'src'), join(root, 'lib')));
    await watched(t, store, root, () => writeFileSync(join(root, 'lib/deep/b.ts'), 'export const b = 3;\n'));
    await watched(t, store, root, () => bash(root, 'mv lib/deep docs/deep && echo c > docs/deep/c.ts'));
    await watched(t, store, root, () => writeFileSync(join(root, 'docs/deep/b.ts'), 'moved and changed\n'));
  });

  test(`in a ${kind}: deletes of files and folders are held, and a folder made again is watched again`, async (t) => {
    const root = project();
    const store = await warmStore(t, root);
    await watched(t, store, root, () => rmSync(join(root, 'README.md')));
    await watched(t, store, root, () => rmSync(join(root, 'src'), { recursive: true }));
    await watched(t, store, root, () => writeTree(root, { 'src/deep/b.ts': 'back\n' }));
    await watched(t, store, root, () => writeFileSync(join(root, 'src/deep/b.ts'), 'back again\n'));
    await watched(t, store, root, () => bash(root, 'rm -rf src && mkdir -p src/deep && echo three > src/deep/b.ts'));
    await watched(t, store, root, () => writeFileSync(join(root, 'src/deep/b.ts'), 'four\n'));
  });

  test(`in a ${kind}: what another process and a command do is held: modes, links, truncation`, async (t) => {
    const root = project();
    const store = await warmStore(t, root);
    await watched(t, store, root, () => bash(root, ': > docs/guide.md; ln -s ../README.md src/link; echo more >> logs/keep.txt'));
    await watched(t, store, root, () => chmodSync(join(root, 'src/a.ts'), 0o755));
    await watched(t, store, root, () => bash(root, 'for i in $(seq 1 200); do mkdir -p gen/d$((i % 7)); echo $i > gen/d$((i % 7))/f$i.txt; done'));
  });
}

test('the files a command changed are the same from the watcher’s paths as from a full walk', async (t) => {
  const root = gitRepo(TREE);
  const store = await warmStore(t, root);
  const full = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false });
  const commands = [
    'true',
    'echo x >> src/a.ts; rm docs/guide.md; mkdir -p n/m && echo y > n/m/z.txt; echo l > x.log',
    'mv src lib; chmod +x README.md; rm -rf n',
  ];
  for (const command of commands) {
    const [watchedAt, fullAt] = [await store.snapshot('s', 'bash', command), await full.snapshot('s', 'bash', command)];
    await bash(root, command);
    const changed = await store.changedSince(watchedAt);
    t.is(store.lastScan, 'watched', `last rebuilt for ${store.watchFault()}`);
    t.is(store.lastWay, 'patched', `went through the index: ${store.lastDecline}`);
    t.deepEqual(changed, await full.changedSince(fullAt), command);
  }
  t.true((await store.changedSince(await store.snapshot('s', 'bash', 'ls'))).length === 0);
});

test('a project that holds the state folder (reika in ~) snapshots its files, not the store', async (t) => {
  const root = writeTree(tempDir('reika-home-'), TREE);
  const store = CheckpointStore.for(root, { stateHome: join(root, '.local/state/reika') });
  t.teardown(() => store.stopWatching());
  await store.snapshot('s', 'bash', 'first');
  await store.watchSettled();
  await store.snapshot('s', 'bash', 'baseline');
  writeFileSync(join(root, 'src/a.ts'), 'edited\n');
  const checkpoint = await store.snapshot('s', 'bash', 'step');
  t.is(store.lastScan, 'watched', `last rebuilt for ${store.watchFault()}`);
  const held = (await promisify(execFile)('git', ['ls-tree', '-r', '--name-only', checkpoint.tree], { env: { ...process.env, GIT_DIR: join(store.dir, 'git') } })).stdout.split('\n').filter(Boolean);
  t.deepEqual(held, ['.gitignore', 'README.md', 'docs/guide.md', 'logs/keep.txt', 'src/a.ts', 'src/deep/b.ts']);
  t.deepEqual(await store.changedSince(await store.snapshot('s', 'bash', 'nothing')), [], 'the store’s own writes are no change');
});

test('files too big to hold stay named in a watched snapshot that did not touch them', async (t) => {
  const root = gitRepo(TREE);
  writeFileSync(join(root, 'big.bin'), Buffer.alloc(4096, 1));
  const store = await warmStore(t, root, { maxFileBytes: 1024 });
  const checkpoint = await watched(t, store, root, () => writeFileSync(join(root, 'src/a.ts'), 'edited\n'), { maxFileBytes: 1024 });
  t.deepEqual(checkpoint.skipped, ['big.bin']);
  const shrunk = await watched(t, store, root, () => writeFileSync(join(root, 'big.bin'), 'small now\n'), { maxFileBytes: 1024 });
  t.is(shrunk.skipped, undefined);
});

test('a changed .gitignore makes the next snapshot walk the tree and the watches are built again', async (t) => {
  const root = gitRepo(TREE);
  const store = await warmStore(t, root);
  writeTree(root, { 'build/out.js': 'built\n' });
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  const walked = await store.snapshot('s', 'bash', 'ignore rules changed');
  t.is(store.lastScan, 'full');
  t.is(walked.tree, (await fullWalkTree(root)).tree);
  t.like(await store.watchSettled(), { kind: 'ready' });
  await store.snapshot('s', 'bash', 'baseline again');
  await watched(t, store, root, () => writeFileSync(join(root, 'build/out.js'), 'built again\n'));
});

test('with the watcher off or broken, snapshots walk the whole tree and hold the same trees; reika doctor says why', async (t) => {
  const root = gitRepo(TREE);
  const broken = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watchMaxDirs: 2 });
  const off = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false });
  const good = await warmStore(t, root);
  await broken.snapshot('s', 'bash', 'first');
  const state = await broken.watchSettled();
  t.is(state?.kind, 'off');
  t.regex(state?.kind === 'off' ? state.reason : '', /more than 2 folders to watch/);
  t.regex(readFileSync(join(broken.dir, WATCH_OFF_FILE), 'utf8'), /more than 2 folders/);
  for (const change of [() => writeTree(root, { 'new/x.txt': 'x\n' }), () => renameSync(join(root, 'src'), join(root, 'lib')), () => rmSync(join(root, 'docs'), { recursive: true })]) {
    change();
    const [a, b, c] = [await good.snapshot('s', 'bash', 'step'), await broken.snapshot('s', 'bash', 'step'), await off.snapshot('s', 'bash', 'step')];
    t.is(good.lastScan, 'watched', `last rebuilt for ${good.watchFault()}`);
    t.is(broken.lastScan, 'full');
    t.is(off.lastScan, 'full');
    t.is(a.tree, b.tree);
    t.is(a.tree, c.tree);
  }
  t.is(off.watchState(), undefined);
  t.false(existsSync(join(off.dir, WATCH_OFF_FILE)));
});

test('reika doctor’s checkpoint line says when each checkpoint walks the whole tree, and why', async (t) => {
  const root = gitRepo(TREE);
  const store = CheckpointStore.for(root, { watchMaxDirs: 1 });
  t.teardown(() => store.stopWatching());
  await store.snapshot('doctor', 'bash', 'ls');
  await store.watchSettled();
  const [, line] = describeSafety(await safetyStatus(root, toolSettings(root)));
  t.regex(line!, /; each checkpoint walks the whole tree: more than 1 folders to watch \(at most 50,000, and half of fs.inotify.max_user_watches\)\)$/);
});
