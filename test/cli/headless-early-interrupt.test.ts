import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { processesIn, runReika, type Run } from './headless-helpers.js';

/**
 * Issue 21 item 3: a SIGINT at any moment of `reika -p`, from the spawn on (before the runtime and
 * the session exist, while they start, during the first request), stops whatever starts. The
 * model would edit a file, write another and go on calling tools forever; after the signal no
 * request may be sent and nothing written, and the exit code is 130. Asserted on facts (what the
 * server received, what is on disk), not on timings: the delays only spread the signals over the
 * startup; on a loaded machine they land in other phases, and every phase must hold.
 */

const STEPS = 10;
/** model-io `detect` asks /props, /api/version, /get_server_info and /version at once. */
const DETECTION_WAVE = 4;
const LAST_MS = 300;

/** The reply's bytes go out in pieces of this size, `chunkDelayMs` apart (unsplit, it would be written at once). */
const STREAMED = { mode: 'fixed', size: 200 } as const;

/**
 * Every reply calls a tool that changes the project; the model never answers. Each streams for
 * about 2 s (a preamble in 4-character deltas, 25 ms apart), so a stream under way at the signal
 * is still under way when the abort reaches it: it must end closed by the client.
 */
function reply(_request: unknown, index: number): ScriptedReply {
  const stream = { content: 'Let me change the files now. '.repeat(10), chunkDelayMs: 25, split: STREAMED };
  if (index % 2 === 0) return { ...stream, toolCalls: [{ name: 'edit', arguments: { path: 'a.txt', old_string: `v${index}`, new_string: `v${index + 2}` } }] };
  return { ...stream, toolCalls: [{ name: 'write', arguments: { path: `w${index}.txt`, content: 'written\n' } }] };
}

interface Signalled {
  at: number;
  requests: number;
}

/** The facts after a run signalled once: the exit code, the requests after the signal, what changed on disk. */
async function checkFacts(t: ExecutionContext, run: Run, s: ScriptedServer, repo: string, signalled: Signalled | undefined, label: string): Promise<void> {
  if (!signalled) return t.fail(`${label}: never signalled`);
  // Before Node has run reika's first module, the default action ends it: a shell sees 130 as well.
  t.true(run.code === 130 || (run.code === null && run.signal === 'SIGINT'), `exit ${run.code} ${run.signal}: ${run.stderr}`);
  // Model requests: one may have been on its way when the signal came; a second needs the first's
  // reply, which came after it. The one in flight is closed, not read to its end.
  const chatsAfter = s.requests.slice(signalled.requests).filter((request) => request.index !== undefined);
  t.true(chatsAfter.length <= 1, `${chatsAfter.length} chat requests arrived after the signal`);
  for (const request of chatsAfter) t.not(await request.outcome, 'completed', 'a chat request in flight at the signal is closed, not read to its end');
  // The engine detection's GETs: at most its widest wave (4 asked at once) may have been on its way.
  const othersAfter = s.requests.slice(signalled.requests).filter((request) => request.index === undefined);
  t.true(othersAfter.length <= DETECTION_WAVE, `${othersAfter.length} other requests arrived after the signal: ${othersAfter.map((r) => r.path).join(', ')}`);
  const written = s.chatRequests().map((_, i) => join(repo, `w${i}.txt`)).filter((file) => existsSync(file));
  const changed = [...(readFileSync(join(repo, 'a.txt'), 'utf8') !== 'v0\n' ? [join(repo, 'a.txt')] : []), ...written];
  for (const file of changed) t.true(statSync(file).mtimeMs <= signalled.at, `${file} was written after the signal`);
  t.log(`${label}: ${signalled.requests} request(s) before the signal (${s.chatRequests().length} chat in all), ${s.requests.length} in all, ${changed.length} file(s) changed before it, exit ${run.code ?? run.signal}`);
  t.deepEqual(processesIn(repo), [], 'no actor or command process is left');
}

const ENV = { REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', REIKA_MAX_TURNS: '50' };

for (let step = 0; step < STEPS; step++) {
  const delay = Math.round((step * LAST_MS) / (STEPS - 1));
  test.serial(`SIGINT ${delay} ms after the spawn: no request and no write after it, exit 130`, async (t) => {
    const repo = gitRepo({ 'a.txt': 'v0\n' });
    const s = await startScriptedServer(reply);
    t.teardown(() => s.close());
    let signalled: Signalled | undefined;
    const run = await runReika(['-p', 'change the files'], {
      cwd: repo,
      env: { REIKA_BASE_URL: s.url, ...ENV },
      onSpawn(child) {
        setTimeout(() => {
          child.kill('SIGINT');
          // Taken after the kill: a write the child made after the signal has a later mtime.
          signalled = { at: Date.now() + 1, requests: s.requests.length };
        }, delay);
      },
    });
    await checkFacts(t, run, s, repo, signalled, `${delay} ms`);
  });
}

/**
 * The same at each startup milestone (REIKA_TRACE_STARTUP=1 names them on stderr), so every phase
 * is hit whatever the machine's load: the signal comes just after the child passed the milestone.
 */
const MILESTONES = ['headless: arguments read', 'runtime: tool executor starting', 'headless: runtime started', 'headless: session loaded', 'runtime: model-io ready', 'session: bootstrap', 'session: request'];

for (const milestone of MILESTONES) {
  test.serial(`SIGINT just after "${milestone}": no request and no write after it, exit 130`, async (t) => {
    const repo = gitRepo({ 'a.txt': 'v0\n' });
    const s = await startScriptedServer(reply);
    t.teardown(() => s.close());
    let signalled: Signalled | undefined;
    const run = await runReika(['-p', 'change the files'], {
      cwd: repo,
      env: { REIKA_BASE_URL: s.url, ...ENV, REIKA_TRACE_STARTUP: '1' },
      onErrLine(line, child) {
        if (signalled || !line.endsWith(`] ${milestone}`)) return;
        child.kill('SIGINT');
        signalled = { at: Date.now() + 1, requests: s.requests.length };
      },
    });
    await checkFacts(t, run, s, repo, signalled, milestone);
  });
}
