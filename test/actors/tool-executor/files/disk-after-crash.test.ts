import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diskAfterCrash } from '../../../../actors/tool-executor/files/disk-after-crash.js';
import { tempDir } from '../../../helpers/temp.js';

/** What the model is told is on disk after an edit or write was cut off by a crash of the executor. */

const edit = { path: 'a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' };

test('an edit cut off before it ran: the old text is still there once', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.ts'), 'const a = 1;\nexport { a };\n');
  t.is(await diskAfterCrash('edit', edit, root), 'On disk now: a.ts still has old_string (once) and not new_string: the edit was not applied.');
});

test('an edit cut off after it ran: the new text is there and the old one gone, so it is not applied twice', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.ts'), 'const a = 2;\r\nexport { a };\r\n');
  t.is(await diskAfterCrash('edit', edit, root), 'On disk now: a.ts has new_string and no old_string: the edit was applied; do not apply it again.');
});

test('a file changed some other way, or gone, is named as such', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.ts'), 'const a = 1;\nconst a = 2;\n');
  t.is(await diskAfterCrash('edit', edit, root), 'On disk now: a.ts has old_string once and new_string once: read it before editing again.');
  t.is(await diskAfterCrash('edit', { ...edit, path: 'gone.ts' }, root), 'On disk now: gone.ts does not exist.');
});

test('a write: done exactly, not done, or something else in its place', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'new.txt'), 'hello\n');
  t.is(await diskAfterCrash('write', { path: 'new.txt', content: 'hello\n' }, root), 'On disk now: new.txt holds exactly the content given: the write was done.');
  t.is(await diskAfterCrash('write', { path: 'other.txt', content: 'x' }, root), 'On disk now: other.txt does not exist: the write was not done.');
  t.is(await diskAfterCrash('write', { path: 'new.txt', content: 'bye\n' }, root), 'On disk now: new.txt exists with other content (6 bytes): read it before writing again.');
  t.is(await diskAfterCrash('bash', { command: 'true' }, root), undefined, 'other tools say nothing');
});

test('an insertion (new_string keeps old_string) cut off after it ran reads as applied, before it ran as not applied', async (t) => {
  // Found by the issue 21 soak: after an insertion landed, old_string was still in the file (inside
  // new_string), so the model was told to read the file, re-sent the edit, and the line was in twice.
  const root = tempDir();
  const insertion = { path: 'a.ts', old_string: '  total += a;\n', new_string: '  total += a;\n  // checked\n' };
  writeFileSync(join(root, 'a.ts'), 'let total = 0;\n  total += a;\n  // checked\nexport { total };\n');
  t.is(await diskAfterCrash('edit', insertion, root), 'On disk now: a.ts has new_string and old_string only inside it: the edit was applied; do not apply it again.');
  writeFileSync(join(root, 'a.ts'), 'let total = 0;\n  total += a;\nexport { total };\n');
  t.is(await diskAfterCrash('edit', insertion, root), 'On disk now: a.ts still has old_string (once) and not new_string: the edit was not applied.');
  writeFileSync(join(root, 'a.ts'), '  total += a;\n  // checked\n  total += a;\n');
  t.is(await diskAfterCrash('edit', insertion, root), 'On disk now: a.ts has old_string 2 times and new_string once: read it before editing again.', 'old_string also outside new_string: cannot tell');
});

test('a deletion (old_string holds new_string) cut off before it ran reads as not applied, after it as applied', async (t) => {
  const root = tempDir();
  const deletion = { path: 'a.ts', old_string: 'const a = 1; // TODO\n', new_string: 'const a = 1;' };
  writeFileSync(join(root, 'a.ts'), 'const a = 1; // TODO\nexport { a };\n');
  t.is(await diskAfterCrash('edit', deletion, root), 'On disk now: a.ts still has old_string (once) and new_string only inside it: the edit was not applied.');
  writeFileSync(join(root, 'a.ts'), 'const a = 1;export { a };\n');
  t.is(await diskAfterCrash('edit', deletion, root), 'On disk now: a.ts has new_string and no old_string: the edit was applied; do not apply it again.');
});

test('a multi-edit cut off by a crash reads as made whole or not at all, and otherwise asks for a read', async (t) => {
  const root = tempDir();
  const edits = { path: 'm.ts', edits: [{ old_string: 'one()', new_string: 'uno()' }, { old_string: 'two()', new_string: 'dos()' }] };
  writeFileSync(join(root, 'm.ts'), 'one();\ntwo();\n');
  t.is(await diskAfterCrash('edit', edits, root), 'On disk now: m.ts still has every old_string and no new_string apart from them: the edits were not applied.');
  writeFileSync(join(root, 'm.ts'), 'uno();\ndos();\n');
  t.is(await diskAfterCrash('edit', edits, root), 'On disk now: m.ts has every new_string and no old_string apart from them: the edits were applied; do not apply them again.');
  writeFileSync(join(root, 'm.ts'), 'uno();\ntwo();\n');
  t.is(await diskAfterCrash('edit', edits, root), 'On disk now: m.ts matches neither the state before the edits nor the state after: read it before editing again.');
});
