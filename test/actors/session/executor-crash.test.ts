import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '../../../actors/session/session.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { TOOL_EXECUTOR } from '../../../actors/tool-executor/protocol.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import type { ActorExitEvent } from '../../../runtime/supervisor.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

/** Issue 21: an edit whose executor dies under it is reported with what is on disk now, in the user's words. */

test('an edit cut off by a crash of the tool executor tells the model the file is unchanged, and the next edit works', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const server = await startScriptedServer([
    { toolCalls: [{ id: 'e1', name: 'edit', arguments: { path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 2' } }] },
    { toolCalls: [{ id: 'e2', name: 'edit', arguments: { path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 3' } }] },
    { content: 'done' },
  ]);
  let asked = 0;
  const runtime = startRuntime({
    cwd: root,
    // The first approval is where the executor dies: it holds the edit, not yet applied.
    approve: async () => {
      if (++asked > 1) return { decision: 'approve' };
      const exited = new Promise<void>((resolve) => runtime.supervisor.once('exit', (event: ActorExitEvent) => event.name === TOOL_EXECUTOR && resolve()));
      process.kill(runtime.supervisor.pidOf(TOOL_EXECUTOR)!, 'SIGKILL');
      await exited;
      return { decision: 'approve' };
    },
  });
  t.teardown(async () => {
    await runtime.close();
    await server.close();
  });
  const config = loadConfig({ cwd: root, home: root, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '32768', REIKA_AUTO_APPROVE: 'off' } });
  const session = new Session({ runtime, config, cwd: root, headless: true });
  const result = await session.run('change a');
  t.is(result.status, 'answered');
  t.deepEqual(result.toolCalls.map((call) => call.status), ['error', 'done']);
  const told = (server.chatRequests()[1]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!.content;
  t.regex(told, /edit failed: the process that runs the tools was killed by SIGKILL\. On disk now: src\/a\.ts still has old_string \(once\) and not new_string: the edit was not applied\./);
  t.notRegex(told, /actor|supervisor/, 'no internal words');
  t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), 'export const a = 3;\n', 'the restarted executor made the second edit');
});
