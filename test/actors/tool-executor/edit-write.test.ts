import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { call } from './harness.js';

test('edit replaces exactly one occurrence and returns the diff', async (t) => {
  const root = writeTree(tempDir(), { 'src/a.ts': 'one\ntwo\nthree\nfour\n' });
  const result = await call(root, 'edit', { path: 'src/a.ts', old_string: 'two\nthree', new_string: 'TWO\n2.5\nTHREE' });
  t.is(result.status, 'done');
  t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), 'one\nTWO\n2.5\nTHREE\nfour\n');
  t.is(result.summary, 'edited src/a.ts: replaced 2 lines with 3 at line 2');
  t.is(result.payload, ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,4 +1,5 @@', ' one', '-two', '-three', '+TWO', '+2.5', '+THREE', ' four'].join('\n'));
  t.deepEqual(result.asked, [], 'an edit inside the project runs at once in safe mode');
});

test('edit with no match fails with EDIT_NO_MATCH and points at a near match', async (t) => {
  const root = writeTree(tempDir(), { 'a.py': 'def f():\n    return 1\n' });
  const result = await call(root, 'edit', { path: 'a.py', old_string: 'def f():\n  return 1', new_string: 'x' });
  t.is(result.status, 'error');
  t.is(result.errorCode, 'EDIT_NO_MATCH');
  t.is(result.summary, 'old_string was not found in a.py; a match that differs only in whitespace starts at line 1; read the file and copy the text exactly');
  const firstLine = await call(root, 'edit', { path: 'a.py', old_string: 'def f():\n    return 2', new_string: 'x' });
  t.regex(firstLine.summary, /its first line occurs at line 1, but the following lines differ/);
  t.is(readFileSync(join(root, 'a.py'), 'utf8'), 'def f():\n    return 1\n', 'nothing changed');
});

test('edit with several matches fails with EDIT_MANY_MATCHES saying how many and where', async (t) => {
  const root = writeTree(tempDir(), { 'a.js': 'let x = 1;\nfoo();\nlet x = 1;\nbar();\nlet x = 1;\n' });
  const result = await call(root, 'edit', { path: 'a.js', old_string: 'let x = 1;', new_string: 'let x = 2;' });
  t.is(result.errorCode, 'EDIT_MANY_MATCHES');
  t.is(result.summary, 'old_string occurs 3 times in a.js (lines 1, 3, 5); include more surrounding lines so it matches exactly once');
});

test('edit keeps CRLF line endings when old_string uses LF', async (t) => {
  const root = writeTree(tempDir(), { 'w.txt': 'a\r\nb\r\nc\r\n' });
  const result = await call(root, 'edit', { path: 'w.txt', old_string: 'a\nb', new_string: 'A\nB' });
  t.is(result.status, 'done');
  t.is(readFileSync(join(root, 'w.txt'), 'utf8'), 'A\r\nB\r\nc\r\n');
});

test('edit changes a Latin-1 file byte-exactly and refuses characters it cannot store', async (t) => {
  const root = writeTree(tempDir(), { 'l1.txt': Buffer.from('caf\xe9 = 1\n', 'latin1') });
  const ok = await call(root, 'edit', { path: 'l1.txt', old_string: 'café = 1', new_string: 'café = 2' });
  t.is(ok.status, 'done');
  t.deepEqual(readFileSync(join(root, 'l1.txt')), Buffer.from('caf\xe9 = 2\n', 'latin1'));
  const bad = await call(root, 'edit', { path: 'l1.txt', old_string: 'café = 2', new_string: 'café = ☕' });
  t.is(bad.errorCode, 'EDIT_NOT_UTF8');
});

test('edit refuses binary files, missing files and no-op edits', async (t) => {
  const root = writeTree(tempDir(), { 'bin.dat': Buffer.from([1, 0, 2]), 'a.txt': 'x' });
  t.is((await call(root, 'edit', { path: 'bin.dat', old_string: 'a', new_string: 'b' })).errorCode, 'BINARY_FILE');
  const missing = await call(root, 'edit', { path: 'nope.txt', old_string: 'a', new_string: 'b' });
  t.is(missing.summary, 'nope.txt does not exist (use write to create a file)');
  const same = await call(root, 'edit', { path: 'a.txt', old_string: 'x', new_string: 'x' });
  t.is(same.errorCode, 'INVALID_ARGS');
  const empty = await call(root, 'edit', { path: 'a.txt', old_string: '', new_string: 'x' });
  t.regex(empty.summary, /must not be empty/);
});

