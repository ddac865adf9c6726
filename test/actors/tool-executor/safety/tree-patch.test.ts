import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore, type Checkpoint } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { git, gitRepo, tempDir, writeTree } from '../../../helpers/temp.js';

/**
 * Warm snapshots are made from the last tree and the changed paths (tree-patch.ts), without the
 * store's index. Every kind of change a step can make goes through that way here, and each
 * snapshot must hold the tree a full walk through the index finds (same id), must be undone byte
 * for byte, and must leave the user's git as it was.
 */

const TREE = {
  'README.md': '# project\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/deep/b.ts': 'export const b = 2;\n',
  'src/run.sh': '#!/bin/sh\necho run\n',
  'docs/guide.md': 'guide\n',
  'docs/more/page.md': 'page\n',
  'other/x.txt': 'x\n',
  '.gitignore': 'node_modules/\n*.log\nbuild/\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
};

/** What TREE's .gitignore ignores: never held, so an undo does not bring it back. */
const IGNORED = /(^|\/)(node_modules|build)(\/|$)|\.log$/;

/** Every file under `root` (not `.git`, not ignored) with its bytes, mode and link target. */
function snapshotOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    if (name === '.git' || name.startsWith('.git/') || IGNORED.test(name)) continue;
    const path = join(root, name);
    const info = lstatSync(path);
    if (info.isSymbolicLink()) out[name] = `link:${readlinkSync(path)}`;
    else if (info.isFile()) out[name] = `${(info.mode & 0o111) !== 0 ? 'x' : '-'}:${readFileSync(path).toString('base64')}`;
    else if (info.isDirectory() && readdirSync(path).length === 0) out[name] = 'empty folder';
  }
  return out;
}

function userGit(root: string): string {
  return ['status --porcelain=v1 --untracked-files=all', 'ls-files --stage', 'stash list', 'for-each-ref'].map((args) => git(root, ...args.split(' '))).join('\n---\n');
}

const bash = (root: string, command: string) => promisify(execFile)('/bin/bash', ['-c', command], { cwd: root });

interface Options {
  maxFileBytes?: number;
}

async function warmStore(t: ExecutionContext, root: string, options: Options = {}): Promise<CheckpointStore> {
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), ...options });
  t.teardown(() => store.stopWatching());
  await store.snapshot('s', 'bash', 'first');
  t.like(await store.watchSettled(), { kind: 'ready' });
  await store.snapshot('s', 'bash', 'baseline');
  return store;
}

/** The tree a store without a watcher (the index, a full walk) finds now. */
function fullWalk(root: string, options: Options = {}): Promise<Checkpoint> {
  return CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false, ...options }).snapshot('s', 'bash', 'full walk');
}

/** Changes the tree and takes a patched snapshot that must hold what a full walk finds. */
async function patched(t: ExecutionContext, store: CheckpointStore, root: string, change: () => unknown, options: Options = {}): Promise<Checkpoint> {
  await change();
  const checkpoint = await store.snapshot('s', 'bash', 'step');
  t.is(store.lastScan, 'watched', `last rebuilt for ${store.watchFault()}`);
  t.is(store.lastWay, 'patched', `went through the index: ${store.lastDecline}`);
  const full = await fullWalk(root, options);
  t.is(checkpoint.tree, full.tree, 'the patched tree is the one a full walk makes');
  t.deepEqual(checkpoint.skipped, full.skipped);
  return checkpoint;
}

/** The store's objects are whole and well formed. */
async function fsck(t: ExecutionContext, store: CheckpointStore): Promise<void> {
  const { stdout, stderr } = await promisify(execFile)('git', ['fsck', '--strict', '--no-dangling'], { env: { ...process.env, GIT_DIR: join(store.dir, 'git') } });
  t.is(`${stdout}${stderr}`.replace(/^Checking.*\n/gm, ''), '', 'git fsck finds nothing wrong');
}

