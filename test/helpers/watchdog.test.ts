import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startScriptedServer } from './scripted-server.js';
import { gitRepo } from './temp.js';
import { descendants, testSite, watchChild } from './watchdog.js';
import { alive, processesIn, runReika } from '../cli/headless-helpers.js';

/** Waits (polling a real condition, up to 20 s) until none of `pids` runs: a SIGKILL is sent, not done, when kill() returns. */
async function gone(pids: number[]): Promise<boolean> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    if (!pids.some(alive)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

test('the site of a call is the test file’s TypeScript line, with the test’s title', (t) => {
  t.regex(testSite()!, /^test\/helpers\/watchdog\.test\.ts:\d+ \('the site of a call is the test file’s TypeScript line, with the test’s title'\)$/);
});

test('a child that never ends is killed past its limit with all under it, even a detached grandchild group', async (t) => {
  // The grandchild leaves the group (setsid), as the tool executor's bash commands do.
  const child = spawn('sh', ['-c', 'setsid sleep 1000 & echo $!; sleep 1000'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const grandchild = Number(line);
  t.true(descendants(child.pid!).includes(grandchild));
  const watch = watchChild(child, 'sh sleeping', { limitMs: 1_000 });
  await once(child, 'close');
  t.regex(watch.note!, /^watchdog: sh sleeping, started by the test at test\/helpers\/watchdog\.test\.ts:\d+ \(.*\), had not ended after 1 s: killed it and all under it/);
  t.true(await gone([child.pid!, grandchild]));
});

test('a reika run whose server goes silent is ended by the watchdog: the run fails naming the test, nothing of it is left', async (t) => {
  const server = await startScriptedServer([{ content: 'never all of it', fault: { type: 'stall', afterBytes: 40 } }]);
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const error = await t.throwsAsync(
    runReika(['-p', 'hang'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_REQUEST_TIMEOUT_MS: '0' }, limitMs: 3_000 }),
  );
  t.regex(error!.message, /^watchdog: reika -p hang, started by the test at test\/helpers\/watchdog\.test\.ts:\d+ \(.*\), had not ended after 3 s/);
  t.true(await gone(processesIn(repo)));
});
