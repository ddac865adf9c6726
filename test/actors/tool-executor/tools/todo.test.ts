import test from 'ava';
import { todoLines } from '../../../../cli/tui/todo-view.js';
import { createStyle } from '../../../../cli/tui/style.js';
import { tempDir } from '../../../helpers/temp.js';
import { call } from '../harness.js';

/** `todo{todos}`: the model's task list (issue 37). */

const items = [
  { content: 'Read the parser', status: 'completed' },
  { content: 'Change parse()', status: 'in_progress' },
  { content: 'Run the tests', status: 'pending' },
];

test('a todo call answers with the list as the model reads it back and carries it for the UI', async (t) => {
  const result = await call(tempDir(), 'todo', { todos: items });
  t.is(result.status, 'done');
  t.is(result.summary, '1 of 3 done; now: Change parse()');
  t.is(result.payload, '[x] Read the parser\n[>] Change parse()\n[ ] Run the tests');
  t.deepEqual(result.meta?.todo, items);
  t.deepEqual(result.asked, [], 'it never asks');
  const empty = await call(tempDir(), 'todo', { todos: [] });
  t.is(empty.summary, 'the list is empty');
  t.deepEqual(empty.meta?.todo, []);
});

test('a bad item is refused naming it, and the tool is not offered in read-only modes', async (t) => {
  const root = tempDir();
  const bad = await call(root, 'todo', { todos: [{ content: 'x', status: 'done' }] });
  t.is(bad.summary, 'todo: item 1 of "todos": "status" must be one of pending, in_progress, completed, not "done"');
  const blank = await call(root, 'todo', { todos: [{ content: ' ', status: 'pending' }] });
  t.is(blank.summary, 'todo: item 1 of "todos": "content" must not be empty');
  t.is((await call(root, 'todo', {})).summary, 'todo: "todos" is required');
  t.is((await call(root, 'todo', { todos: items }, { mode: 'plan' })).errorCode, 'READ_ONLY_MODE');
});

test('above the prompt the list is compact: done items counted, the one in progress first, the rest cut to fit', (t) => {
  const style = createStyle(false);
  t.deepEqual(todoLines(items as never, 80, style), ['todo · 1 of 3 done', '  ▸ Change parse()', '  ○ Run the tests']);
  const many = Array.from({ length: 9 }, (_, i) => ({ content: `step ${i + 1}`, status: i === 6 ? 'in_progress' : 'pending' }));
  t.deepEqual(todoLines(many as never, 80, style), ['todo · 0 of 9 done', '  ▸ step 7', '  ○ step 1', '  ○ step 2', '  ○ step 3', '  … 5 more']);
  t.deepEqual(todoLines(items.map((item) => ({ ...item, status: 'completed' })) as never, 80, style), [], 'a finished list goes');
  t.is(todoLines([{ content: `a ${'long '.repeat(40)}\x1b[31mred`, status: 'pending' }], 40, style)[1]!.length, 39, 'cut to the width, escapes shown, never sent');
});
