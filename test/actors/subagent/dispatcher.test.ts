import test from 'ava';
import { subagentDispatcher } from '../../../actors/subagent/dispatcher.js';
import { SUBAGENTS, type DispatchRequest } from '../../../actors/subagent/protocol.js';
import type { ToolDelta } from '../../../actors/tool-executor/protocol.js';
import { client, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { MODEL_IO } from '../../../actors/model-io/protocol.js';
import { toolSettings } from '../../helpers/tool-settings.js';

test('a subagent whose thread crashes still yields a report of what it streamed, and its actor is gone', async (t) => {
  const root = writeTree(tempDir(), { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.register(SUBAGENTS, subagentDispatcher(supervisor, { module: new URL('./crashing-subagent.js', import.meta.url) }));
  const request: DispatchRequest = {
    type: 'run',
    callId: 'call_1',
    task: 'Read src/a.ts and src/b.ts.',
    files: [],
    brief: { root, system: 'S', tools: [], endpoint: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', requestTimeoutMs: 0 }, discover: false, maxTurns: 8, approvals: 'safe', toolSettings: toolSettings(root) },
  };
  const deltas: ToolDelta[] = [];
  const result = await client(supervisor, SUBAGENTS).request(request, { onDelta: (delta) => deltas.push(delta) });
  t.deepEqual(deltas, [{ type: 'output', stream: 'stdout', text: 'read src/a.ts — 1 line\n' }], 'progress reaches the parent as tool output');
  t.is(result.status, 'error');
  t.is(result.errorCode, 'REIKA_ERR_ACTOR_CRASHED');
  t.regex(result.summary, /^subagent report \(error; 1 file read; not covered: src\/b\.ts\):/);
  t.regex(result.summary, /stopped before its report: it failed: subagent 1 crashed .*boom in the subagent/);
  t.regex(result.summary, /Tool calls it made:\n- read src\/a\.ts — 1 line/);
  t.false(supervisor.has('subagent/1'));
});

test('a subagent server that offers several models and no REIKA_SUBAGENT_MODEL gets one sentence naming the setting', async (t) => {
  const { startScriptedServer } = await import('../../helpers/scripted-server.js');
  const server = await startScriptedServer([], { models: ['a', 'b'] });
  const supervisor = new Supervisor();
  t.teardown(async () => {
    await supervisor.close();
    await server.close();
  });
  await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: new URL('../../../actors/model-io/actor.js', import.meta.url) });
  await supervisor.register(SUBAGENTS, subagentDispatcher(supervisor));
  const root = tempDir();
  const result = await client(supervisor, SUBAGENTS).request({
    type: 'run',
    callId: 'call_1',
    task: 'Look.',
    files: [],
    brief: { root, system: 'S', tools: [], endpoint: { baseUrl: server.url, model: '', requestTimeoutMs: 0 }, discover: true, maxTurns: 8, approvals: 'safe', toolSettings: toolSettings(root) },
  } satisfies DispatchRequest);
  t.is(result.status, 'error');
  t.is(result.errorCode, 'REIKA_ERR_MODEL_UNSET');
  t.regex(result.summary, /REIKA_SUBAGENT_MODEL is not set and the subagent server at .* offers 2 models \(a, b\) — set REIKA_SUBAGENT_MODEL\./);
  t.is(server.chatRequests().length, 0);
  t.false(supervisor.has('subagent/1'));
});