const ODD = ['new\nline.txt', 'ünïcødé 文件.md', '-dash.txt', '--', ' leading space', 'back\\slash', '*?[x]', ':(glob)magic', '"quoted"', 'tab\there'];

/** Every change a step can make, in order; each is undone afterwards. */
const STEPS: [string, (root: string) => unknown][] = [
  ['an edit', (root) => writeFileSync(join(root, 'src/a.ts'), 'export const a = 2;\n')],
  ['a deleted file', (root) => rmSync(join(root, 'README.md'))],
  ['a new file in a held folder', (root) => writeFileSync(join(root, 'src/new.ts'), 'new\n')],
  ['new folders', (root) => writeTree(root, { 'fresh/one/two/three.txt': '3\n', 'fresh/top.txt': 'top\n' })],
  ['a file in a folder made empty, earlier', (root) => bash(root, 'rm docs/more/page.md && echo again > docs/more/page.md')],
  ['a file becomes a folder', (root) => bash(root, 'rm src/a.ts && mkdir -p src/a.ts/inner && echo in > src/a.ts/inner/f.txt')],
  ['a folder becomes a file', (root) => bash(root, 'rm -rf docs/more && echo file > docs/more')],
  ['a new symlink, and one to a folder', (root) => bash(root, 'ln -s ../README.md src/link && ln -s src other/to-src')],
  ['a symlink retargeted', (root) => bash(root, 'ln -sfn deep/b.ts src/link')],
  ['a folder replaced by a symlink: its files are gone', (root) => bash(root, 'rm -rf other && ln -s src other')],
  ['executable bits', (root) => bash(root, 'chmod +x src/deep/b.ts && chmod -x src/run.sh')],
  ['odd names', (root) => writeTree(root, Object.fromEntries(ODD.flatMap((name) => [[name, `${name}\n`], [`odd/${name}/in`, 'in\n']])))],
  [
    'odd names edited and deleted',
    (root) => {
      writeFileSync(join(root, 'odd/-dash.txt/in'), 'changed\n');
      for (const name of ODD.slice(0, 3)) rmSync(join(root, name));
    },
  ],
  ['ignored files are not held, new or in new folders', (root) => writeTree(root, { 'build/out.js': 'built\n', 'fresh/x.log': 'log\n', 'node_modules/dep2/index.js': 'two\n' })],
  ['a rename of a folder', (root) => renameSync(join(root, 'fresh'), join(root, 'renamed'))],
  ['a command that changes many places', (root) => bash(root, 'for i in $(seq 1 60); do mkdir -p gen/d$((i % 5)); echo $i > gen/d$((i % 5))/f$i.txt; done; rm -rf src/deep; echo y >> docs/guide.md')],
  // All but .gitignore (a changed one makes the watcher start over, by design).
  ['everything deleted', (root) => bash(root, 'find . -mindepth 1 -maxdepth 1 ! -name .git ! -name .gitignore -exec rm -rf -- {} +')],
  ['files again in an empty project', (root) => writeTree(root, { 'back.txt': 'back\n', 'src/a.ts': 'a again\n' })],
];

for (const kind of ['repository', 'plain folder'] as const) {
  test(`in a ${kind}: every kind of change is snapshotted from the last tree as a full walk would, and undone byte for byte`, async (t) => {
    const root = kind === 'repository' ? gitRepo(TREE) : writeTree(tempDir('reika-plain-'), TREE);
    if (kind === 'repository') {
      writeTree(root, { 'stashed.txt': 'v1\n' });
      git(root, 'add', 'stashed.txt');
      git(root, 'stash', 'push', '-q', '--', 'stashed.txt');
      writeTree(root, { 'staged.txt': 'staged\n' });
      git(root, 'add', 'staged.txt');
    }
    const before = kind === 'repository' ? userGit(root) : '';
    const store = await warmStore(t, root);
    // What each snapshot holds: the folder before the first change, then after each.
    const states = [snapshotOf(root)];
    for (const [, change] of STEPS) {
      await patched(t, store, root, () => change(root));
      states.push(snapshotOf(root));
    }
    await fsck(t, store);
    for (let i = STEPS.length; i >= 0; i--) {
      await store.undo('s');
      t.deepEqual(snapshotOf(root), states[i], `back to the snapshot after "${STEPS[i - 1]?.[0] ?? 'nothing yet'}"`);
    }
    if (kind === 'repository') t.is(userGit(root), before, "the user's status, index, stash and refs are as before");
  });
}

