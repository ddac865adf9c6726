import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { call } from './harness.js';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

test('read returns the first 300 numbered lines and says where to continue', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': numbered(1000) });
  const result = await call(root, 'read', { path: 'a.txt' });
  t.is(result.status, 'done');
  const lines = result.payload.split('\n');
  t.is(lines[0], '  1\tline 1');
  t.is(lines[299], '300\tline 300');
  t.regex(result.summary, /lines 1–300 of 1,000; 700 more lines, continue with offset 301/);
  t.regex(result.payload, /read with offset 301 to continue$/);
});

test('read honours a 1-indexed offset and limit and reports the end of the file', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': numbered(10) });
  const middle = await call(root, 'read', { path: 'a.txt', offset: 4, limit: 2 });
  t.is(middle.payload.split('\n').slice(0, 2).join('\n'), '4\tline 4\n5\tline 5');
  t.regex(middle.summary, /5 more lines, continue with offset 6/);
  const tail = await call(root, 'read', { path: 'a.txt', offset: 9 });
  t.is(tail.payload, ' 9\tline 9\n10\tline 10');
  t.regex(tail.summary, /lines 9–10 of 10$/);
  const whole = await call(root, 'read', { path: 'a.txt' });
  t.regex(whole.summary, /all 10 lines/);
  const past = await call(root, 'read', { path: 'a.txt', offset: 11 });
  t.is(past.status, 'error');
  t.is(past.errorCode, 'OFFSET_PAST_END');
  t.regex(past.summary, /has 10 lines; offset 11 is past the end/);
});

test('read accepts numbers given as strings but rejects nonsense with a typed error', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': numbered(5) });
  t.is((await call(root, 'read', { path: 'a.txt', offset: '2', limit: '1' })).payload, '2\tline 2\n… 3 more lines; read with offset 3 to continue');
  const bad = await call(root, 'read', { path: 'a.txt', offset: 'two' });
  t.is(bad.status, 'error');
  t.is(bad.errorCode, 'INVALID_ARGS');
  t.is(bad.summary, 'read: "offset" must be a whole number');
  const missing = await call(root, 'read', {});
  t.is(missing.summary, 'read: "path" is required');
  const zero = await call(root, 'read', { path: 'a.txt', offset: 0 });
  t.regex(zero.summary, /"offset" must be between 1 and/);
});

test('read refuses binary files with a clear summary', async (t) => {
  const root = writeTree(tempDir(), { 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]) });
  const result = await call(root, 'read', { path: 'logo.png' });
  t.is(result.status, 'error');
  t.is(result.errorCode, 'BINARY_FILE');
  t.is(result.summary, 'logo.png is a binary file (14 B); read shows text files only');
});

test('read shows a Latin-1 file instead of failing, and says it is not UTF-8', async (t) => {
  const root = writeTree(tempDir(), { 'old.txt': Buffer.from('caf\xe9\nna\xefve\n', 'latin1') });
  const result = await call(root, 'read', { path: 'old.txt' });
  t.is(result.status, 'done');
  t.is(result.payload, '1\tcafé\n2\tnaïve');
  t.regex(result.summary, /not valid UTF-8: shown as Latin-1/);
});

test('read strips CR from CRLF files and clips very long lines', async (t) => {
  const root = writeTree(tempDir(), { 'win.txt': 'a\r\nb\r\n', 'min.js': 'x'.repeat(100_000) });
  t.is((await call(root, 'read', { path: 'win.txt' })).payload, '1\ta\n2\tb');
  const clipped = await call(root, 'read', { path: 'min.js' });
  t.regex(clipped.payload, /^1\tx{2000} … \[line clipped: 97\.7 KB\]$/);
});

test('a file of one huge line is not summarised as read whole: the summary says the line was clipped', async (t) => {
  const root = writeTree(tempDir(), { 'bundle.min.js': 'y'.repeat(4_600_000), 'mixed.txt': `short\n${'z'.repeat(5_000)}\n${'w'.repeat(3_000)}\nend\n` });
  const one = await call(root, 'read', { path: 'bundle.min.js' });
  t.is(one.summary, 'read bundle.min.js: 1 line; the line was clipped to its first 2.0 KB: grep the file for what you need');
  const two = await call(root, 'read', { path: 'mixed.txt' });
  t.is(two.summary, 'read mixed.txt: 4 lines; 2 lines were clipped to their first 2.0 KB: grep the file for what you need');
});

test('read pages a 50 MB file without loading it whole', async (t) => {
  const root = tempDir();
  const path = join(root, 'huge.log');
  const fd = openSync(path, 'w');
  const block = Array.from({ length: 10_000 }, (_, i) => `entry ${String(i).padStart(5, '0')} ${'.'.repeat(36)}`).join('\n') + '\n';
  for (let i = 0; i < 105; i++) writeSync(fd, block);
  closeSync(fd);
  const heapBefore = process.memoryUsage().rss;
  const result = await call(root, 'read', { path: 'huge.log', offset: 1_000_001, limit: 3 });
  t.is(result.status, 'done');
  t.is(result.payload.split('\n')[0], '1000001\tentry 00000 ....................................');
  t.regex(result.summary, /lines 1000001–1000003 of 1,050,000; 49,997 more lines, continue with offset 1000004$/);
  // Bounded memory: far less than the file's 50+ MB was retained.
  t.true(process.memoryUsage().rss - heapBefore < 40 * 1024 * 1024);
});

test('read explains missing files, folders and empty files', async (t) => {
  const root = writeTree(tempDir(), { 'src/a.ts': 'x', 'empty.txt': '' });
  t.is((await call(root, 'read', { path: 'nope.ts' })).summary, 'nope.ts does not exist');
  const folder = await call(root, 'read', { path: 'src' });
  t.is(folder.errorCode, 'NOT_A_FILE');
  t.regex(folder.summary, /is a directory \(use list/);
  t.is((await call(root, 'read', { path: 'empty.txt' })).summary, 'empty.txt is empty (0 lines)');
});

test('read reports an unreadable file as permission denied', async (t) => {
  const root = writeTree(tempDir(), { 'secret.txt': 'top secret\n' });
  chmodSync(root, 0o755);
  chmodSync(join(root, 'secret.txt'), 0o000);
  const fixture = new URL('./run-as-fixture.js', import.meta.url).pathname;
  // Root reads anything, so the call runs as `nobody` when the tests run as root.
  const uid = process.getuid?.() === 0 ? 65534 : undefined;
  const output = execFileSync(process.execPath, [fixture, JSON.stringify({ root, name: 'read', args: { path: 'secret.txt' }, uid })], { encoding: 'utf8' });
  const result = JSON.parse(output) as { status: string; errorCode: string; summary: string; uid: number };
  if (uid !== undefined) t.is(result.uid, uid, 'the call ran unprivileged');
  t.is(result.status, 'error');
  t.is(result.errorCode, 'PERMISSION_DENIED');
  t.is(result.summary, 'secret.txt: permission denied');
});

test('read opens absolute paths outside the project without asking', async (t) => {
  const root = tempDir();
  const elsewhere = writeTree(tempDir(), { 'notes.md': 'hello\n' });
  const result = await call(root, 'read', { path: join(elsewhere, 'notes.md') }, { approvals: 'off' });
  t.is(result.payload, '1\thello');
  t.deepEqual(result.asked, []);
});
