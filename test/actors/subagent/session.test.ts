import test from 'ava';
import { Session } from '../../../actors/agent/session.js';
import { loadConfig } from '../../../actors/config.js';
import type { FileIndex, IndexerRequest, RepoMap } from '../../../actors/indexer/protocol.js';
import { subagentDispatcher } from '../../../actors/subagent/dispatcher.js';
import { SUBAGENTS } from '../../../actors/subagent/protocol.js';
import { defineActor, Supervisor } from '../../../runtime/index.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

const modelIoModule = new URL('../../../actors/model-io/actor.js', import.meta.url);
const executorModule = new URL('../../../actors/tool-executor/actor.js', import.meta.url);

const toolNames = (json: { tools: Array<{ function: { name: string } }> }) => json.tools.map((tool) => tool.function.name);

test('a session offers subagent in agent and plan mode, and a wave runs against the subagent server of its own', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  const main = await startScriptedServer((request) => {
    const tools = request.json.messages.filter((m: { role: string }) => m.role === 'tool').length;
    if (tools === 0) return { toolCalls: [{ id: 'sub_1', name: 'subagent', arguments: { task: 'What does src/a.ts export?' } }, { id: 'sub_2', name: 'subagent', arguments: { task: 'What does src/b.ts export?' } }] };
    return { content: 'Both reported.' };
  });
  const second = await startScriptedServer(
    (request) => {
      const task: string = request.json.messages[1].content;
      const file = /src\/\w\.ts/.exec(task)![0];
      if (request.json.messages.length === 2) return { toolCalls: [{ id: `read_${file}`, name: 'read', arguments: { path: file } }] };
      return { content: `${file}:1 exports one constant.` };
    },
    { models: ['small-model'] },
  );
  const supervisor = new Supervisor();
  t.teardown(async () => {
    await supervisor.close();
    await main.close();
    await second.close();
  });
  await Promise.all([
    supervisor.register(
      'indexer',
      defineActor<{ request: IndexerRequest; reply: FileIndex | RepoMap }>({
        handle(request) {
          if (request.type === 'scan') return { root: request.root, paths: ['src/a.ts', 'src/b.ts'], capped: [], stats: { directories: 1, files: 2, ignored: 0, skipped: 0, ms: 1 } };
          return { text: 'src/a.ts: a\nsrc/b.ts: b\n', files: [], omitted: 0, budgetTokens: request.budgetTokens };
        },
      }),
    ),
    supervisor.spawn({ name: 'model-io', kind: 'thread', module: modelIoModule }),
    supervisor.spawn({ name: 'tool-executor', kind: 'process', module: executorModule }),
    supervisor.register(SUBAGENTS, subagentDispatcher(supervisor)),
  ]);
  const config = loadConfig({ cwd: root, home: root, env: { REIKA_BASE_URL: main.url, REIKA_MODEL: 'main-model', REIKA_CONTEXT_WINDOW: '32000', REIKA_SUBAGENT_BASE_URL: second.url } });
  const session = new Session({ runtime: { supervisor, indexerReady: Promise.resolve() }, config, cwd: root, headless: true });

  const result = await session.run('survey');
  t.is(result.status, 'answered');
  t.deepEqual(toolNames(main.chatRequests()[0]!.json), ['read', 'list', 'glob', 'grep', 'edit', 'write', 'bash', 'subagent']);
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
  t.deepEqual(toolNames(main.chatRequests()[2]!.json), ['read', 'list', 'glob', 'grep', 'bash', 'subagent']);
});
