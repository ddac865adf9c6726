import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { watchChild } from '../helpers/watchdog.js';
import { cleanEnv, mainJs, runReika } from './headless-helpers.js';

/** Plain `reika -p`: the answer streams to stdout as it arrives, and is exactly the answer. */

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

async function server(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

const env = (s: ScriptedServer) => ({ REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' });
const LINES = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of a long answer that keeps on explaining the code in detail.`);

test('the answer reaches stdout while the reply still streams, and an interrupt keeps what was printed', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  // The server stops writing halfway and keeps the connection open: only a streaming client shows the first lines.
  const answer = LINES.join('\n');
  const s = await server([{ content: answer, charsPerDelta: 40, fault: { type: 'stall', afterBytes: 4_000 } }]);
  const seen: string[] = [];
  let interruptedAt = -1;
  const run = await runReika(['-p', 'explain'], {
    cwd: repo,
    env: env(s),
    onLine(line, child) {
      seen.push(line);
      if (line.startsWith('Line 3 ') && interruptedAt < 0) {
        interruptedAt = seen.length;
        child.kill('SIGINT');
      }
    },
  });
  t.true(interruptedAt > 0, `stdout showed the third line before the reply ended:\n${run.stdout}\n${run.stderr}`);
  t.is(run.code, 130);
  t.true(run.stdout.startsWith(`${LINES[0]}\n${LINES[1]}\n${LINES[2]}\n`), run.stdout);
  t.true(answer.startsWith(run.stdout.trimEnd()), 'what was printed is the start of the answer, nothing else');
  t.true(run.stdout.endsWith('\n'));
});

test('stdout holds exactly the answer: no preamble of a reply that called a tool, one final newline', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'alpha\n' });
  const s = await server([
    { content: 'Let me look at the notes first.\n', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
    { content: `${LINES.join('\n')}\n\n`, split: { mode: 'fixed', size: 16 } },
  ]);
  const run = await runReika(['-p', 'what is in notes.txt'], { cwd: repo, env: env(s) });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, `${LINES.join('\n')}\n`);
});

test('a short answer is printed whole at the end, and the session figures close stderr', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'Short.', usage: { prompt_tokens: 1000, cached_tokens: 900, completion_tokens: 2 } }]);
  const run = await runReika(['-p', 'hi'], { cwd: repo, env: env(s) });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, 'Short.\n');
  t.regex(run.stderr.trim().split('\n').at(-1)!, /^reika: 1 request · 1\.0k prompt tokens, 90% cached · 2 generated · [\d.]+s$/);
});

test('a 10 MB --json result reaches a reader that is slow to read it whole: the exit waits for stdout to drain', async (t) => {
  // Found by the issue 21 soak: the exit timer (a stray handle's grace) cut the result off at
  // what the pipe had taken (4.1 of 10.5 MB under load), with exit code 0.
  const answer = 'y'.repeat(10 * 1024 * 1024);
  const s = await server([{ content: answer, charsPerDelta: 1024 * 1024 }]);
  const repo = gitRepo({ 'a.txt': 'v0\n' });
  const child = spawn(process.execPath, [mainJs, '-p', 'go', '--json'], { cwd: repo, env: cleanEnv(env(s)), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const watch = watchChild(child, 'reika -p go --json (a slow reader of 10 MB)');
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The reader takes the first bytes, then looks away for four times the exit grace (500 ms).
  child.stdout.once('data', () => {
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 2_000);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (watch.note) return t.fail(watch.note);
  t.is(code, 0);
  const result = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  t.is(result.status, 'answered');
  t.is(result.answer.length, answer.length);
});
