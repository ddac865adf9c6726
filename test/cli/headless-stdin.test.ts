import test from 'ava';
import { spawn } from 'node:child_process';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { watchChild } from '../helpers/watchdog.js';
import { cleanEnv, mainJs, runReika } from './headless-helpers.js';

/** `reika -p "PROMPT"` with something piped in: the piped text rides after the prompt (SPEC §9). */

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

async function server(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

const env = (s: ScriptedServer) => ({ REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' });
const userText = (s: ScriptedServer) => (s.chatRequests()[0]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;

const DIFF = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old line\n+new line\n';

test('git diff | reika -p "review this" sends the prompt, then the diff as attached context', async (t) => {
  const repo = gitRepo({ 'a.txt': 'new line\n' });
  const s = await server([{ content: 'The change looks fine.' }]);
  const run = await runReika(['-p', 'review this'], { cwd: repo, env: env(s), stdin: DIFF });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, 'The change looks fine.\n');
  t.is(userText(s), `review this\n\n<stdin>\n${DIFF}</stdin>`);
});

test('piped input past the cap is cut, and both the model and stderr are told', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'ok' }]);
  const big = 'a line of the log\n'.repeat(10_000);
  const run = await runReika(['-p', 'summarise the log'], { cwd: repo, env: env(s), stdin: big });
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /reika: stdin is 180000 bytes: only the first 100000 are attached/);
  const sent = userText(s);
  t.true(sent.startsWith('summarise the log\n\n<stdin>\na line of the log\n'));
  t.regex(sent, /\[cut: stdin had 180000 bytes, the first 100000 are attached\]\n<\/stdin>$/);
  t.true(sent.length < 100_200);
});

test('binary piped input is refused in one line and nothing is sent', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'never' }]);
  const run = await runReika(['-p', 'what is this'], { cwd: repo, env: env(s), stdin: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 0xff]) });
  t.is(run.code, 1);
  t.is(run.stderr.trim().split('\n').filter((line) => !line.startsWith('reika: indexed ')).join('\n'), 'reika: stdin holds binary data (NUL bytes): not sent; pipe text');
  t.is(s.chatRequests().length, 0);
  t.is(run.stdout, '');
});

test('an empty pipe sends the prompt alone, and a pipe held open without data is not waited for', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'first' }, { content: 'second' }]);
  const empty = await runReika(['-p', 'just this'], { cwd: repo, env: env(s), stdin: '' });
  t.is(empty.code, 0, empty.stderr);
  t.is(userText(s), 'just this');
  // A script that never closes reika's stdin: the run still ends, with the prompt alone.
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [mainJs, '-p', 'held open'], { cwd: repo, env: cleanEnv(env(s)), stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    const watch = watchChild(child, 'reika -p "held open" (stdin held open)');
    child.on('error', reject);
    child.on('exit', (exitCode) => {
      child.stdin.destroy();
      if (watch.note) reject(new Error(watch.note));
      else resolve(exitCode);
    });
  });
  t.is(code, 0);
  const messages = s.chatRequests()[1]!.json.messages as { role: string; content: string }[];
  t.is(messages.find((m) => m.role === 'user')!.content, 'held open');
});
