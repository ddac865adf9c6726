import test from 'ava';
import { execFileSync, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore, type Checkpoint } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { describeRestore } from '../../../../cli/checkpoints.js';
import { git, gitRepo, tempDir, writeTree } from '../../../helpers/temp.js';

/** Every file under `root` (not `.git`) with its bytes, mode and link target: "byte for byte". */
function snapshotOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    if (name === '.git' || name.startsWith(`.git/`)) continue;
    const path = join(root, name);
    const info = lstatSync(path);
    if (info.isSymbolicLink()) out[name] = `link:${readlinkSync(path)}`;
    else if (info.isFile()) out[name] = `${(info.mode & 0o111) !== 0 ? 'x' : '-'}:${readFileSync(path).toString('base64')}`;
  }
  return out;
}

/** What the user's git knows: status, the staged index entries, the stash, the refs. */
function userGit(root: string): string {
  return ['status --porcelain=v1 --untracked-files=all', 'ls-files --stage', 'stash list', 'for-each-ref'].map((args) => git(root, ...args.split(' '))).join('\n---\n');
}

const run = (root: string, command: string) => execSync(command, { cwd: root, shell: '/bin/bash', stdio: 'ignore' });

const TREE = {
  'README.md': '# project\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/deep/b.ts': 'export const b = 2;\n',
  'src/run.sh': '#!/bin/sh\necho run\n',
  'src/crlf.txt': 'one\r\ntwo\r\n',
  'src/blob.bin': Buffer.from([0, 1, 2, 255, 254, 13, 10, 0]),
  '.gitattributes': '* text=auto\n',
  '.gitignore': '.env\n*.log\n',
};

/** Four steps — rm -rf src, `: > untracked.txt`, an edit, a new file — each undone byte for byte. */
async function fourSteps(t: import('ava').ExecutionContext, root: string, isRepo: boolean): Promise<void> {
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-') });
  const states: Record<string, string>[] = [];
  const gits: string[] = [];
  const step = async (tool: string, label: string, act: () => void): Promise<Checkpoint> => {
    states.push(snapshotOf(root));
    if (isRepo) gits.push(userGit(root));
    const checkpoint = await store.snapshot('s1', tool, label);
    act();
    return checkpoint;
  };
  await step('bash', 'rm -rf src', () => run(root, 'rm -rf src'));
  await step('bash', ': > untracked.txt', () => run(root, ': > untracked.txt'));
  await step('edit', 'README.md', () => writeFileSync(join(root, 'README.md'), '# edited\n'));
  const last = await step('write', 'new/file.txt', () => writeTree(root, { 'new/file.txt': 'new\n' }));
  t.is(last.n, 4);
  t.deepEqual((await store.list('s1')).map((c) => `${c.n} ${c.tool} ${c.label}`), ['1 bash rm -rf src', '2 bash : > untracked.txt', '3 edit README.md', '4 write new/file.txt']);

  const removed = await store.undo('s1');
  t.deepEqual([removed.removed, removed.recreated, removed.changed], [['new/file.txt'], [], []]);
  t.false(existsSync(join(root, 'new')), 'a folder the step made is gone with its file');
  t.deepEqual(snapshotOf(root), states[3]);
  const edited = await store.undo('s1');
  t.deepEqual(edited.changed, ['README.md']);
  t.deepEqual(snapshotOf(root), states[2]);
  const emptied = await store.undo('s1');
  t.deepEqual(emptied.changed, ['untracked.txt']);
  t.deepEqual(snapshotOf(root), states[1]);
  const deleted = await store.undo('s1');
  t.deepEqual(deleted.recreated, ['src/a.ts', 'src/blob.bin', 'src/crlf.txt', 'src/deep/b.ts', 'src/link', 'src/run.sh']);
  t.deepEqual(snapshotOf(root), states[0]);
  t.true((statSync(join(root, 'src/run.sh')).mode & 0o100) !== 0, 'the executable bit came back');
  t.is(readlinkSync(join(root, 'src/link')), 'a.ts');
  if (isRepo) t.is(userGit(root), gits[0], "the user's status, index, stash and refs are as before");
  t.is(readFileSync(join(root, '.env'), 'utf8'), 'SECRET=1\n', 'an ignored file is never touched');
  await t.throwsAsync(store.undo('s1'), { message: 'there is nothing to undo: no checkpoints in this session' });
}

