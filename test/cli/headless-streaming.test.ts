import test from 'ava';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

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