test('edit does not overwrite a file that changed while approval was pending', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': 'old\n' });
  const result = await call(root, 'edit', { path: 'a.txt', old_string: 'old', new_string: 'new' }, {
    approvals: 'off',
    ask: async () => {
      writeFileSync(join(root, 'a.txt'), 'someone else\n');
      return { decision: 'approve' };
    },
  });
  t.is(result.status, 'error');
  t.regex(result.summary, /changed since the edit was prepared/);
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'someone else\n');
});

test('write creates a file and its folders, and refuses to overwrite', async (t) => {
  const root = tempDir();
  const created = await call(root, 'write', { path: 'deep/er/new.md', content: '# Title\n\nbody\n' });
  t.is(created.status, 'done');
  t.is(created.summary, 'created deep/er/new.md (3 lines, 14 B)');
  t.is(readFileSync(join(root, 'deep/er/new.md'), 'utf8'), '# Title\n\nbody\n');
  const again = await call(root, 'write', { path: 'deep/er/new.md', content: 'other' });
  t.is(again.status, 'error');
  t.is(again.errorCode, 'WRITE_EXISTS');
  t.is(again.summary, 'deep/er/new.md already exists; write only creates new files (use edit to change it)');
  t.is(readFileSync(join(root, 'deep/er/new.md'), 'utf8'), '# Title\n\nbody\n');
  t.is((await call(root, 'write', { path: 'deep', content: 'x' })).summary, 'deep is an existing directory');
});

test('plan and subagent modes refuse edit and write', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': 'x' });
  for (const mode of ['plan', 'subagent'] as const) {
    const write = await call(root, 'write', { path: 'b.txt', content: 'x' }, { mode });
    t.is(write.errorCode, 'READ_ONLY_MODE');
    t.is(write.summary, `write is not available in ${mode} mode, which is read-only`);
    t.is((await call(root, 'edit', { path: 'a.txt', old_string: 'x', new_string: 'y' }, { mode })).errorCode, 'READ_ONLY_MODE');
  }
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'x');
});

test('an unknown tool or non-object arguments come back as typed errors', async (t) => {
  const root = tempDir();
  const unknown = await call(root, 'delete_everything', {});
  t.is(unknown.errorCode, 'UNKNOWN_TOOL');
  t.is(unknown.summary, 'there is no tool named "delete_everything"; the tools are read, list, glob, grep, edit, write, bash, todo, fetch, search, subagent');
  const inSubagent = await call(root, 'delete_everything', {}, { mode: 'subagent' });
  t.is(inSubagent.summary, 'there is no tool named "delete_everything"; the tools are read, list, glob, grep');
  const wrongType = await call(root, 'write', { path: 'a', content: 42 });
  t.is(wrongType.summary, 'write: "content" must be a string, not number');
});

test('a diff of a file outside the project names its absolute path without a/ and b/ prefixes', async (t) => {
  const { editDiff, creationDiff } = await import('../../../actors/tool-executor/files/diff.js');
  t.is(editDiff('/tmp/x.txt', 'a', 'b').text.split('\n').slice(0, 2).join('\n'), '--- /tmp/x.txt\n+++ /tmp/x.txt');
  t.is(editDiff('src/x.txt', 'a', 'b').text.split('\n').slice(0, 2).join('\n'), '--- a/src/x.txt\n+++ b/src/x.txt');
  t.is(creationDiff('/tmp/new.txt', 'hi\n').split('\n')[1], '+++ /tmp/new.txt');
});

test('an edit replaces the file whole (a crash leaves the old or the new text) and keeps its mode', async (t) => {
  const { chmodSync, readdirSync, statSync } = await import('node:fs');
  const root = writeTree(tempDir(), { 'run.sh': '#!/bin/sh\necho old\n' });
  chmodSync(join(root, 'run.sh'), 0o751);
  const before = statSync(join(root, 'run.sh'));
  const result = await call(root, 'edit', { path: 'run.sh', old_string: 'echo old', new_string: 'echo new' });
  t.is(result.status, 'done');
  const after = statSync(join(root, 'run.sh'));
  t.not(after.ino, before.ino, 'a new file took the name: the old one was never half-written');
  t.is(after.mode & 0o7777, 0o751);
  t.is(readFileSync(join(root, 'run.sh'), 'utf8'), '#!/bin/sh\necho new\n');
  t.deepEqual(readdirSync(root), ['run.sh'], 'no temporary file is left');
});
