import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatMention, mentionBeforeCursor, mentions, parseMentions } from '../../../actors/prompt/mentions.js';
import { findMentionedFile } from '../../../actors/prompt/mentioned-file.js';
import { tempDir } from '../../helpers/temp.js';

test('a path with spaces is mentioned in double quotes, single quotes or with escaped spaces', (t) => {
  t.deepEqual(mentions('read @"my notes/résumé.md" please'), ['my notes/résumé.md']);
  t.deepEqual(mentions("read @'my notes/x.md' please"), ['my notes/x.md']);
  t.deepEqual(mentions('read @my\\ notes/x.md, then answer'), ['my notes/x.md'], 'outside quotes, trailing punctuation still goes');
  t.deepEqual(mentions('@"odd \\"name\\".md" and @\'say "hi".txt\''), ['odd "name".md', 'say "hi".txt']);
  t.deepEqual(mentions('@"ends with a dot."'), ['ends with a dot.'], 'inside quotes the path is taken as written');
});

test('bare mentions keep working: @ only at a word start, each path once, @ inside a path allowed', (t) => {
  t.deepEqual(mentions('see @src/a.ts, @pic.png and me@example.com, @src/a.ts again'), ['src/a.ts', 'pic.png']);
  t.deepEqual(mentions('@node_modules/@types/node/index.d.ts'), ['node_modules/@types/node/index.d.ts']);
});

test('a quote left open is reported as such, not taken as a path', (t) => {
  const [open] = parseMentions('look at @"my notes/x.md\nand more');
  t.like(open, { path: 'my notes/x.md', raw: '@"my notes/x.md', unclosed: true });
  t.deepEqual(mentions('look at @"my notes/x.md'), []);
});

test('a mention is quoted only when it must be, with single quotes for a name holding a double quote', (t) => {
  t.is(formatMention('src/a.ts'), '@src/a.ts');
  t.is(formatMention('my notes/résumé.md'), '@"my notes/résumé.md"');
  t.is(formatMention('my notes/', { open: true }), '@"my notes/');
  t.is(formatMention('say "hi".txt'), `@'say "hi".txt'`);
  t.is(formatMention(`it's "x".txt`), '@"it\'s \\"x\\".txt"');
  t.is(formatMention('a b', { quote: "'" }), "@'a b'");
  // Whatever formatMention writes, the parser reads back.
  for (const name of ['my notes/résumé.md', 'say "hi".txt', `it's "x".txt`, 'back\\slash.md']) t.deepEqual(mentions(`x ${formatMention(name)} y`), [name]);
});

test('the mention being typed is found from its @ even across quoted or escaped spaces', (t) => {
  t.deepEqual(mentionBeforeCursor('look at @"my no', 15), { start: 8, typed: 'my no', quote: '"' });
  t.deepEqual(mentionBeforeCursor('look at @my\\ no', 15), { start: 8, typed: 'my no', quote: undefined });
  t.deepEqual(mentionBeforeCursor('look at @', 9), { start: 8, typed: '', quote: undefined });
  t.is(mentionBeforeCursor('@a b', 4), undefined);
  t.is(mentionBeforeCursor('me@example', 10), undefined);
});

test('a name typed in NFC finds the file stored in NFD, and the other way round', async (t) => {
  const root = tempDir();
  const nfd = 'my notes/re\u0301sume\u0301.md';
  mkdirSync(join(root, 'my notes'));
  writeFileSync(join(root, nfd), 'x');
  t.is(await findMentionedFile('my notes/r\u00e9sum\u00e9.md', root), join(root, nfd));
  writeFileSync(join(root, 'caf\u00e9.md'), 'y');
  t.is(await findMentionedFile('cafe\u0301.md', root), join(root, 'caf\u00e9.md'));
  t.is(await findMentionedFile('gone/x.md', root), join(root, 'gone/x.md'), 'a missing path comes back as written');
});
