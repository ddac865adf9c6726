import test from 'ava';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startScriptedServer, type ScriptedRequest, type ScriptedServer, type WireJson } from '../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';
import { TranscriptWriter } from '../../actors/transcript/transcript-writer.js';

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

async function server(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

/** Each test its own state folder (XDG_STATE_HOME), so sessions never mix. */
function envFor(s: ScriptedServer, extra: Record<string, string> = {}): Record<string, string> {
  return { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', XDG_STATE_HOME: tempDir('reika-xdg-'), REIKA_CONTEXT_WINDOW: '32768', ...extra };
}

/** Every file under the state folder's sessions/, with its content. */
function storedFiles(env: Record<string, string>): { path: string; text: string; mode: number }[] {
  const base = join(env.XDG_STATE_HOME!, 'reika', 'sessions');
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: readFileSync(path, 'utf8'), mode: statSync(path).mode & 0o777 };
    });
}

/**
 * The bytes a request shares with an earlier one: the earlier body up to the end of its last
 * message (what a warm engine has cached), as it went on the wire.
 */
function messagesPrefix(request: ScriptedRequest): string {
  const body = request.body;
  const messages = JSON.stringify(request.json.messages);
  t0(body.startsWith(`{"messages":${messages}`), 'the body starts with its messages');
  return body.slice(0, '{"messages":'.length + messages.length - 1);
}

function t0(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

test('reika -p … --continue goes on with the last session: its first request begins with the last request sent before, byte for byte', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'alpha\nbeta\n', 'src/a.ts': 'export function a() {}\n' });
  const s = await server([
    { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
    { content: 'Two lines.' },
    { content: 'You asked about notes.txt.' },
  ]);
  const env = envFor(s);
  const first = await runReika(['-p', 'what is in notes.txt?', '--json'], { cwd: repo, env });
  t.is(first.code, 0, first.stderr);
  const id = JSON.parse(first.stdout).session as string;
  t.regex(id, /^[0-9a-z]{10}$/);
  // Files added after the first run: a resumed session does not scan again.
  writeFileSync(join(repo, 'late.ts'), 'export const late = 1;\n');
  const second = await runReika(['-p', 'what did I ask?', '--continue', '--json'], { cwd: repo, env });
  t.is(second.code, 0, second.stderr);
  t.is(JSON.parse(second.stdout).session, id, 'the same session goes on');
  t.regex(second.stderr, new RegExp(`^reika: resumed session ${id} \\(1 turn\\) · last: what is in notes\\.txt\\?$`, 'm'));
  t.is(JSON.parse(second.stdout).answer, 'You asked about notes.txt.');
  const chats = s.chatRequests();
  t.is(chats.length, 3);
  const before = chats[1]!;
  const after = chats[2]!;
  t.true(after.body.startsWith(messagesPrefix(before)), 'the resumed request extends the last one sent before');
  t.deepEqual(after.json.tools, before.json.tools, 'the same tools array');
  t.false(after.json.messages[0].content.includes('late.ts'), 'the frozen system prompt is the recorded one (no new scan)');
  t.is(after.json.messages.at(-1).content, 'what did I ask?');
  t.true(JSON.parse(second.stdout).usage.requests[0].cachedTokens >= JSON.parse(first.stdout).usage.requests[1].promptTokens - 1, 'a warm engine takes the whole earlier prompt from its cache');
});

test('three headless calls chained with --continue carry the context; reika sessions lists the one session', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'one' }, { content: 'two' }, { content: 'three' }]);
  const env = envFor(s);
  for (const [i, prompt] of ['first', 'second', 'third'].entries()) {
    const run = await runReika(['-p', prompt, '--json', ...(i > 0 ? ['-c'] : [])], { cwd: repo, env });
    t.is(run.code, 0, run.stderr);
    // --json counts the session's turns (this one included) and this turn's requests apart.
    t.like(JSON.parse(run.stdout), { turns: i + 1, requests: 1 });
  }
  const last = s.chatRequests()[2]!.json.messages.map((m: WireJson) => [m.role, m.content]);
  t.deepEqual(last.slice(1), [['user', 'first'], ['assistant', 'one'], ['user', 'second'], ['assistant', 'two'], ['user', 'third']]);
  const listed = await runReika(['sessions', '--json'], { cwd: repo, env });
  t.is(listed.code, 0, listed.stderr);
  const sessions = JSON.parse(listed.stdout);
  t.is(sessions.length, 1);
  t.like(sessions[0], { root: repo, turns: 3, firstPrompt: 'first' });
  const plain = await runReika(['sessions'], { cwd: repo, env });
  t.regex(plain.stdout, new RegExp(`^${sessions[0].id} .* 3 turns .* first$`, 'm'));
});

