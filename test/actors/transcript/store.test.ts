import test from 'ava';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../../actors/lock-file.js';
import { allSessions, findSession, listSessions } from '../../../actors/transcript/session-catalog.js';
import { readTranscript } from '../../../actors/transcript/read-transcript.js';
import { projectDir } from '../../../actors/transcript/store-paths.js';
import { TranscriptWriter } from '../../../actors/transcript/transcript-writer.js';
import { TRANSCRIPT_VERSION } from '../../../actors/transcript/transcript-event.js';
import { tempDir } from '../../helpers/temp.js';

/** A state folder of its own per test (XDG_STATE_HOME), and a project root. */
function place(): { env: NodeJS.ProcessEnv; root: string } {
  return { env: { XDG_STATE_HOME: tempDir('reika-xdg-') }, root: tempDir('reika-project-') };
}

const turnStart = (prompt: string, at = new Date().toISOString()) => ({ type: 'turn-start' as const, turn: 't1', prompt, at });

test('a transcript is JSON lines under sessions/<project>/, the file 0600 in a 0700 folder, flushed per event', (t) => {
  const { env, root } = place();
  const writer = TranscriptWriter.create(root, '9.9.9', { env });
  writer.append(turnStart('hello'));
  // Written at once: readable by another reader before close.
  const lines = readFileSync(writer.files.transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.like(lines[0], { type: 'session', v: TRANSCRIPT_VERSION, id: writer.id, root, reika: '9.9.9' });
  t.like(lines[1], { type: 'turn-start', prompt: 'hello' });
  t.true(writer.files.transcript.startsWith(join(env.XDG_STATE_HOME!, 'reika', 'sessions')));
  t.is(statSync(writer.files.transcript).mode & 0o777, 0o600);
  t.is(statSync(writer.files.meta).mode & 0o777, 0o600);
  t.is(statSync(projectDir(root, env)).mode & 0o777, 0o700);
  t.regex(writer.id, /^[0-9a-z]{10}$/);
  writer.close();
  t.false(existsSync(writer.files.lock), 'closing releases the lock');
});

test('configured API keys never reach the transcript or its meta', (t) => {
  const { env, root } = place();
  const key = 'sk-live-0123456789abcdef';
  const writer = TranscriptWriter.create(root, '1', { env, secrets: [key, 'short'] });
  writer.append(turnStart(`my key is ${key}, ok? short`));
  writer.updateMeta({ firstPrompt: `key ${key}` });
  writer.close();
  const text = readFileSync(writer.files.transcript, 'utf8') + readFileSync(writer.files.meta, 'utf8');
  t.false(text.includes(key));
  t.true(text.includes('my key is [redacted], ok? short'), 'short strings are not treated as keys');
});

test('a torn last line is skipped with a note, and appending goes on after the last whole line', (t) => {
  const { env, root } = place();
  const writer = TranscriptWriter.create(root, '1', { env });
  writer.append(turnStart('first'));
  const meta = writer.metaSnapshot;
  writer.close();
  appendFileSync(writer.files.transcript, '{"type":"turn-end","turn":"t1","sta');
  const read = readTranscript(writer.files.transcript, writer.id);
  t.is(read.events.length, 1);
  t.is(read.torn, '{"type":"turn-end","turn":"t1","sta'.length);
  const again = TranscriptWriter.attach(writer.files, writer.id, read.validBytes, meta, { env });
  if ('heldBy' in again) return t.fail('the lock was free');
  again.append({ type: 'turn-end', turn: 't1', status: 'answered', requests: 1, at: new Date().toISOString() });
  again.close();
  const reread = readTranscript(writer.files.transcript, writer.id);
  t.is(reread.torn, undefined);
  t.deepEqual(reread.events.map((e) => e.type), ['turn-start', 'turn-end']);
});

test('a transcript of another format version, or damaged in the middle, is refused in one sentence', (t) => {
  const { env, root } = place();
  const writer = TranscriptWriter.create(root, '1', { env });
  writer.append(turnStart('x'));
  writer.close();
  const original = readFileSync(writer.files.transcript, 'utf8');
  writeFileSync(writer.files.transcript, original.replace(`"v":${TRANSCRIPT_VERSION}`, '"v":0').replace('"reika":"1"', '"reika":"0.0.1"'));
  t.throws(() => readTranscript(writer.files.transcript, writer.id), { message: `session ${writer.id} was written by reika 0.0.1 in transcript format 0; this reika reads format ${TRANSCRIPT_VERSION} only` });
  const [header, ...rest] = original.trim().split('\n');
  writeFileSync(writer.files.transcript, [header, '{garbage', ...rest].join('\n') + '\n');
  t.throws(() => readTranscript(writer.files.transcript, writer.id), { message: `session ${writer.id} is damaged (line 2 of its transcript is not an event)` });
  writeFileSync(writer.files.transcript, '');
  t.throws(() => readTranscript(writer.files.transcript, writer.id), { message: /has no header/ });
});

/** A child process that holds the transcript's lock until its stdin closes. */
function holder(files: TranscriptWriter['files'], id: string, env: NodeJS.ProcessEnv): Promise<{ pid: number; stop(): Promise<void> }> {
  const module = new URL('../../../actors/transcript/transcript-writer.js', import.meta.url).href;
  const code = `import { TranscriptWriter } from ${JSON.stringify(module)};
const w = TranscriptWriter.attach(${JSON.stringify(files)}, ${JSON.stringify(id)}, ${readFileSync(files.transcript).length}, {}, {});
process.stdout.write('heldBy' in w ? 'no\\n' : 'yes\\n');
process.stdin.on('end', () => { if (!('heldBy' in w)) w.close(); });
process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => {
      if (chunk.toString().trim() !== 'yes') return reject(new Error('the child did not get the lock'));
      resolve({ pid: child.pid!, stop: () => new Promise<void>((done) => (child.on('close', () => done()), child.stdin.end())) });
    });
    child.on('error', reject);
  });
}

test('two processes never write one transcript: the second hears who holds it; a dead holder\'s lock is taken over', async (t) => {
  const { env, root } = place();
  const writer = TranscriptWriter.create(root, '1', { env });
  writer.close();
  const bytes = readFileSync(writer.files.transcript).length;
  const child = await holder(writer.files, writer.id, env);
  const refused = TranscriptWriter.attach(writer.files, writer.id, bytes, writer.metaSnapshot, { env });
  t.deepEqual(refused, { heldBy: child.pid });
  await child.stop();
  // A holder killed without releasing: its pid is gone, the lock is stale.
  writeFileSync(writer.files.lock, '999999999\n');
  t.false(isAlive(999999999));
  const taken = TranscriptWriter.attach(writer.files, writer.id, bytes, writer.metaSnapshot, { env });
  t.false('heldBy' in taken);
  if (!('heldBy' in taken)) taken.close();
  t.deepEqual(readdirSync(projectDir(root, env)).filter((name) => name.includes('stale')), []);
});

test('sessions are listed per project root, newest first; an id or a unique prefix finds one wherever it is', (t) => {
  const { env, root } = place();
  const other = tempDir('reika-other-');
  const made = ['2026-01-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z', '2026-02-01T10:00:00.000Z'].map((at, i) => {
    const writer = TranscriptWriter.create(root, '1', { env });
    writer.append(turnStart(`prompt ${i}`, at));
    writer.updateMeta({ turns: 1, firstPrompt: `prompt ${i}` });
    writer.close();
    // The listing's date is the meta's `updated`: set it as if the session had been used then.
    const meta = JSON.parse(readFileSync(writer.files.meta, 'utf8'));
    writeFileSync(writer.files.meta, JSON.stringify({ ...meta, updated: at }));
    return writer.id;
  });
  const elsewhere = TranscriptWriter.create(other, '1', { env });
  elsewhere.append(turnStart('over there'));
  elsewhere.close();
  t.deepEqual(listSessions(root, env).map((s) => s.id), [made[1], made[2], made[0]]);
  t.deepEqual(listSessions(other, env).map((s) => s.id), [elsewhere.id]);
  t.is(findSession(made[0]!, env).id, made[0]);
  t.is(findSession(elsewhere.id.slice(0, 8), env).meta.root, other);
  t.throws(() => findSession('zzzzzzzzzz', env), { message: 'there is no session zzzzzzzzzz (reika sessions lists them)' });
  t.throws(() => findSession('../etc', env), { message: /is not a session id/ });
  t.throws(() => findSession('', env), { message: /is not a session id/ });
  // A meta file that is gone or damaged: the figures are counted from the transcript.
  const one = listSessions(root, env)[0]!;
  writeFileSync(one.files.meta, '{oops');
  t.like(listSessions(root, env).find((s) => s.id === one.id)!.meta, { turns: 1, firstPrompt: 'prompt 1', root });
  // The project folder moved (its sessions folder renamed): still found by id.
  renameSync(projectDir(other, env), join(env.XDG_STATE_HOME!, 'reika', 'sessions', 'moved'));
  t.is(findSession(elsewhere.id, env).meta.root, other);
});

test('a session nothing was asked in is not offered, and its id still finds it; a meta that missed the prompt, or a damaged transcript, is still offered', (t) => {
  const { env, root } = place();
  const asked = TranscriptWriter.create(root, '1', { env });
  asked.append(turnStart('a real question', '2026-01-01T10:00:00.000Z'));
  asked.updateMeta({ turns: 1, firstPrompt: 'a real question' });
  asked.close();
  // Newer, with a header, a settings record and a context change, and never a prompt (a run killed before its first one was recorded).
  const empty = TranscriptWriter.create(root, '1', { env });
  empty.append({ type: 'settings', mode: 'agent', approvals: 'safe', profile: 'default' });
  empty.append({ type: 'ctx', op: 'window', window: 32000 });
  empty.close();
  t.deepEqual(listSessions(root, env).map((s) => s.id), [asked.id], 'the newest, empty one is not offered');
  t.deepEqual(allSessions(env).map((s) => s.id), [asked.id]);
  t.is(findSession(empty.id, env).id, empty.id, 'its id still finds it');
  t.true(existsSync(empty.files.transcript), 'nothing is deleted');
  // The transcript holds a prompt the meta did not count (a crash between the two writes): offered.
  const missed = TranscriptWriter.create(root, '1', { env });
  missed.append(turnStart('counted only in the transcript'));
  missed.close();
  t.is(JSON.parse(readFileSync(missed.files.meta, 'utf8')).turns, 0);
  t.true(listSessions(root, env).some((s) => s.id === missed.id));
  // A prefix shared with a session nobody asked anything in names the one the lists offer.
  const twin = (id: string, prompt?: string) => {
    const writer = TranscriptWriter.create(root, '1', { env, id });
    if (prompt) writer.append(turnStart(prompt));
    writer.close();
  };
  twin('qq00000001', 'the listed one');
  twin('qq00000002');
  t.is(findSession('qq', env).id, 'qq00000001');
  t.is(findSession('qq00000002', env).id, 'qq00000002', 'the hidden one by its whole id');
  twin('qq00000003', 'another listed one');
  t.throws(() => findSession('qq', env), { message: '"qq" names 2 sessions (qq00000001, qq00000003); give more of the id' });
  // A transcript that cannot be read: offered, so opening it says what is wrong.
  writeFileSync(empty.files.transcript, '{"type":"session","v":7}\n');
  t.true(listSessions(root, env).some((s) => s.id === empty.id));
});

test('the prompt history beside the sessions (cli/prompt-history.ts) is not listed as a session', (t) => {
  const { env, root } = place();
  const writer = TranscriptWriter.create(root, '1', { env });
  writer.append(turnStart('hello'));
  writer.close();
  writeFileSync(join(projectDir(root, env), 'history.jsonl'), '"an earlier prompt"\n');
  t.deepEqual(listSessions(root, env).map((s) => s.id), [writer.id]);
});
