import test from 'ava';
import { LineEditor } from '../../../cli/tui/line-editor.js';

test('Ctrl+A and Ctrl+E move to the start and end of the cursor\'s line', (t) => {
  const editor = new LineEditor();
  editor.insert('first line\nsecond');
  editor.lineStart();
  t.is(editor.cursor, 11);
  editor.insert('>');
  t.is(editor.text, 'first line\n>second');
  editor.up();
  editor.lineEnd();
  t.is(editor.cursor, 10);
  editor.lineStart();
  t.is(editor.cursor, 0);
});

test('left and right step over surrogate pairs as one character', (t) => {
  const editor = new LineEditor();
  editor.insert('a😀b');
  editor.left();
  editor.left();
  t.is(editor.cursor, 1);
  editor.right();
  t.is(editor.cursor, 3);
  editor.backspace();
  t.is(editor.text, 'ab');
});

test('Ctrl+W deletes the word before the cursor and Ctrl+U the line before it', (t) => {
  const editor = new LineEditor();
  editor.insert('git commit -m  ');
  editor.deleteWordBack();
  t.is(editor.text, 'git commit ');
  editor.insert('x\nmore words');
  editor.deleteToLineStart();
  t.is(editor.text, 'git commit x\n');
  editor.deleteToLineStart();
  t.is(editor.text, 'git commit x');
});

test('history recalls older and newer entries and keeps the draft', (t) => {
  const editor = new LineEditor();
  editor.insert('one');
  t.is(editor.submit(), 'one');
  editor.insert('two');
  t.is(editor.submit(), 'two');
  editor.insert('dra');
  editor.up();
  t.is(editor.text, 'two');
  editor.up();
  t.is(editor.text, 'one');
  editor.up();
  t.is(editor.text, 'one');
  editor.down();
  editor.down();
  t.is(editor.text, 'dra');
});

test('a trailing backslash turns Enter into a line break', (t) => {
  const editor = new LineEditor();
  editor.insert('first \\');
  t.is(editor.submit(), undefined);
  editor.insert('second');
  t.is(editor.submit(), 'first \nsecond');
  t.is(editor.text, '');
});

test('up and down move between lines of multi-line input before touching history', (t) => {
  const editor = new LineEditor();
  editor.remember('old');
  editor.insert('abc\nde');
  editor.up();
  t.is(editor.cursor, 2);
  t.is(editor.text, 'abc\nde');
  editor.down();
  t.is(editor.cursor, 6);
});

test('earlier runs\' history loads before this run\'s, and Ctrl+R searches it backwards', (t) => {
  const editor = new LineEditor(4);
  editor.load(['git status', 'run the tests', 'fix the test in add.ts', 'explain the repo map']);
  editor.set('my draft');
  editor.searchOlder();
  t.deepEqual(editor.search, { query: '', found: false });
  editor.searchType('tes');
  t.is(editor.text, 'fix the test in add.ts', 'the newest entry holding the query');
  t.is(editor.cursor, 8, 'the cursor on the match');
  editor.searchOlder();
  t.is(editor.text, 'run the tests');
  editor.searchOlder();
  t.is(editor.text, 'run the tests', 'no older match: the last one stays');
  editor.searchType('x');
  t.deepEqual(editor.search, { query: 'tesx', found: false });
  t.is(editor.text, 'my draft');
  editor.searchBackspace();
  t.is(editor.text, 'fix the test in add.ts');
  editor.searchEnd(false);
  t.is(editor.text, 'my draft', 'Esc puts the text back');
  editor.searchOlder();
  editor.searchType('status');
  editor.searchEnd(true);
  t.is(editor.text, 'git status');
  t.is(editor.search, undefined);
  editor.down();
  t.is(editor.text, 'run the tests', 'history browsing goes on from the match');
  editor.remember('fifth');
  editor.clear();
  editor.up();
  t.is(editor.text, 'fifth');
  for (let i = 0; i < 5; i++) editor.up();
  t.is(editor.text, 'run the tests', 'capped at the limit (4): the oldest went');
});

const LONG = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n');

test('a long paste stands as one token that the cursor steps over and Backspace deletes whole', (t) => {
  const editor = new LineEditor();
  editor.insert('see ');
  t.deepEqual(editor.paste(LONG), { collapsed: '[pasted 500 lines #1]' });
  t.is(editor.text, 'see [pasted 500 lines #1]');
  t.is(editor.expand(), `see ${LONG}`);
  editor.left();
  t.is(editor.cursor, 4, 'left jumps over the token');
  editor.right();
  t.is(editor.cursor, editor.text.length);
  editor.insert(' ok');
  editor.backspace();
  editor.backspace();
  editor.backspace();
  editor.backspace();
  t.is(editor.text, 'see ');
  t.is(editor.paste('short\npaste'), undefined, 'a short paste goes in as it is');
  t.is(editor.text, 'see short\npaste');
});

test('Ctrl+W and Ctrl+U delete a paste token whole; a long single line is counted in characters', (t) => {
  const editor = new LineEditor();
  editor.paste('x'.repeat(1_500));
  t.is(editor.text, '[pasted 1,500 chars #1]');
  editor.deleteWordBack();
  t.is(editor.text, '');
  editor.insert('a ');
  editor.paste(LONG);
  editor.deleteToLineStart();
  t.is(editor.text, '');
  editor.paste(LONG);
  editor.lineStart();
  editor.deleteForward();
  t.is(editor.text, '');
});

test('Tab-style expansion and pasting the same text again show the paste in full', (t) => {
  const editor = new LineEditor();
  editor.paste(LONG);
  t.true(editor.expandPaste());
  t.is(editor.text, LONG);
  t.false(editor.expandPaste());
  editor.clear();
  editor.paste(LONG);
  t.is(editor.paste(LONG), 'expanded');
  t.is(editor.text, LONG);
});

test('the history of this run keeps the token and still sends the full paste', (t) => {
  const editor = new LineEditor();
  editor.paste(LONG);
  const typed = editor.submit()!;
  t.is(typed, '[pasted 500 lines #1]');
  t.is(editor.expand(typed), LONG);
  editor.up();
  t.is(editor.text, '[pasted 500 lines #1]');
  t.is(editor.expand(), LONG);
  t.is(editor.expand('[pasted 500 lines #9] typed by hand'), '[pasted 500 lines #9] typed by hand', 'an unknown token is plain text');
});
