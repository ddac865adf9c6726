import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/**
 * The bootstrap cache seen from outside: sessions in an unchanged project send the same system
 * prompt whether the index and the map came from the cache or from a scan, and a change to the
 * tree shows in the next session. (The cache's own cases: test/actors/indexer/bootstrap-cache.test.ts.)
 */

async function systemPrompt(cwd: string): Promise<{ system: string; stderr: string }> {
  const server = await startScriptedServer([{ content: 'ok' }]);
  try {
    const run = await runReika(['-p', 'say ok'], { cwd, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', REIKA_TRACE_STARTUP: '1' } });
    if (run.code !== 0) throw new Error(run.stderr);
    return { system: String(server.chatRequests()[0]!.json.messages[0].content), stderr: run.stderr };
  } finally {
    await server.close();
  }
}

test('sessions in an unchanged project send the same system prompt, the later ones from the cache; a new file shows in the next', async (t) => {
  const root = gitRepo({ 'package.json': '{"name":"cached"}\n', 'src/main.ts': 'export function start() {}\n', 'src/util.ts': 'export const helper = 1;\n' });
  const first = await systemPrompt(root);
  // A tree written just before a session is not cached by it (its stamps are too fresh to trust);
  // by the third session it has been cached by the first or the second.
  const second = await systemPrompt(root);
  const third = await systemPrompt(root);
  // A hit is found on the main thread, and then no indexer thread starts at all.
  t.regex(third.stderr, /bootstrap cache: hit \(main thread\)/);
  t.notRegex(third.stderr, /indexer thread:/);
  t.is(second.system, first.system);
  t.is(third.system, first.system);
  t.true(first.system.includes('src/main.ts: start'));

  writeFileSync(join(root, 'src/added.ts'), 'export function addedLater() {}\n');
  const changed = await systemPrompt(root);
  t.regex(changed.stderr, /bootstrap cache: miss \(main thread\)/);
  t.regex(changed.stderr, /indexer thread: scanned/);
  t.true(changed.system.includes('src/added.ts: addedLater'));
});
