import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_EXECUTOR, type ToolExecutorRequest, type ToolResult } from '../../../actors/tool-executor/protocol.js';
import { CLEARANCE, clearance, type ClearanceProtocol } from '../../../runtime/clearance.js';
import { client, defineActor, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { toolSettings } from '../../helpers/tool-settings.js';

/**
 * Issue 21 item 3, found by the abort storm: a write the agent loop had sent just before a SIGINT
 * ran after it, the scope's abort still on its way to the executor process. The executor now asks
 * the main thread's clearance right before a step that changes something runs; an interrupt the
 * main thread has seen by then stops the step. Here the clearance itself plays the signal: asked,
 * it aborts the call's scope first (as a SIGINT handled just then would), then answers as the real
 * one does.
 */

const executorModule = new URL('../../../actors/tool-executor/actor.js', import.meta.url);

function run(root: string, name: string, args: Record<string, unknown>): ToolExecutorRequest {
  return { type: 'run', callId: `call_${name}`, name, args, context: { root, approvals: 'bypass', mode: 'agent', settings: toolSettings(root) } };
}

async function runtime(t: { teardown(fn: () => unknown): void }, interruptWhenAsked: boolean) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  const asked: string[] = [];
  await supervisor.register(
    CLEARANCE,
    defineActor<ClearanceProtocol>({
      handle(request, context) {
        asked.push(context.scope ?? '');
        if (interruptWhenAsked && context.scope) supervisor.abort(context.scope, 'interrupted by SIGINT');
        return clearance.handle(request, context);
      },
    }),
  );
  await supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: executorModule });
  return { supervisor, asked };
}

test('a write whose turn is interrupted while the executor asks for the go-ahead is not made', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': 'v0\n' });
  const { supervisor, asked } = await runtime(t, true);
  const write = await client(supervisor, TOOL_EXECUTOR)
    .request(run(root, 'write', { path: 'new.txt', content: 'late\n' }), { scope: 'turn-1' })
    .then((result: ToolResult) => result.status, (error: Error) => error.message);
  t.deepEqual(asked, ['turn-1']);
  t.regex(write, /cancelled/);
  t.false(existsSync(join(root, 'new.txt')), 'nothing is written after the interrupt');
  const edit = await client(supervisor, TOOL_EXECUTOR)
    .request(run(root, 'edit', { path: 'a.txt', old_string: 'v0', new_string: 'v1' }), { scope: 'turn-2' })
    .then((result: ToolResult) => result.status, (error: Error) => error.message);
  t.regex(edit, /cancelled/);
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'v0\n');
  const command = await client(supervisor, TOOL_EXECUTOR)
    .request(run(root, 'bash', { command: 'echo ran > ran.txt' }), { scope: 'turn-3' })
    .then((result: ToolResult) => result.status, (error: Error) => error.message);
  t.regex(command, /cancelled/);
  t.false(existsSync(join(root, 'ran.txt')), 'the command never started');
});

test('cleared, a changing call runs as before, and a call that only reads asks nothing', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': 'v0\n' });
  const { supervisor, asked } = await runtime(t, false);
  const executor = client(supervisor, TOOL_EXECUTOR);
  t.is((await executor.request(run(root, 'read', { path: 'a.txt' }), { scope: 'turn-1' })).status, 'done');
  t.deepEqual(asked, [], 'a read changes nothing: no go-ahead asked');
  t.is((await executor.request(run(root, 'edit', { path: 'a.txt', old_string: 'v0', new_string: 'v1' }), { scope: 'turn-1' })).status, 'done');
  t.is((await executor.request(run(root, 'write', { path: 'new.txt', content: 'x\n' }), { scope: 'turn-1' })).status, 'done');
  t.deepEqual(asked, ['turn-1', 'turn-1']);
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'v1\n');
  t.is(readFileSync(join(root, 'new.txt'), 'utf8'), 'x\n');
});