test('a held file that git now ignores stays held while it exists; a new one beside it is not held', async (t) => {
  const root = gitRepo({ ...TREE, 'logs/keep.txt': 'kept\n' });
  // Force-added: held although ignored (the store starts from the user's index).
  writeFileSync(join(root, 'logs/forced.log'), 'forced\n');
  git(root, 'add', '-f', 'logs/forced.log');
  git(root, 'commit', '-qm', 'forced');
  writeFileSync(join(root, '.gitignore'), `${TREE['.gitignore']}logs/\n`);
  git(root, 'commit', '-qam', 'ignore logs');
  const store = await warmStore(t, root);
  const edit = await patched(t, store, root, () => writeTree(root, { 'logs/forced.log': 'edited\n', 'logs/keep.txt': 'kept, edited\n', 'logs/new.txt': 'new\n' }));
  const held = git(root, '--git-dir', join(store.dir, 'git'), 'ls-tree', '-r', '--name-only', edit.tree);
  t.regex(held, /^logs\/forced\.log$/m);
  t.regex(held, /^logs\/keep\.txt$/m);
  t.notRegex(held, /new\.txt/);
  await patched(t, store, root, () => renameSync(join(root, 'logs'), join(root, 'logs-old')));
});

test('files over the size cap are not held, are named, and come back into the snapshot once small', async (t) => {
  const options = { maxFileBytes: 1024 };
  const root = gitRepo(TREE);
  const store = await warmStore(t, root, options);
  const grown = await patched(t, store, root, () => writeFileSync(join(root, 'src/a.ts'), Buffer.alloc(4096, 1)), options);
  t.deepEqual(grown.skipped, ['src/a.ts'], 'a held file grown over the cap is dropped and named');
  const added = await patched(t, store, root, () => writeTree(root, { 'new/big.bin': Buffer.alloc(2048, 2), 'new/small.txt': 'small\n' }), options);
  t.deepEqual(added.skipped, ['new/big.bin', 'src/a.ts'], 'a new big file is named, the earlier one still');
  const shrunk = await patched(t, store, root, () => writeFileSync(join(root, 'src/a.ts'), 'small again\n'), options);
  t.deepEqual(shrunk.skipped, ['new/big.bin']);
  const result = await store.undo('s', 4);
  t.is(result.checkpoint.n, 2, 'back to the baseline, before the file grew');
  t.deepEqual(result.changed, ['src/a.ts']);
  t.true(result.removed.includes('new/small.txt'));
  t.deepEqual(readFileSync(join(root, 'new/big.bin')), Buffer.alloc(2048, 2), 'a file the snapshot does not hold is not touched');
  t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), TREE['src/a.ts']);
});

test('a nested repository that appears is not the project’s: its files are not held', async (t) => {
  const root = gitRepo(TREE);
  const store = await warmStore(t, root);
  const checkpoint = await patched(t, store, root, () => bash(root, 'mkdir -p vendor/lib && cd vendor/lib && git init -q && echo x > x.c && cd ../.. && echo v > vendor/readme'));
  t.notRegex(git(root, '--git-dir', join(store.dir, 'git'), 'ls-tree', '-r', '--name-only', checkpoint.tree), /x\.c/);
});

