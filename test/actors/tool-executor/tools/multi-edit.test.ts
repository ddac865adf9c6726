import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangedSpans } from '../../../../actors/tool-executor/files/changed-spans.js';
import { spansDiff } from '../../../../actors/tool-executor/files/diff.js';
import { CheckpointStore } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { checkpointSession } from '../../../../actors/tool-executor/safety/session-id.js';
import { gitRepo, tempDir, writeTree } from '../../../helpers/temp.js';
import { call } from '../harness.js';

/** `edit{path, edits: [...]}`: several replacements in one file, all or none (issue 37). */

const source = ['import { a } from "./a";', '', 'export function one() {', '  return a + 1;', '}', '', 'export function two() {', '  return a + 2;', '}', ''].join('\n');

test('several replacements are applied in order, each to the text the previous ones left, with one diff', async (t) => {
  const root = writeTree(tempDir(), { 'src/m.ts': source });
  const result = await call(root, 'edit', {
    path: 'src/m.ts',
    edits: [
      { old_string: 'export function one()', new_string: 'export function first()' },
      // Matches only once the first replacement is made.
      { old_string: 'first() {\n  return a + 1;', new_string: 'first() {\n  return a + 10;' },
      { old_string: '  return a + 2;', new_string: '  const b = a;\n  return b + 2;' },
    ],
  });
  t.is(result.status, 'done', result.summary);
  const expected = source.replace('one()', 'first()').replace('a + 1;', 'a + 10;').replace('  return a + 2;', '  const b = a;\n  return b + 2;');
  t.is(readFileSync(join(root, 'src/m.ts'), 'utf8'), expected);
  t.is(result.summary, 'edited src/m.ts: 3 replacements, 3 lines replaced with 4 in 1 place from line 3');
  t.is(
    result.payload,
    [
      '--- a/src/m.ts',
      '+++ b/src/m.ts',
      '@@ -1,9 +1,10 @@',
      ' import { a } from "./a";',
      ' ',
      '-export function one() {',
      '-  return a + 1;',
      '+export function first() {',
      '+  return a + 10;',
      ' }',
      ' ',
      ' export function two() {',
      '-  return a + 2;',
      '+  const b = a;',
      '+  return b + 2;',
      ' }',
    ].join('\n'),
  );
  t.deepEqual(result.asked, [], 'inside the project it runs at once in safe mode');
});

test('the third of four replacements fails: the file is untouched and the model is told which one and why', async (t) => {
  const root = writeTree(tempDir(), { 'src/m.ts': source });
  const result = await call(root, 'edit', {
    path: 'src/m.ts',
    edits: [
      { old_string: 'one()', new_string: 'uno()' },
      { old_string: 'two()', new_string: 'dos()' },
      { old_string: 'three()', new_string: 'tres()' },
      { old_string: 'a + 2', new_string: 'a + 3' },
    ],
  });
  t.is(result.status, 'error');
  t.is(result.errorCode, 'EDIT_NO_MATCH');
  t.is(result.summary, 'edit 3 of 4: old_string was not found in src/m.ts; read the file and copy the text exactly; nothing was written');
  t.is(readFileSync(join(root, 'src/m.ts'), 'utf8'), source);
});