test('in a repository: rm -rf src, : > untracked.txt, an edit and a new file are undone byte for byte; the user’s git is untouched', async (t) => {
  const root = gitRepo(TREE);
  chmodSync(join(root, 'src/run.sh'), 0o755);
  symlinkSync('a.ts', join(root, 'src/link'));
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'exec bit and link');
  writeTree(root, { 'untracked.txt': 'only here\n', '.env': 'SECRET=1\n', 'stashed.txt': 'v1\n' });
  git(root, 'add', 'stashed.txt');
  git(root, 'stash', 'push', '-q', '--', 'stashed.txt');
  writeTree(root, { 'staged.txt': 'staged\n' });
  git(root, 'add', 'staged.txt');
  const before = git(root, 'stash', 'list');
  t.regex(before, /stash@\{0\}/);
  await fourSteps(t, root, true);
  t.is(git(root, 'stash', 'list'), before);
  t.is(git(root, 'diff', '--cached', '--name-only'), 'staged.txt\n', 'what the user staged is still staged');
});

test('in a plain folder that is not a repository the same four steps are undone', async (t) => {
  const root = writeTree(tempDir(), { ...TREE, 'untracked.txt': 'only here\n', '.env': 'SECRET=1\n' });
  chmodSync(join(root, 'src/run.sh'), 0o755);
  symlinkSync('a.ts', join(root, 'src/link'));
  await fourSteps(t, root, false);
  t.false(existsSync(join(root, '.git')), 'no repository appears in the folder');
});

test('undo N restores the snapshot before the N-th last step and says what changed', async (t) => {
  const root = gitRepo({ 'a.txt': 'a1\n' });
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-') });
  await store.snapshot('s', 'edit', 'a.txt');
  writeFileSync(join(root, 'a.txt'), 'a2\n');
  await store.snapshot('s', 'write', 'b.txt');
  writeFileSync(join(root, 'b.txt'), 'b\n');
  await store.snapshot('s', 'bash', 'rm a.txt');
  run(root, 'rm a.txt');
  await t.throwsAsync(store.undo('s', 4), { message: 'there are 3 steps to undo, not 4' });
  const result = await store.undo('s', 3);
  t.is(result.checkpoint.n, 1);
  t.deepEqual([result.changed, result.recreated, result.removed], [[], ['a.txt'], ['b.txt']]);
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'a1\n');
  t.deepEqual(await store.list('s'), []);
  // A new step after an undo numbers on from the steps that remain.
  t.is((await store.snapshot('s', 'edit', 'a.txt')).n, 1);
});

test('files over the size cap are not held, are named, and an undo leaves them alone', async (t) => {
  const root = gitRepo({ 'small.txt': 'small\n' });
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), maxFileBytes: 1024 });
  writeFileSync(join(root, 'big.bin'), Buffer.alloc(4096, 7));
  const first = await store.snapshot('s', 'bash', 'truncate');
  t.deepEqual(first.skipped, ['big.bin']);
  writeFileSync(join(root, 'big.bin'), Buffer.alloc(10));
  writeFileSync(join(root, 'small.txt'), 'changed\n');
  const result = await store.undo('s');
  t.deepEqual(result.changed, ['small.txt']);
  t.deepEqual(readFileSync(join(root, 'big.bin')), Buffer.alloc(10), 'a file the snapshot does not hold is not touched');
});

test('sessions are listed newest first and the last one is the one to undo headless', async (t) => {
  const root = gitRepo({ 'a.txt': 'a\n' });
  const stateHome = tempDir('reika-state-');
  const store = CheckpointStore.for(root, { stateHome });
  await store.snapshot('older', 'edit', 'a.txt');
  await new Promise((resolve) => setTimeout(resolve, 5));
  await store.snapshot('newer', 'bash', 'ls');
  await store.snapshot('newer', 'bash', 'ls -la');
  t.deepEqual((await store.sessions()).map((s) => [s.session, s.steps]), [['newer', 2], ['older', 1]]);
  t.is(await store.lastSession(), 'newer');
  t.true(store.dir.startsWith(join(stateHome, 'checkpoints')), 'the store lives under the state folder');
  t.is(readFileSync(join(store.dir, 'root'), 'utf8'), `${root}\n`);
  t.is(git(root, 'status', '--porcelain'), '', 'nothing appears in the project');
});

