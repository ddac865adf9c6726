import test from 'ava';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';
import { runReika } from '../headless-helpers.js';

/** The model's task list in headless output: a `todo` event in `--stream`, the last list in `--json` (issue 37). */

const first = [
  { content: 'Read the parser', status: 'in_progress' },
  { content: 'Fix it', status: 'pending' },
];
const second = [
  { content: 'Read the parser', status: 'completed' },
  { content: 'Fix it', status: 'in_progress' },
];
const script = [
  { toolCalls: [{ name: 'todo', arguments: { todos: first } }] },
  { toolCalls: [{ name: 'todo', arguments: { todos: second } }] },
  { content: 'Halfway there.' },
];

test('--stream prints a todo event each time the list changes, and --json carries the list as the task left it', async (t) => {
  const server = await startScriptedServer([...script, ...script], { models: ['scripted-model'] });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'README.md': '# r\n' });
  const env = { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model' };
  const streamed = await runReika(['-p', 'fix the parser', '--stream'], { cwd: repo, env });
  t.is(streamed.code, 0, streamed.stderr);
  const events = streamed.stdout.trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(events.filter((event) => event.type === 'todo').map((event) => event.items), [first, second]);
  t.deepEqual(events.at(-1).todo, second, 'the result line has it too');
  const json = await runReika(['-p', 'fix the parser', '--json'], { cwd: repo, env });
  t.is(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout);
  t.deepEqual(result.todo, second);
  // The system prompt suggests the list for work of several steps.
  const system = (server.chatRequests()[0]!.json as { messages: { role: string; content: string }[] }).messages[0]!.content;
  t.regex(system, /keep a short plan with `todo`/);
});
