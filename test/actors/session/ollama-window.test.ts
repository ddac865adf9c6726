import test from 'ava';
import { Session } from '../../../actors/session/session.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

test('with Ollama the window is learnt after the first reply (the model is loaded then), and requests stay append-only', async (t) => {
  const root = gitRepo({ 'a.txt': 'alpha\n'.repeat(50), 'b.txt': 'beta\n'.repeat(50) });
  const server = await startScriptedServer(
    [
      { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'read', arguments: { path: 'b.txt' } }] },
      { content: 'Both files repeat one word.' },
    ],
    {
      models: [{ id: 'qwen2.5-coder:latest', object: 'model', owned_by: 'library' }],
      // Ollama loads a model on its first request; /api/ps lists it only from then on.
      ollamaPs: (chats) => (chats === 0 ? [] : [{ name: 'qwen2.5-coder:latest', model: 'qwen2.5-coder:latest', context_length: 32768 }]),
    },
  );
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  t.teardown(async () => {
    await runtime.close();
    await server.close();
  });
  const session = new Session({ runtime, config: loadConfig({ cwd: root, home: root, env: { REIKA_BASE_URL: server.url } }), cwd: root, headless: true });
  await session.ready;
  t.is(session.info().window, undefined, 'unknown before the model is loaded');
  const result = await session.run('what is in a.txt and b.txt?');
  t.is(result.status, 'answered');
  t.is(session.info().window, 32768);
  const [, second, third] = server.chatRequests().map((r) => JSON.stringify(r.json.messages));
  t.true(third!.startsWith(second!.slice(0, -1)), 'the third request extends the second: a.txt kept its payload');
  t.regex(third!, /alpha/);
});
