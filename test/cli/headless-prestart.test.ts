import test from 'ava';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/**
 * `reika -p` starts the indexer (scan and repo map) before the runtime: the bootstrap must be
 * answered from that early start, and a run that ends before the runtime starts must not leave
 * its thread holding the process open.
 */

const WITHIN_MS = 15_000;

function withinBound<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not exit within ${WITHIN_MS} ms`)), WITHIN_MS).unref())]);
}

test('the startup trace shows the bootstrap answered from the prestarted scan and map', async (t) => {
  const repo = gitRepo({ 'src/core.ts': 'export function coreThing() {}\n', 'src/use.ts': "import { coreThing } from './core.js';\ncoreThing();\n" });
  const server = await startScriptedServer([{ content: 'ok' }]);
  try {
    const run = await runReika(['-p', 'say ok'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', REIKA_TRACE_STARTUP: '1' } });
    t.is(run.code, 0, run.stderr);
    t.is(run.stdout, 'ok\n');
    const trace = run.stderr.split('\n').filter((line) => line.startsWith('[startup '));
    t.true(trace.some((line) => line.endsWith('indexer: scan answered (prepared)')), run.stderr);
    t.true(trace.some((line) => line.endsWith('indexer: repo map answered (prepared)')), run.stderr);
    // Milliseconds since the process started, from the main thread (t0) and the indexer thread.
    t.true(trace.every((line) => /^\[startup \d+\.\d ms t\d+\] /.test(line)), trace.join('\n'));
    t.true(trace.some((line) => / t[1-9]\d*\] indexer thread: ranked$/.test(line)), trace.join('\n'));
    const system = String(server.chatRequests()[0]!.json.messages[0].content);
    t.regex(system, /src\/core\.ts: coreThing/);
  } finally {
    await server.close();
  }
});

test('without the trace variable no startup line is printed', async (t) => {
  const repo = gitRepo({ 'a.ts': 'export const a = 1;\n' });
  const server = await startScriptedServer([{ content: 'ok' }]);
  try {
    const run = await runReika(['-p', 'say ok'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768' } });
    t.is(run.code, 0, run.stderr);
    t.notRegex(run.stderr, /\[startup /);
  } finally {
    await server.close();
  }
});

test('an empty prompt on stdin fails in one sentence and exits, though the indexer was already started', async (t) => {
  const repo = gitRepo({ 'a.ts': 'export const a = 1;\n' });
  const run = await withinBound(runReika([], { cwd: repo, stdin: '   \n' }), 'reika with an empty prompt');
  t.is(run.code, 1);
  t.is(run.stderr, 'reika: no prompt: pass -p "PROMPT" or pipe the prompt on stdin\n');
});
