import test from 'ava';
import { tmuxMissing } from '../../helpers/tmux.js';
import { startReika, TERMINALS } from './reika-term.js';

/** The model's task list in a real terminal: compact, above the prompt, gone once all is done (issue 37). */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

const items = [
  { content: 'Read the parser', status: 'completed' },
  { content: 'Change parse()', status: 'in_progress' },
  { content: 'Run the tests', status: 'pending' },
];

maybe('the todo list sits above the prompt between turns and goes once every item is done', async (t) => {
  const { term } = await startReika(t, TERMINALS[1]!, [
    { toolCalls: [{ name: 'todo', arguments: { todos: items } }] },
    { content: 'first step done' },
    { toolCalls: [{ name: 'todo', arguments: { todos: items.map((item) => ({ ...item, status: 'completed' })) } }] },
    { content: 'all finished' },
  ]);
  term.type('fix the parser');
  term.keys('Enter');
  const shown = await term.waitFor(/first step done[\s\S]*todo · 1 of 3 done\n {2}▸ Change parse\(\)\n {2}○ Run the tests\n› /);
  t.regex(shown, /✓ todo — 1 of 3 done; now: Change parse\(\)/, 'the call has its line in the transcript');
  t.notRegex(shown, /○ Read the parser|▸ Read the parser/, 'done items are only counted');
  term.type('go on');
  term.keys('Enter');
  const finished = await term.waitFor('all finished');
  const live = finished.slice(finished.lastIndexOf('all finished'));
  t.notRegex(live, /todo ·/, 'a finished list leaves the prompt area');
});
