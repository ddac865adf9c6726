import test, { type ExecutionContext } from 'ava';
import { Session } from '../../../actors/session/session.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { INDEXER } from '../../../actors/indexer/protocol.js';
import { subagentDispatcher } from '../../../actors/subagent/dispatcher.js';
import { SUBAGENTS } from '../../../actors/subagent/protocol.js';
import { Supervisor } from '../../../runtime/index.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';
import { fakeIndexer } from '../../helpers/fake-indexer.js';
import { MODEL_IO } from '../../../actors/model-io/protocol.js';
import { TOOL_EXECUTOR } from '../../../actors/tool-executor/protocol.js';

const modelIoModule = new URL('../../../actors/model-io/actor.js', import.meta.url);
const executorModule = new URL('../../../actors/tool-executor/actor.js', import.meta.url);

/** The real model-io and executor, a fake indexer over two files, the subagent dispatcher. */
async function runtimeFor(t: ExecutionContext, servers: ScriptedServer[]): Promise<Supervisor> {
  const supervisor = new Supervisor();
  t.teardown(async () => {
    await supervisor.close();
    await Promise.all(servers.map((server) => server.close()));
  });
  await Promise.all([
    supervisor.register(
      INDEXER,
      fakeIndexer({ 'src/a.ts': 'a', 'src/b.ts': 'b' }),
    ),
    supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: modelIoModule }),
    supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: executorModule }),
    supervisor.register(SUBAGENTS, subagentDispatcher(supervisor)),
  ]);
  return supervisor;
}

/** A main server whose first reply dispatches one subagent per file; then it answers. */
function dispatchingServer(): Promise<ScriptedServer> {
  return startScriptedServer((request) => {
    const tools = request.json.messages.filter((m: { role: string }) => m.role === 'tool').length;
    if (tools === 0) return { toolCalls: [{ id: 'sub_1', name: 'subagent', arguments: { task: 'What does src/a.ts export?' } }, { id: 'sub_2', name: 'subagent', arguments: { task: 'What does src/b.ts export?' } }] };
    return { content: 'Both reported.' };
  });
}

/** A subagent server: reads the file its task names, then reports on it. */
function subagentServer(models: string[]): Promise<ScriptedServer> {
  return startScriptedServer(
    (request) => {
      const task: string = request.json.messages[1].content;
      const file = /src\/\w\.ts/.exec(task)![0];
      if (request.json.messages.length === 2) return { toolCalls: [{ id: `read_${file}`, name: 'read', arguments: { path: file } }] };
      return { content: `${file}:1 exports one constant.` };
    },
    { models },
  );
}

const toolNames = (json: { tools: Array<{ function: { name: string } }> }) => json.tools.map((tool) => tool.function.name);

test('a session offers subagent in agent and plan mode, and a wave runs against the subagent server of its own', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  const main = await dispatchingServer();
  const second = await subagentServer(['small-model']);
  const supervisor = await runtimeFor(t, [main, second]);
  const config = loadConfig({ cwd: root, home: root, env: { REIKA_BASE_URL: main.url, REIKA_MODEL: 'main-model', REIKA_CONTEXT_WINDOW: '32000', REIKA_SUBAGENT_BASE_URL: second.url } });
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config, cwd: root, headless: true });

  const result = await session.run('survey');
  t.is(result.status, 'answered');
  t.deepEqual(toolNames(main.chatRequests()[0]!.json), ['read', 'list', 'glob', 'grep', 'edit', 'write', 'bash', 'todo', 'fetch', 'subagent']);
  const subRequests = second.chatRequests();
  t.is(subRequests.length, 4, 'both subagents asked the second server, twice each');
  t.true(second.requests.some((r) => r.path === '/v1/models'), 'its model was discovered');
  for (const request of subRequests) {
    t.is(request.json.model, 'small-model');
    t.deepEqual(toolNames(request.json), ['read', 'list', 'glob', 'grep'], 'no subagent tool inside a subagent');
    t.regex(request.json.messages[0].content, /^You are a reika subagent/);
    t.regex(request.json.messages[0].content, /src\/a\.ts: a\nsrc\/b\.ts: b/, 'the same frozen repo map as the parent');
  }
  t.is(subRequests[0]!.json.messages[0].content, subRequests[1]!.json.messages[0].content, 'all subagents share one system prompt');
  const tools = main.chatRequests()[1]!.json.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
  t.regex(tools[0], /^subagent report \(done; 1 file read\):\nsrc\/a\.ts:1 exports one constant\./);
  t.regex(tools[1], /^subagent report \(done; 1 file read\):\nsrc\/b\.ts:1 exports one constant\./);

  await session.setMode('plan');
  await session.run('plan it');
  t.deepEqual(toolNames(main.chatRequests()[2]!.json), ['read', 'list', 'glob', 'grep', 'bash', 'fetch', 'subagent']);
});

test('REIKA_SUBAGENT_PROFILES spreads one wave over several servers', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  const main = await dispatchingServer();
  const gpuA = await subagentServer(['model-a']);
  const gpuB = await subagentServer(['model-b']);
  const supervisor = await runtimeFor(t, [main, gpuA, gpuB]);
  const env = { REIKA_BASE_URL: main.url, REIKA_MODEL: 'main-model', REIKA_CONTEXT_WINDOW: '32000', REIKA_PROFILES: 'gpua,gpub', REIKA_GPUA_BASE_URL: gpuA.url, REIKA_GPUB_BASE_URL: gpuB.url, REIKA_SUBAGENT_PROFILES: 'gpua,gpub' };
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config: loadConfig({ cwd: root, home: root, env }), cwd: root, headless: true });
  await session.switchProfile('default');
  const result = await session.run('survey');
  t.is(result.status, 'answered');
  t.deepEqual(gpuA.chatRequests().map((r) => [r.json.model, /src\/\w\.ts/.exec(r.json.messages[1].content)![0]]), [['model-a', 'src/a.ts'], ['model-a', 'src/a.ts']]);
  t.deepEqual(gpuB.chatRequests().map((r) => [r.json.model, /src\/\w\.ts/.exec(r.json.messages[1].content)![0]]), [['model-b', 'src/b.ts'], ['model-b', 'src/b.ts']]);
  t.regex(main.chatRequests()[1]!.json.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content).join('\n'), /src\/a\.ts:1 exports[\s\S]*src\/b\.ts:1 exports/);
});
