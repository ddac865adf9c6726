import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { scan } from '../../../actors/indexer/scan.js';
import { oracleRepo } from '../../helpers/git-oracle.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import type { FileIndex } from '../../../actors/indexer/protocol.js';

test('symlink loops are listed as entries and never followed', (t) => {
  const root = writeTree(tempDir(), { 'a/file.txt': '' });
  symlinkSync('.', join(root, 'loop'));
  symlinkSync('../a', join(root, 'a', 'back'));
  symlinkSync('missing-target', join(root, 'dangling'));
  const index = scan(root);
  t.deepEqual(index.paths, ['dangling', 'loop', 'a/back', 'a/file.txt']);
  t.is(index.stats.directories, 2);
});

test('sockets and FIFOs are skipped, not listed and not opened', async (t) => {
  const root = writeTree(tempDir(), { 'plain.txt': '' });
  execFileSync('mkfifo', [join(root, 'pipe')]);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(root, 'sock'), resolve));
  try {
    const index = scan(root);
    t.deepEqual(index.paths, ['plain.txt']);
    t.is(index.stats.skipped, 2);
  } finally {
    server.close();
  }
});

test('an ignore file that is a FIFO is skipped, not opened (its open would wait for a writer)', (t) => {
  const root = oracleRepo({ 'a.txt': '' }, { 'b.txt': '', 'sub/c.txt': '' });
  execFileSync('mkfifo', [join(root, '.gitignore')]);
  execFileSync('mkfifo', [join(root, 'sub', '.gitignore')]);
  execFileSync('mkfifo', [join(root, 'rules')]);
  rmSync(join(root, '.git', 'info', 'exclude'), { force: true });
  symlinkSync(join(root, 'rules'), join(root, '.git', 'info', 'exclude'));
  const index = scan(root);
  t.deepEqual(index.paths, ['a.txt', 'b.txt', 'sub/c.txt']);
  t.is(index.stats.skipped, 3, 'the FIFOs themselves are no entries');
});

test('names that are not UTF-8 are skipped; a real U+FFFD name is kept', (t) => {
  const root = writeTree(tempDir(), { 'ok.txt': '', 'sub/\uFFFDreal.txt': '' });
  closeSync(openSync(Buffer.concat([Buffer.from(`${root}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]), 'w'));
  mkdirSync(Buffer.concat([Buffer.from(`${root}/dir-`), Buffer.from([0xc3, 0x28])]));
  const index = scan(root);
  t.deepEqual(index.paths, ['ok.txt', 'sub/\uFFFDreal.txt']);
  t.is(index.stats.skipped, 2);
});

test('a name with a line break is skipped, so the index stays one path per line', (t) => {
  const root = writeTree(tempDir(), { 'ok.txt': '', 'two\nlines.txt': '', 'cr\rname.txt': '' });
  const index = scan(root);
  t.deepEqual(index.paths, ['ok.txt']);
  t.is(index.stats.skipped, 2);
});

test('a folder that vanishes or turns into a file before it is read is skipped', (t) => {
  const root = writeTree(tempDir(), { 'a/x.txt': '', 'b/y.txt': '', 'c/z.txt': '' });
  const index = scan(root, {}, {
    beforeRead(dir) {
      if (dir === join(root, 'a')) rmSync(dir, { recursive: true });
      if (dir === join(root, 'b')) {
        rmSync(dir, { recursive: true });
        writeFileSync(dir, '');
      }
    },
  });
  t.deepEqual(index.paths, ['c/z.txt']);
  t.is(index.stats.skipped, 2);
});

test('an unreadable folder is skipped and the rest is listed', (t) => {
  const root = writeTree(tempDir(), { 'open/a.txt': '', 'locked/secret.txt': '', 'top.txt': '' });
  let index: FileIndex;
  if (process.getuid?.() === 0) {
    // root reads everything: the scan runs as an unprivileged user instead. The child loads the
    // scan's modules as root first and only then drops to nobody, so the checkout may sit in a
    // folder only root can read (a private clone); the scanned tree itself is made readable.
    chmodSync(root, 0o755);
    chmodSync(join(root, 'open'), 0o755);
    chmodSync(join(root, 'top.txt'), 0o644);
    chmodSync(join(root, 'locked'), 0o700);
    const script = `const { scan } = await import(${JSON.stringify(new URL('../../../actors/indexer/scan.js', import.meta.url).href)});
      process.setgroups([65534]);
      process.setgid(65534);
      process.setuid(65534);
      process.stdout.write(JSON.stringify({ uid: process.getuid(), index: scan(process.argv[1]) }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, root], { encoding: 'utf8' });
    t.is(child.status, 0, child.stderr);
    const out = JSON.parse(child.stdout) as { uid: number; index: FileIndex };
    t.is(out.uid, 65534, 'the scan ran unprivileged');
    index = out.index;
  } else {
    chmodSync(join(root, 'locked'), 0o000);
    t.teardown(() => chmodSync(join(root, 'locked'), 0o755));
    index = scan(root);
  }
  t.deepEqual(index.paths, ['top.txt', 'open/a.txt']);
  t.is(index.stats.skipped, 1);
});

/**
 * 100,000 empty files in one folder take seconds of file-system time to make, so the folder is
 * made once per machine (in the system temp dir, completed by a marker) and reused.
 */
function wideFolder(): string {
  const root = join(tmpdir(), 'reika-test-wide-folder-v1');
  if (existsSync(join(root, 'complete'))) return root;
  rmSync(root, { recursive: true, force: true });
  const big = join(root, 'big');
  mkdirSync(big, { recursive: true });
  for (let i = 0; i < 100_000; i++) closeSync(openSync(join(big, `f${String(i).padStart(6, '0')}.txt`), 'w'));
  writeFileSync(join(root, 'top.txt'), '');
  writeFileSync(join(root, 'complete'), '');
  return root;
}

test('a folder of 100,000 entries is capped, sorted and finishes', (t) => {
  const index = scan(wideFolder());
  t.is(index.paths.length, 10_000);
  t.deepEqual(index.paths.slice(0, 3), ['complete', 'top.txt', 'big/f000000.txt']);
  t.is(index.paths[9_999], 'big/f009997.txt');
  t.deepEqual(index.capped, ['files']);
});