test('a replacement that matches several times fails unless it sets replace_all, and an earlier edit that removed the text is named', async (t) => {
  const root = writeTree(tempDir(), { 'src/m.ts': source });
  const many = await call(root, 'edit', { path: 'src/m.ts', edits: [{ old_string: 'one', new_string: 'uno' }, { old_string: 'return a', new_string: 'return z' }] });
  t.is(many.errorCode, 'EDIT_MANY_MATCHES');
  t.is(many.summary, 'edit 2 of 2: old_string occurs 2 times in src/m.ts (lines 4, 8); include more surrounding lines so it matches exactly once, or set replace_all; nothing was written');
  const gone = await call(root, 'edit', { path: 'src/m.ts', edits: [{ old_string: 'a + 1', new_string: 'a - 1' }, { old_string: 'return a + 1', new_string: 'return 0' }] });
  t.is(gone.summary, 'edit 2 of 2: old_string was not found in src/m.ts; read the file and copy the text exactly (it is in the file as it was before edit 1, which changed it); nothing was written');
  t.is(readFileSync(join(root, 'src/m.ts'), 'utf8'), source);
  const all = await call(root, 'edit', { path: 'src/m.ts', edits: [{ old_string: 'return a', new_string: 'return z', replace_all: true }, { old_string: 'import { a }', new_string: 'import { a as z }' }] });
  t.is(all.status, 'done', all.summary);
  t.is(readFileSync(join(root, 'src/m.ts'), 'utf8'), source.replaceAll('return a', 'return z').replace('import { a }', 'import { a as z }'));
});

test('bad multi-edit arguments are refused before anything is read', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': 'x\n' });
  const both = await call(root, 'edit', { path: 'a.txt', old_string: 'x', new_string: 'y', edits: [{ old_string: 'x', new_string: 'y' }] });
  t.is(both.summary, 'edit: give either old_string and new_string or edits, not both');
  const empty = await call(root, 'edit', { path: 'a.txt', edits: [] });
  t.is(empty.summary, 'edit: "edits" must hold 1 to 100 items, not 0');
  const missing = await call(root, 'edit', { path: 'a.txt', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: 'y' }] });
  t.is(missing.summary, 'edit: item 2 of "edits": "new_string" is required');
  const same = await call(root, 'edit', { path: 'a.txt', edits: [{ old_string: 'x', new_string: 'x' }] });
  t.is(same.summary, 'edit: edit 1 of 1: "old_string" and "new_string" are the same: nothing would change');
  const neither = await call(root, 'edit', { path: 'a.txt' });
  t.is(neither.summary, 'edit: "old_string" is required');
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'x\n');
});

test('a multi-edit is one checkpoint: undoing it restores the file as it was', async (t) => {
  const root = gitRepo({ 'src/m.ts': source });
  const result = await call(root, 'edit', { path: 'src/m.ts', edits: [{ old_string: 'one', new_string: 'uno' }, { old_string: 'two', new_string: 'dos' }] });
  t.is(result.status, 'done', result.summary);
  t.is(result.meta?.checkpoint, 1);
  const store = CheckpointStore.for(root);
  t.is((await store.list(checkpointSession())).length, 1);
  await store.undo(checkpointSession(), 1);
  t.is(readFileSync(join(root, 'src/m.ts'), 'utf8'), source);
});

test('the diff of spread-out changes has a hunk for each, each with its own context, and applies with git', async (t) => {
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
  const before = `${lines.join('\n')}\n`;
  const spans = new ChangedSpans();
  let after = before;
  // Applied in order as the tool does: a change, an insertion, a deletion, a change at the end.
  const steps: [string, string][] = [['line 2\n', 'LINE 2\n'], ['line 20\n', 'line 20\nnew 20a\nnew 20b\n'], ['line 30\nline 31\n', ''], ['line 40', 'line forty']];
  for (const [from, to] of steps) {
    const at = after.indexOf(from);
    after = after.slice(0, at) + to + after.slice(at + from.length);
    spans.replaced(at, at + from.length, to.length);
  }
  const diff = spansDiff('f.txt', before, after, spans.list);
  t.is(diff.text.split('\n').filter((line) => line.startsWith('@@')).join(' | '), '@@ -1,5 +1,5 @@ | @@ -18,6 +18,8 @@ | @@ -27,8 +29,6 @@ | @@ -37,4 +37,4 @@');
  t.deepEqual([diff.line, diff.removed, diff.added], [2, 4, 4]);
  const root = gitRepo({ 'f.txt': before });
  const { execFileSync } = await import('node:child_process');
  execFileSync('git', ['apply', '-'], { cwd: root, input: `${diff.text}\n` });
  t.is(readFileSync(join(root, 'f.txt'), 'utf8'), after);
});