test('a new store starts from the user’s index and objects, then owns its objects: a deleted .git loses no checkpoint', async (t) => {
  const root = gitRepo(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f/${i}.txt`, `${i}\n`])));
  writeTree(root, { 'new.txt': 'untracked\n' });
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-') });
  await store.snapshot('s', 'bash', 'rm -rf f');
  t.true(existsSync(join(store.dir, 'git/objects/info/alternates')), 'the first snapshot borrows the user’s objects');
  t.deepEqual(readFileSync(join(store.dir, 'index')).subarray(0, 4), Buffer.from('DIRC'));
  run(root, 'rm -rf f');
  // A later snapshot no longer refers to the borrowed blobs: the first one still must keep them.
  await store.snapshot('s', 'bash', 'echo changed > new.txt');
  writeFileSync(join(root, 'new.txt'), 'changed\n');
  await store.ownObjects();
  t.false(existsSync(join(store.dir, 'git/objects/info/alternates')), 'the loan is over');
  run(root, 'rm -rf .git new.txt');
  const result = await store.undo('s', 2);
  t.is(result.recreated.length, 51);
  t.is(readFileSync(join(root, 'f/49.txt'), 'utf8'), '49\n');
  t.is(readFileSync(join(root, 'new.txt'), 'utf8'), 'untracked\n');
});

test('a store seeded from the user’s index still sees a same-size edit git holds as racily clean', async (t) => {
  // The state a same-second edit leaves: the user's index has the file's current stat data (same
  // size, mtime and ctime seconds) but the old blob, and it was written in the file's mtime second,
  // so git itself compares that entry by content. Built here with set times, not by a race.
  const root = gitRepo({ 'notes.txt': 'old words\n', 'other.txt': 'other\n' });
  const oldBlob = git(root, 'rev-parse', 'HEAD:notes.txt').trim();
  writeFileSync(join(root, 'notes.txt'), 'new words\n');
  const past = Math.floor(Date.now() / 1000) - 3600;
  utimesSync(join(root, 'notes.txt'), past, past);
  git(root, 'update-index', 'notes.txt');
  const newBlob = git(root, 'rev-parse', ':notes.txt').trim();
  const indexPath = join(root, '.git/index');
  const index = readFileSync(indexPath);
  const at = index.indexOf(Buffer.from(newBlob, 'hex'));
  t.true(at > 0 && index.indexOf(Buffer.from(newBlob, 'hex'), at + 1) < 0, 'the entry’s object id appears once');
  Buffer.from(oldBlob, 'hex').copy(index, at);
  createHash('sha1').update(index.subarray(0, index.length - 20)).digest().copy(index, index.length - 20);
  writeFileSync(indexPath, index);
  utimesSync(indexPath, past, past);
  const userStatus = () => execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
  t.is(userStatus(), ' M notes.txt\n', 'the user’s git finds the edit by content');
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false });
  const checkpoint = await store.snapshot('s', 'bash', 'rm notes.txt');
  t.true(existsSync(join(store.dir, 'git/objects/info/alternates')), 'the store was seeded from the user’s index');
  t.is(git(root, '--git-dir', join(store.dir, 'git'), 'cat-file', 'blob', `${checkpoint.tree}:notes.txt`), 'new words\n', 'the snapshot holds the bytes on disk');
  rmSync(join(root, 'notes.txt'));
  await store.undo('s');
  t.is(readFileSync(join(root, 'notes.txt'), 'utf8'), 'new words\n', 'the undo puts back the edited file, not the committed one');
  t.is(userStatus(), ' M notes.txt\n');
});

test('an undo says when a step moved the user’s HEAD (a commit, a checkout) and leaves HEAD, refs and index where they are', async (t) => {
  const root = gitRepo({ 'notes.txt': 'notes\n', 'a.txt': 'a\n' });
  // Packed refs at the first snapshot, a loose ref after the commit: both are read.
  git(root, 'pack-refs', '--all');
  const first = git(root, 'rev-parse', 'HEAD').trim();
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-'), watch: false });
  const step = await store.snapshot('s', 'bash', 'rm -- notes.txt && git commit -qam wip');
  t.deepEqual(step.git, { branch: 'main', commit: first });
  rmSync(join(root, 'notes.txt'));
  git(root, 'commit', '-qam', 'wip');
  const second = git(root, 'rev-parse', 'HEAD').trim();
  const userAfterStep = userGit(root);
  const undone = await store.undo('s');
  t.deepEqual(undone.recreated, ['notes.txt']);
  t.is(readFileSync(join(root, 'notes.txt'), 'utf8'), 'notes\n');
  t.deepEqual(undone.git, { then: { branch: 'main', commit: first }, now: { branch: 'main', commit: second } });
  t.is(
    describeRestore(undone).at(-1),
    `  git       HEAD moved since then (main ${first.slice(0, 12)} → main ${second.slice(0, 12)}); undo restores files, not commits or the index: \`git reset --soft ${first.slice(0, 12)}\` moves the branch back`,
  );
  t.is(userGit(root).replace(/^\?\? notes\.txt\n/m, ''), userAfterStep, 'the undo wrote no ref and no index entry (only notes.txt is back, untracked now)');

  // Another branch: the way back is a switch. A step that moves nothing gets no note.
  await store.snapshot('s', 'bash', 'git checkout -q -b topic');
  git(root, 'checkout', '-q', '-b', 'topic');
  t.regex(describeRestore(await store.undo('s')).at(-1)!, /HEAD moved since then \(main \w{12} → topic \w{12}\).*`git switch main` goes back to the branch$/);
  await store.snapshot('s', 'edit', 'a.txt');
  writeFileSync(join(root, 'a.txt'), 'edited\n');
  const plain = await store.undo('s');
  t.is(plain.git, undefined);
  t.deepEqual(describeRestore(plain).slice(1), ['  restored  a.txt']);

  // A detached HEAD, and a folder that is no repository (no HEAD to keep).
  git(root, 'checkout', '-q', '--detach');
  t.deepEqual((await store.snapshot('s', 'bash', 'x')).git, { commit: second });
  const folder = writeTree(tempDir(), { 'f.txt': 'f\n' });
  t.is((await CheckpointStore.for(folder, { stateHome: tempDir('reika-state-'), watch: false }).snapshot('s', 'bash', 'x')).git, undefined);
});

