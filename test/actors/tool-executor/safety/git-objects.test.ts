import test from 'ava';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { decodeTree, EMPTY_TREE, encodeCommit, encodeTree, LooseObjects, objectId, type TreeEntry } from '../../../../actors/tool-executor/safety/git-objects.js';
import { tempDir } from '../../../helpers/temp.js';

/** The objects a checkpoint store writes itself must be the ones git would write: same ids, readable, and whole by `git fsck`. */

function bareRepo(): string {
  const dir = join(tempDir('reika-objects-'), 'git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir]);
  return dir;
}

function gitIn(gitDir: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitDir }, ...(input !== undefined ? { input } : {}) });
}

const blob = (text: string) => objectId('blob', Buffer.from(text));
/** Names whose order git decides with its folder rule (`a` as a folder sorts as `a/`), and bytes that are not UTF-8 (latin1 chars). */
const ENTRIES: TreeEntry[] = [
  { mode: '100644', name: 'a.b', oid: blob('1') },
  { mode: '40000', name: 'a', oid: EMPTY_TREE },
  { mode: '100755', name: 'a-b', oid: blob('2') },
  { mode: '100644', name: 'a0', oid: blob('3') },
  { mode: '120000', name: 'b', oid: blob('target') },
  { mode: '40000', name: 'b.c', oid: EMPTY_TREE },
  { mode: '100644', name: Buffer.from('ünï 文', 'utf8').toString('latin1'), oid: blob('4') },
  { mode: '100644', name: '\xff\xfe raw', oid: blob('5') },
  { mode: '160000', name: 'sub', oid: blob('6') },
  { mode: '100644', name: '-dash\nnewline', oid: blob('7') },
];

test('a tree has the id git mktree gives the same entries, whatever their order or bytes', (t) => {
  const gitDir = bareRepo();
  const type = (mode: string) => (mode === '40000' ? 'tree' : mode === '160000' ? 'commit' : 'blob');
  const input = Buffer.concat(ENTRIES.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${type(e.mode)} ${e.oid}\t`), Buffer.from(e.name, 'latin1'), Buffer.from([0])])));
  const theirs = gitIn(gitDir, ['mktree', '-z', '--missing'], input).toString().trim();
  t.is(objectId('tree', encodeTree(ENTRIES)), theirs);
  t.is(objectId('tree', encodeTree([...ENTRIES].reverse())), theirs);
  t.is(objectId('tree', encodeTree([])), EMPTY_TREE);
});

test('a tree decodes to its entries, in git’s order', (t) => {
  const decoded = decodeTree(encodeTree(ENTRIES));
  t.is(decoded.length, ENTRIES.length);
  const line = (e: TreeEntry) => `${e.mode} ${e.oid} ${e.name}`;
  t.deepEqual(decoded.map(line).sort(), ENTRIES.map(line).sort());
  t.deepEqual(
    decoded.map((e) => e.name),
    ['-dash\nnewline', 'a-b', 'a.b', 'a', 'a0', 'b', 'b.c', 'sub', ENTRIES[6]!.name, '\xff\xfe raw'],
    'byte order, a folder as if it ended in a slash',
  );
  t.throws(() => decodeTree(Buffer.from('100644 name')), { message: 'a malformed tree object' });
});

test('loose objects written here are read by git and pass git fsck; one already there is not written again', async (t) => {
  const gitDir = bareRepo();
  const objects = new LooseObjects(join(gitDir, 'objects'));
  const file = objects.write('blob', Buffer.from('hello\n'));
  const link = objects.write('blob', Buffer.from('../target'));
  const sub = objects.write('tree', encodeTree([{ mode: '100755', name: 'run', oid: file }]));
  const tree = objects.write('tree', encodeTree([{ mode: '100644', name: 'hello.txt', oid: file }, { mode: '120000', name: 'link', oid: link }, { mode: '40000', name: 'bin', oid: sub }]));
  const commit = objects.write('commit', encodeCommit(tree, 'bash: rm -rf x\0 with a NUL', new Date('2026-01-02T03:04:05Z')));
  await objects.flush();
  t.is(file, gitIn(gitDir, ['hash-object', '--stdin'], 'hello\n').toString().trim());
  t.is(gitIn(gitDir, ['ls-tree', '-r', '--name-only', commit]).toString(), 'bin/run\nhello.txt\nlink\n');
  t.is(gitIn(gitDir, ['log', '-1', '--format=%an <%ae> %at %s', commit]).toString(), 'reika <checkpoints@reika.invalid> 1767323045 bash: rm -rf x with a NUL\n');
  gitIn(gitDir, ['update-ref', 'refs/heads/main', commit]);
  t.is(gitIn(gitDir, ['fsck', '--strict', '--no-dangling']).toString(), '');
  objects.write('blob', Buffer.from('hello\n'));
  await t.notThrowsAsync(objects.flush(), 'the read-only file already there is left as it is');
});