test('a run nothing answered (no server) stores no session; reika sessions lists only the one that has content', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'an answer' }]);
  const env = envFor(s);
  const answered = await runReika(['-p', 'the one that worked', '--json'], { cwd: repo, env });
  t.is(answered.code, 0, answered.stderr);
  const kept = JSON.parse(answered.stdout).session as string;
  for (const output of [[], ['--json']]) {
    // Port 9 (discard): nothing listens, the connection is refused.
    const failed = await runReika(['-p', 'nobody answers this', ...output], { cwd: repo, env: { ...env, REIKA_BASE_URL: 'http://127.0.0.1:9/v1' } });
    t.is(failed.code, 1, failed.stderr);
    if (output.length > 0) t.is(JSON.parse(failed.stdout).session, undefined, 'no stored session is named');
  }
  const listed = await runReika(['sessions', '--json'], { cwd: repo, env });
  t.deepEqual(JSON.parse(listed.stdout).map((session: { id: string }) => session.id), [kept]);
  t.deepEqual(readdirSync(dirname(storedFiles(env).find((file) => file.path.endsWith(`${kept}.jsonl`))!.path)).filter((name) => !name.startsWith('history')).sort(), [`${kept}.jsonl`, `${kept}.meta.json`], 'no file of the failed runs is left');
});

test('a session nothing was asked in is not listed and not taken by --continue, which goes on with the last real one; its id still resumes it', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'the real answer' }, { content: 'going on' }, { content: 'into the empty one' }]);
  const env = envFor(s);
  const first = await runReika(['-p', 'a real question', '--json'], { cwd: repo, env });
  t.is(first.code, 0, first.stderr);
  const real = JSON.parse(first.stdout).session as string;
  // What a run leaves when it ends between opening its transcript and recording its first prompt
  // (killed meanwhile): the header, the frozen bootstrap and the context's first change — newer than the real one.
  const lines = readFileSync(storedFiles(env).find((file) => file.path.endsWith(`${real}.jsonl`))!.path, 'utf8').split('\n').slice(1);
  const bootstrap = lines.slice(0, lines.findIndex((line) => /^\{"type":"(settings|turn-start)"/.test(line)));
  t.deepEqual(bootstrap.map((line) => JSON.parse(line).type), ['frozen', 'ctx']);
  const leftover = TranscriptWriter.create(repo, 'test', { env: { XDG_STATE_HOME: env.XDG_STATE_HOME }, copy: `${bootstrap.join('\n')}\n` });
  leftover.close();
  const listed = await runReika(['sessions', '--json'], { cwd: repo, env });
  t.deepEqual(JSON.parse(listed.stdout).map((session: { id: string }) => session.id), [real], 'reika sessions offers the real one only');
  const all = await runReika(['sessions', '--all'], { cwd: repo, env });
  t.notRegex(all.stdout, new RegExp(leftover.id));
  const next = await runReika(['-p', 'and then?', '--continue', '--json'], { cwd: repo, env });
  t.is(next.code, 0, next.stderr);
  t.is(JSON.parse(next.stdout).session, real, '--continue goes on with the last session something was asked in');
  t.deepEqual(s.chatRequests()[1]!.json.messages.slice(1).map((m: WireJson) => m.content), ['a real question', 'the real answer', 'and then?']);
  const byId = await runReika(['-p', 'is this one empty?', '--resume', leftover.id, '--json'], { cwd: repo, env });
  t.is(byId.code, 0, byId.stderr);
  t.is(JSON.parse(byId.stdout).session, leftover.id, 'its id still opens it');
  const after = await runReika(['sessions', '--json'], { cwd: repo, env });
  t.deepEqual(JSON.parse(after.stdout).map((session: { id: string }) => session.id).sort(), [real, leftover.id].sort(), 'asked in now, it is listed');
});

test('no API key or Authorization header is written to any stored file; the files are 0600', async (t) => {
  const key = 'sk-test-9f8e7d6c5b4a39281706';
  const repo = gitRepo({ 'config.txt': `token=${key}\n` });
  const s = await server([{ toolCalls: [{ name: 'read', arguments: { path: 'config.txt' } }] }, { content: 'done' }]);
  const env = envFor(s, { REIKA_API_KEY: key });
  const run = await runReika(['-p', `use the key ${key}`], { cwd: repo, env });
  t.is(run.code, 0, run.stderr);
  t.is(s.chatRequests()[0]!.headers.authorization, `Bearer ${key}`, 'the key went to the server');
  const files = storedFiles(env);
  t.true(files.length >= 2, 'a transcript and its meta');
  for (const file of files) {
    t.false(file.text.includes(key), `${file.path} holds no key`);
    t.false(/authorization|bearer/i.test(file.text), `${file.path} holds no header`);
    t.is(file.mode, 0o600, file.path);
  }
});

test('--continue with no earlier session starts a new one and says so; --resume of an unknown id is one sentence', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'fresh' }]);
  const env = envFor(s);
  const run = await runReika(['-p', 'hi', '--continue'], { cwd: repo, env });
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /no earlier session in .*: starting a new one/);
  const unknown = await runReika(['-p', 'hi', '--resume', 'zzzz9'], { cwd: repo, env });
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /^reika: there is no session zzzz9 \(reika sessions lists them\)\nother sessions of .*:\n {2}[0-9a-z]{10} /);
  const bare = await runReika(['-p', 'hi', '--resume'], { cwd: repo, env });
  t.is(bare.code, 1);
  t.regex(bare.stderr, /-p --resume needs a session id/);
});