test('a file changed while nothing else did is the only one written back', async (t) => {
  const root = gitRepo(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f/${i}.txt`, `${i}\n`])));
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-') });
  await store.snapshot('s', 'edit', 'f/7.txt');
  const untouched = statSync(join(root, 'f/8.txt')).mtimeMs;
  writeFileSync(join(root, 'f/7.txt'), 'changed\n');
  const result = await store.undo('s');
  t.deepEqual(result.changed, ['f/7.txt']);
  t.is(statSync(join(root, 'f/8.txt')).mtimeMs, untouched);
});

test('a file that became a folder, and folders that became a file or a link, are undone byte for byte', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'a\n', 'docs/more/page.md': 'page\n', 'other/x.txt': 'x\n', 'other/deep/y.txt': 'y\n', '.gitignore': '*.log\n' });
  const store = CheckpointStore.for(root, { stateHome: tempDir('reika-state-') });
  const before = userGit(root);
  const states: Record<string, string>[] = [];
  const commands = [
    'rm src/a.ts && mkdir -p src/a.ts/inner && echo in > src/a.ts/inner/f.txt',
    'rm -rf docs/more && echo now-a-file > docs/more',
    // The held files under `other` are now beyond a link: gone for git.
    'rm -rf other && ln -s src other',
    // A folder in the way that holds a file no snapshot holds stays (and the file it replaced is not put back).
    'rm docs/more && mkdir docs/more && echo log > docs/more/kept.log',
  ];
  for (const command of commands) {
    states.push(snapshotOf(root));
    await store.snapshot('s', 'bash', command);
    run(root, command);
  }
  const kept = await store.undo('s');
  t.deepEqual([kept.recreated, kept.leftAlone], [[], ['docs/more']]);
  t.is(readFileSync(join(root, 'docs/more/kept.log'), 'utf8'), 'log\n');
  run(root, 'rm -rf docs/more && echo now-a-file > docs/more');
  for (let i = commands.length - 2; i >= 0; i--) {
    await store.undo('s');
    t.deepEqual(snapshotOf(root), states[i], `undoing ${commands[i]}`);
  }
  t.is(userGit(root), before);
});