test('a change to a submodule’s folder goes through the index, and the tree is still right', async (t) => {
  const root = gitRepo(TREE);
  const commit = git(root, 'rev-parse', 'HEAD').trim();
  git(root, 'update-index', '--add', '--cacheinfo', `160000,${commit},lib/sub`);
  git(root, 'commit', '-qm', 'a submodule');
  mkdirSync(join(root, 'lib/sub'), { recursive: true });
  writeFileSync(join(root, 'lib/file.txt'), 'beside\n');
  git(root, 'add', 'lib/file.txt');
  git(root, 'commit', '-qm', 'beside');
  const store = await warmStore(t, root);
  renameSync(join(root, 'lib'), join(root, 'lib2'));
  const checkpoint = await store.snapshot('s', 'bash', 'mv lib lib2');
  t.is(store.lastWay, 'index');
  t.is(checkpoint.tree, (await fullWalk(root)).tree);
  await patched(t, store, root, () => writeFileSync(join(root, 'README.md'), 'elsewhere\n'));
});

test('after patched snapshots the index lags behind: a full walk through it still makes the right tree, and so does changedSince', async (t) => {
  const root = gitRepo(TREE);
  const store = await warmStore(t, root);
  await patched(t, store, root, () => writeFileSync(join(root, 'src/a.ts'), 'one\n'));
  await patched(t, store, root, () => bash(root, 'rm docs/guide.md && echo n > n.txt && chmod +x README.md'));
  // A changed .gitignore: the next snapshot walks the whole tree through the (lagging) index.
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  writeTree(root, { 'build/out.js': 'built\n' });
  const walked = await store.snapshot('s', 'bash', 'ignore rules changed');
  t.is(store.lastScan, 'full');
  t.is(walked.tree, (await fullWalk(root)).tree);
  t.like(await store.watchSettled(), { kind: 'ready' });
  await store.snapshot('s', 'bash', 'baseline again');
  const step = await patched(t, store, root, () => writeFileSync(join(root, 'src/a.ts'), 'two\n'));
  // Without the watcher, what a command changed is found through the index, which lags: the trees are compared.
  store.stopWatching();
  await bash(root, 'echo three > src/a.ts; rm n.txt; echo z > z.txt');
  t.deepEqual(await store.changedSince(step), ['n.txt', 'src/a.ts', 'z.txt'].map((path) => join(root, path)));
  t.is(store.lastScan, 'full');
  const result = await store.undo('s', 6);
  t.is(result.checkpoint.n, 2, 'back to the baseline, before the first edit');
  t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), TREE['src/a.ts']);
  t.is(readFileSync(join(root, 'docs/guide.md'), 'utf8'), TREE['docs/guide.md']);
  t.false(existsSync(join(root, 'z.txt')));
  t.false(existsSync(join(root, 'build/out.js')), 'a file held once the rules changed is gone with the undo');
  await fsck(t, store);
});

test('the files a command changed, from the last tree and the watcher’s paths, match a full walk’s for every kind of change', async (t) => {
  const root = gitRepo(TREE);
  chmodSync(join(root, 'src/run.sh'), 0o755);
  symlinkSync('a.ts', join(root, 'src/link'));
  const store = await warmStore(t, root, { maxFileBytes: 1024 });
  const full = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false, maxFileBytes: 1024 });
  const commands = [
    'echo x >> src/a.ts; touch docs/guide.md; chmod -x src/run.sh',
    'rm src/a.ts && mkdir src/a.ts && echo in > src/a.ts/f; ln -sfn deep src/link',
    'rm -rf docs && echo now-a-file > docs; printf "%s" "$(head -c 2000 /dev/zero | tr "\\0" y)" > big.txt',
    `touch -- '-n' $'new\\nline' 'ü'; mkdir -p fresh/x && echo y > fresh/x/y; echo l > fresh/x/y.log`,
    'rm -rf -- fresh src -n',
  ];
  for (const command of commands) {
    const [mine, theirs] = [await store.snapshot('s', 'bash', command), await full.snapshot('s', 'bash', command)];
    t.is(mine.tree, theirs.tree);
    await bash(root, command);
    const changed = await store.changedSince(mine);
    t.is(store.lastWay, 'patched', `went through the index: ${store.lastDecline}`);
    t.deepEqual(changed, await full.changedSince(theirs), command);
  }
});
