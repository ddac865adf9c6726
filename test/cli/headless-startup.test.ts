import test from 'ava';
import { ensureBigTree } from '../../bench/fixtures/big-tree.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { runReika } from './headless-helpers.js';

test('in a 150k-file tree the first request reaches the server with a non-empty repo map', async (t) => {
  t.timeout(180_000, 'the tree is generated once per machine');
  const root = await ensureBigTree();
  const server = await startScriptedServer([{ content: 'ok' }]);
  t.teardown(() => server.close());
  const run = await runReika(['-p', 'say ok'], { cwd: root, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  const system = String(server.chatRequests()[0]!.json.messages[0].content);
  const map = system.split('# Repo map')[1];
  t.truthy(map, 'the system prompt has a repo map section');
  const lines = map!.split('\n').filter((line) => /^[\w./-]+\.\w+(: .*)?$/.test(line));
  t.true(lines.length > 10, `${lines.length} repo-map lines`);
  t.regex(run.stderr, /reika: indexed \d+ files \(capped\)/);
});
