import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo } from '../../../helpers/temp.js';
import { call } from '../harness.js';

/** Applies a patch with git in `root` (check first, then for real); git's complaint if it refuses. */
function gitApply(root: string, patch: string): string | undefined {
  const file = join(root, '.patch');
  writeFileSync(file, patch);
  try {
    execFileSync('git', ['apply', '--check', file], { cwd: root, stdio: 'pipe' });
    execFileSync('git', ['apply', file], { cwd: root, stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  } finally {
    rmSync(file, { force: true });
  }
}

/** The first hunk's `[oldStart, oldCount, newStart, newCount]` (a count left out is 1, as git writes it). */
function ranges(patch: string): number[] {
  const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/m.exec(patch);
  return match ? [match[1], match[2] ?? '1', match[3], match[4] ?? '1'].map(Number) : [];
}

/** [what, file before, old_string, new_string] */
const EDITS: [string, string, string, string][] = [
  ['a middle line', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n', 'four', 'FOUR'],
  ['lines replaced by more lines', 'one\ntwo\nthree\nfour\n', 'two\nthree', 'TWO\n2.5\nTHREE'],
  ['the first line', 'first\nsecond\nthird\n', 'first', 'FIRST'],
  ['the last line', 'a\nb\nc\nd\ne\nlast\n', 'last', 'LAST'],
  ['lines appended at the end', 'a\nb\n', 'b\n', 'b\nc\nd\n'],
  ['a whole line deleted, newline included', 'a\nb\nc\n', 'b\n', ''],
  ['a file without a final newline', 'a\nb\nc', 'c', 'C'],
  ['a final newline removed', 'a\nb\n', 'b\n', 'b'],
  ['a final newline added', 'a\nb', 'b', 'b\n'],
  ['a CRLF file', 'one\r\ntwo\r\nthree\r\nfour\r\n', 'two\nthree', 'TWO\nTHREE\nmore'],
  ['a CRLF file without a final newline', 'one\r\ntwo\r\nthree', 'three', 'THREE'],
  ['part of one line', 'const x = 1;\nconst y = 2;\nconst z = 3;\n', 'y = 2', 'y = 22'],
  ['across two part-lines', 'alpha beta\ngamma delta\nepsilon\n', 'beta\ngamma', 'BETA GAMMA'],
  ['a one-line file', 'only', 'only', 'changed'],
];

for (const [what, before, oldString, newString] of EDITS) {
  test(`git apply takes the diff an edit shows: ${what}`, async (t) => {
    const root = gitRepo({ 'f.txt': before });
    const result = await call(root, 'edit', { path: 'f.txt', old_string: oldString, new_string: newString });
    t.is(result.status, 'done', result.summary);
    const edited = readFileSync(join(root, 'f.txt'));
    writeFileSync(join(root, 'f.txt'), before);
    t.is(gitApply(root, `${result.payload}\n`), undefined, result.payload);
    t.deepEqual(readFileSync(join(root, 'f.txt')), edited, 'the patch makes the same file as the edit');
    // git's own diff of this change has the same hunk ranges.
    t.deepEqual(ranges(result.payload), ranges(execFileSync('git', ['diff', '--no-color', '-U3', 'f.txt'], { cwd: root, encoding: 'utf8' })));
  });
}

test('the edit summary counts the changed lines, not the context or a trailing newline', async (t) => {
  const root = gitRepo({ 'f.txt': 'a\nb\nc\nd\n' });
  const result = await call(root, 'edit', { path: 'f.txt', old_string: 'b\nc\n', new_string: 'B\nC\n' });
  t.is(result.summary, 'edited f.txt: replaced 2 lines with 2 at line 2');
  t.is(result.payload, ['--- a/f.txt', '+++ b/f.txt', '@@ -1,4 +1,4 @@', ' a', '-b', '-c', '+B', '+C', ' d'].join('\n'));
});

for (const [what, content] of [
  ['with a final newline', '# Title\n\nbody\n'],
  ['without a final newline', 'no newline'],
  ['with CRLF lines', 'one\r\ntwo\r\n'],
  ['that is empty', ''],
] as const) {
  test(`git apply takes the diff a write shows: a new file ${what}`, async (t) => {
    const root = gitRepo({ 'keep.txt': 'x\n' });
    const result = await call(root, 'write', { path: 'new.txt', content });
    t.is(result.status, 'done', result.summary);
    rmSync(join(root, 'new.txt'));
    const patch = result.meta!.diff!;
    if (content === '') {
      t.is(patch, '--- /dev/null\n+++ b/new.txt', 'no hunk for an empty file');
      return;
    }
    t.is(gitApply(root, `${patch}\n`), undefined, patch);
    t.is(readFileSync(join(root, 'new.txt'), 'utf8'), content);
  });
}
