import test from 'ava';
import { join } from 'node:path';
import { Session } from '../../../actors/session/session.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import { declineHeadless } from '../../../cli/headless/approver.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir, writeTree } from '../../helpers/temp.js';

/** Skills through a real session: listed in the frozen system prompt, the body read with `read` when the model wants it. */

test("skills are listed in the session's system prompt, the same for every request; the model reads a body with read", async (t) => {
  const home = tempDir('reika-home-');
  const configHome = join(home, '.config');
  writeTree(join(configHome, 'reika'), { 'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Work with PDF files\n---\nUse pdftotext.\n' });
  const root = gitRepo({
    'README.md': '# demo\n',
    '.reika/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release of this project\n---\n# Release\n\n1. Bump the version with npm version.\n',
    '.reika/skills/broken/SKILL.md': '---\nname: broken\n',
  });
  const model = await startScriptedServer([{ toolCalls: [{ name: 'read', arguments: { path: '.reika/skills/release/SKILL.md' } }] }, { content: 'released' }, { content: 'again' }]);
  const runtime = startRuntime({ approve: declineHeadless, cwd: root, headless: true });
  t.teardown(async () => {
    await runtime.close();
    await model.close();
  });
  const config = loadConfig({ cwd: root, home, env: { XDG_CONFIG_HOME: configHome, REIKA_BASE_URL: model.url, REIKA_MODEL: 'coder', REIKA_CONTEXT_WINDOW: '32768' } });
  const session = new Session({ runtime, config, cwd: root, headless: true });
  const events: AgentEvent[] = [];
  session.subscribe((event) => events.push(event));
  t.is((await session.run('cut a release')).status, 'answered');
  t.is((await session.run('and again')).status, 'answered');
  const requests = model.chatRequests();
  const systems = requests.map((request) => request.json.messages[0].content as string);
  t.true(systems.every((system) => system === systems[0]), 'one frozen system prompt');
  t.regex(systems[0]!, /- pdf: Work with PDF files \(\S+\/skills\/pdf\/SKILL\.md\)\n- release: Cut a release of this project \(\.reika\/skills\/release\/SKILL\.md\)/);
  t.false(systems[0]!.includes('Bump the version'), 'the body is not in the prompt');
  const toolMessage = requests[1]!.json.messages.find((m: { role: string }) => m.role === 'tool');
  t.regex(String(toolMessage.content), /Bump the version with npm version/);
  const boot = events.find((event) => event.type === 'bootstrap');
  t.deepEqual(boot?.type === 'bootstrap' && boot.problems?.map((line) => line.slice(root.length)), ['/.reika/skills/broken/SKILL.md: the front matter has no closing "---" line']);
});
