import test from 'ava';
import { runReika } from '../../cli/headless-helpers.js';
import { llamaCppModel, startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

/**
 * llama-server with 4 slots (`/props` total_slots): the main agent's requests go to slot 0, each
 * subagent of a wave to a slot of its own, so the wave never evicts the main context. Every
 * request also asks for prefill progress.
 */
test('id_slot per actor with 4 slots: main agent 0, a wave of three subagents 1, 2 and 3', async (t) => {
  const server = await startScriptedServer(
    (request) => {
      const messages = request.json.messages as Array<{ role: string; content: string }>;
      const task = /^Look at (src\/\w\.ts)/.exec(messages.find((m) => m.role === 'user')?.content ?? '');
      if (task) return { content: `${task[1]} exports one constant.` };
      if (!messages.some((m) => m.role === 'tool')) {
        return { toolCalls: ['a', 'b', 'c'].map((name) => ({ id: `sub_${name}`, name: 'subagent', arguments: { task: `Look at src/${name}.ts and say what it exports.` } })) };
      }
      return { content: 'All three reported.' };
    },
    { models: [llamaCppModel('m', 32768)], props: { default_generation_settings: { n_ctx: 8192, params: {} }, total_slots: 4, build_info: 'b6870' } },
  );
  t.teardown(() => server.close());
  const repo = gitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'src/c.ts': 'export const c = 3;\n' });
  const run = await runReika(['-p', 'Use three subagents, one per file in src.', '--json'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'm', REIKA_ENGINE_WAIT_MS: '60000' } });
  t.is(run.code, 0, run.stderr);
  t.is(JSON.parse(run.stdout).answer, 'All three reported.');
  const chats = server.chatRequests().map((r) => r.json);
  const main = chats.filter((json) => !/^Look at/.test(json.messages.find((m: { role: string }) => m.role === 'user').content));
  const subagents = chats.filter((json) => !main.includes(json));
  t.is(main.length, 2);
  t.is(subagents.length, 3);
  t.deepEqual(main.map((json) => json.id_slot), [0, 0]);
  t.deepEqual(subagents.map((json) => json.id_slot).sort(), [1, 2, 3]);
  t.true(chats.every((json) => json.return_progress === true));
});
