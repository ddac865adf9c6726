import test from 'ava';
import { once } from 'node:events';
import { lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_EXECUTOR, type ToolExecutorRequest, type ToolResult } from '../../../actors/tool-executor/protocol.js';
import { client, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { call } from './harness.js';
import { toolSettings } from '../../helpers/tool-settings.js';

const executorModule = new URL('../../../actors/tool-executor/actor.js', import.meta.url);
const SLOTS = [1, 2, 3, 4, 5, 6];
const slotted = () => SLOTS.map((k) => `slot ${k}\n`).join('');

function edit(root: string, k: number): ToolExecutorRequest {
  return { type: 'run', callId: `call_${k}`, name: 'edit', args: { path: 'f.txt', old_string: `slot ${k}`, new_string: `edit ${k}` }, context: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) } };
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

test('concurrent edits of one file all land: each reads what the one before it wrote', async (t) => {
  const root = writeTree(tempDir(), { 'f.txt': slotted() });
  const results = await Promise.all(SLOTS.map((k) => call(root, 'edit', { path: 'f.txt', old_string: `slot ${k}`, new_string: `edit ${k}` })));
  t.deepEqual(results.map((r) => r.status), SLOTS.map(() => 'done'), results.map((r) => r.summary).join('\n'));
  t.is(readFileSync(join(root, 'f.txt'), 'utf8'), SLOTS.map((k) => `edit ${k}\n`).join(''));
});

test('two edits of one file through a symlink and its target are serialised too, and the link stays a link', async (t) => {
  const root = writeTree(tempDir(), { 'real.txt': 'a\nb\n' });
  symlinkSync('real.txt', join(root, 'link.txt'));
  const [one, two] = await Promise.all([
    call(root, 'edit', { path: 'link.txt', old_string: 'a', new_string: 'A' }),
    call(root, 'edit', { path: 'real.txt', old_string: 'b', new_string: 'B' }),
  ]);
  t.is(one.status, 'done', one.summary);
  t.is(two.status, 'done', two.summary);
  t.is(readFileSync(join(root, 'real.txt'), 'utf8'), 'A\nB\n');
  t.is(readFileSync(join(root, 'link.txt'), 'utf8'), 'A\nB\n');
  t.true(lstatSync(join(root, 'link.txt')).isSymbolicLink());
});

test('an edit waiting for another one on the same file is cancelled at once by its abort', async (t) => {
  const root = writeTree(tempDir(), { 'f.txt': 'x\ny\n' });
  let approve!: () => void;
  let asked!: () => void;
  const waiting = new Promise<void>((resolve) => (asked = resolve));
  const first = call(root, 'edit', { path: 'f.txt', old_string: 'x', new_string: 'X' }, {
    approvals: 'off',
    ask: () => {
      asked();
      return new Promise((answer) => (approve = () => answer({ decision: 'approve' })));
    },
  });
  await waiting;
  const controller = new AbortController();
  const second = call(root, 'edit', { path: 'f.txt', old_string: 'y', new_string: 'Y' }, { signal: controller.signal });
  controller.abort();
  t.is((await second).status, 'cancelled', 'the first one still holds the file: the second did not wait for it');
  approve();
  t.is((await first).status, 'done');
  t.is(readFileSync(join(root, 'f.txt'), 'utf8'), 'X\ny\n');
});

test('the executor killed twice in a row while edits are queued: every edit lands exactly once and every reply says so', async (t) => {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: executorModule });
  const root = writeTree(tempDir(), { 'f.txt': slotted() });

  const first = supervisor.pidOf(TOOL_EXECUTOR)!;
  const died = once(supervisor, 'exit');
  process.kill(first, 'SIGKILL');
  await died;
  // The executor is restarting: these wait in the supervisor's queue.
  const replies = SLOTS.map((k) => client(supervisor, TOOL_EXECUTOR).request(edit(root, k)).then((result) => result, (error: Error) => error));
  // Its next incarnation is killed before it ever says it is ready (a node process takes far
  // longer to load the executor than this loop takes to see its pid).
  let second = supervisor.pidOf(TOOL_EXECUTOR);
  while (second === first || second === undefined) {
    await new Promise((resolve) => setImmediate(resolve));
    second = supervisor.pidOf(TOOL_EXECUTOR);
  }
  const diedAgain = once(supervisor, 'exit');
  process.kill(second, 'SIGKILL');
  await diedAgain;

  const results = await Promise.all(replies);
  const text = readFileSync(join(root, 'f.txt'), 'utf8');
  for (const [i, result] of results.entries()) {
    const k = SLOTS[i]!;
    t.false(result instanceof Error, `edit ${k} failed: ${(result as Error).message}`);
    t.is((result as ToolResult).status, 'done', `edit ${k}`);
    t.is(count(text, `edit ${k}`), 1, `edit ${k} is in the file exactly once`);
  }
  t.is(text, SLOTS.map((k) => `edit ${k}\n`).join(''));
  t.not(supervisor.pidOf(TOOL_EXECUTOR), second, 'a third incarnation ran them');
});
