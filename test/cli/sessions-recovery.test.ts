import test from 'ava';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type Script, type ScriptedRequest, type ScriptedServer, type WireJson } from '../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** Stored sessions after a normal exit, a SIGKILL mid-turn, an abort; two processes at once; bad files. */

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

async function server(script: Script): Promise<ScriptedServer> {
  const s = await startScriptedServer(script);
  servers.push(s);
  return s;
}

function envFor(s: ScriptedServer): Record<string, string> {
  return { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', XDG_STATE_HOME: tempDir('reika-xdg-'), REIKA_CONTEXT_WINDOW: '32768' };
}

/** The request body up to the end of its last message: what a later request must begin with. */
function messagesPrefix(request: ScriptedRequest): string {
  const messages = JSON.stringify(request.json.messages);
  if (!request.body.startsWith(`{"messages":${messages}`)) throw new Error('the body does not start with its messages');
  return request.body.slice(0, '{"messages":'.length + messages.length - 1);
}

async function sessionsOf(repo: string, env: Record<string, string>): Promise<WireJson[]> {
  const listed = await runReika(['sessions', '--json'], { cwd: repo, env });
  return JSON.parse(listed.stdout);
}

test('after SIGKILL mid-turn (a torn last line), --continue skips the line with a note and goes on from the last request sent', async (t) => {
  const repo = gitRepo({ 'a.txt': 'alpha\n' });
  let release: () => void = () => {};
  let kill: () => void = () => {};
  const s = await server((_request, index) => {
    if (index === 0) return { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] };
    // The second request hangs: the process is killed while it waits — once the server has it
    // (the client's 'request' line can come before the request reaches the server on a busy machine).
    if (index === 1) {
      setTimeout(() => kill(), 50);
      return new Promise((resolve) => (release = () => resolve({ content: 'never' })));
    }
    return { content: 'Back again.' };
  });
  const env = envFor(s);
  const killed = await runReika(['-p', 'read a.txt', '--stream'], {
    cwd: repo,
    env,
    onSpawn(child) {
      kill = () => child.kill('SIGKILL');
    },
  });
  release();
  t.is(killed.signal, 'SIGKILL');
  const [stored] = await sessionsOf(repo, env);
  t.truthy(stored, 'the session was stored before the crash');
  // A crash in the middle of a write leaves the start of a line.
  appendFileSync(stored.transcript, '{"type":"ctx","op":"usage","usage":{"promptTo');
  const resumed = await runReika(['-p', 'go on', '-c', '--json'], { cwd: repo, env });
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stderr, new RegExp(`reika: session ${stored.id}: skipped a torn last line of its transcript \\(\\d+ bytes, a write cut short by a crash\\)`));
  t.notRegex(resumed.stderr, /open in another reika/, 'the killed process\'s lock is stale: taken over, no copy');
  t.is(JSON.parse(resumed.stdout).session, stored.id);
  const chats = s.chatRequests();
  t.is(chats.length, 3);
  t.true(chats[2]!.body.startsWith(messagesPrefix(chats[1]!)), 'the first request after the crash begins with the last one sent before it');
  const tail = chats[2]!.json.messages.slice(chats[1]!.json.messages.length).map((m: WireJson) => [m.role, m.content]);
  t.deepEqual(tail, [['assistant', '[no reply: the turn was interrupted]'], ['user', 'go on']]);
  const text = readFileSync(stored.transcript, 'utf8');
  t.false(text.includes('"promptTo\n'), 'the torn bytes are gone');
  t.true(text.split('\n').slice(0, -1).every((line) => JSON.parse(line)), 'every line is whole again');
  t.regex(text, /"type":"turn-end","turn":"[^"]+","status":"interrupted"/);
});

test('after an abort (SIGINT), --continue goes on from the aborted turn; exit 130 first', async (t) => {
  const repo = gitRepo({ 'a.txt': 'alpha\n' });
  const s = await server([{ content: 'a long answer '.repeat(50), fault: { type: 'stall', afterBytes: 800 } }, { content: 'Resumed.' }]);
  const env = envFor(s);
  const aborted = await runReika(['-p', 'explain', '--stream'], {
    cwd: repo,
    env,
    onLine(line, child) {
      if (JSON.parse(line).type === 'text-delta') child.kill('SIGINT');
    },
  });
  t.is(aborted.code, 130, aborted.stderr);
  const resumed = await runReika(['-p', 'again', '--continue', '--json'], { cwd: repo, env });
  t.is(resumed.code, 0, resumed.stderr);
  const [first, second] = s.chatRequests();
  t.true(second!.body.startsWith(messagesPrefix(first!)));
  t.deepEqual(second!.json.messages.slice(1).map((m: WireJson) => m.role), ['user', 'assistant', 'user']);
});

test('two reika processes continuing one session never write one file: the second goes on in a copy', async (t) => {
  const repo = gitRepo({ 'a.txt': 'alpha\n' });
  let arrived = 0;
  let both: () => void = () => {};
  const barrier = new Promise<void>((resolve) => (both = resolve));
  const s = await server(async (_request, index) => {
    if (index === 0) return { content: 'first answer' };
    // Both continuing processes are in their turn, holding their transcripts, at the same time.
    if (++arrived === 2) both();
    await barrier;
    return { content: `answer ${index}` };
  });
  const env = envFor(s);
  const start = await runReika(['-p', 'start', '--json'], { cwd: repo, env });
  t.is(start.code, 0, start.stderr);
  const original = JSON.parse(start.stdout).session;
  const [a, b] = await Promise.all([runReika(['-p', 'one', '-c', '--json'], { cwd: repo, env }), runReika(['-p', 'two', '-c', '--json'], { cwd: repo, env })]);
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  const ids = [JSON.parse(a.stdout).session, JSON.parse(b.stdout).session].sort();
  t.true(ids.includes(original), 'one of them went on in the session itself');
  t.not(ids[0], ids[1], 'the other in a session of its own');
  t.regex(a.stderr + b.stderr, new RegExp(`session ${original} is open in another reika \\(pid \\d+\\): going on in a copy, session [0-9a-z]{10}`));
  const chats = s.chatRequests();
  for (const later of chats.slice(1)) t.true(later.body.startsWith(messagesPrefix(chats[0]!)), 'both begin with the last request of the session');
  const stored = await sessionsOf(repo, env);
  t.is(stored.length, 2);
  for (const session of stored) {
    const lines = readFileSync(session.transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    t.is(lines.filter((e) => e.type === 'session').length, 1, 'one header per file');
    t.deepEqual(lines.filter((e) => e.type === 'turn-start').map((e) => e.prompt).slice(0, 1), ['start']);
    t.is(lines.filter((e) => e.type === 'turn-start').length, 2, `${session.id}: its own second turn only`);
  }
});

test('a transcript from another format version, or damaged, is one sentence and the list of the other sessions; nothing is lost', async (t) => {
  const repo = gitRepo({ 'a.txt': 'alpha\n' });
  const s = await server([{ content: 'one' }, { content: 'two' }, { content: 'three' }]);
  const env = envFor(s);
  for (const prompt of ['first', 'second']) t.is((await runReika(['-p', prompt], { cwd: repo, env })).code, 0);
  const [newest, older] = await sessionsOf(repo, env);
  const text = readFileSync(newest.transcript, 'utf8');
  writeFileSync(newest.transcript, text.replace('"v":1,', '"v":7,'));
  const refused = await runReika(['-p', 'x', '--resume', newest.id], { cwd: repo, env });
  t.is(refused.code, 1);
  const lines = refused.stderr.trim().split('\n');
  t.regex(lines[0]!, new RegExp(`^reika: session ${newest.id} was written by reika .* in transcript format 7; this reika reads format 1 only$`));
  t.regex(lines[1]!, /^other sessions of .*:$/);
  t.regex(lines[2]!, new RegExp(`^ {2}${older.id} `));
  t.is(lines.length, 3);
  t.is(s.chatRequests().length, 2, 'nothing was sent');
  t.is(readFileSync(newest.transcript, 'utf8'), text.replace('"v":1,', '"v":7,'), 'the file is left as it was');
  writeFileSync(newest.transcript, text.split('\n').map((line, i) => (i === 2 ? '{"type":' : line)).join('\n'));
  const damaged = await runReika(['-p', 'x', '--continue'], { cwd: repo, env });
  t.is(damaged.code, 1);
  t.regex(damaged.stderr, new RegExp(`^reika: session ${newest.id} is damaged \\(line 3 of its transcript is not an event\\)\nother sessions`));
});

test('a session whose folder moved still opens by id, in the folder reika runs in', async (t) => {
  const repo = gitRepo({ 'a.txt': 'alpha\n' });
  const s = await server([{ content: 'one' }, { content: 'two' }]);
  const env = envFor(s);
  const first = await runReika(['-p', 'first', '--json'], { cwd: repo, env });
  const id = JSON.parse(first.stdout).session;
  const moved = join(tempDir('reika-moved-'), 'project');
  renameSync(repo, moved);
  const resumed = await runReika(['-p', 'after the move', '--resume', id.slice(0, 6), '--json'], { cwd: moved, env });
  t.is(resumed.code, 0, resumed.stderr);
  t.is(JSON.parse(resumed.stdout).session, id);
  t.regex(resumed.stderr, new RegExp(`session ${id} ran in ${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, which is gone: it goes on in ${moved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const [before, after] = s.chatRequests();
  t.true(after!.body.startsWith(messagesPrefix(before!)));
});

test('a session continued while another reika is in the middle of a turn is copied as it stood before that turn', async (t) => {
  const repo = gitRepo({ 'a.txt': 'alpha\n' });
  let holding: () => void = () => {};
  const held = new Promise<void>((resolve) => (holding = resolve));
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const s = await server(async (request, index) => {
    if (index === 0) return { content: 'first answer' };
    if (JSON.stringify(request.json.messages.at(-1)).includes('the other turn')) {
      holding();
      await released;
      return { content: 'the other answer' };
    }
    return { content: 'my answer' };
  });
  const env = envFor(s);
  t.is((await runReika(['-p', 'start', '--json'], { cwd: repo, env })).code, 0);
  const other = runReika(['-p', 'the other turn', '-c', '--json'], { cwd: repo, env });
  // The other reika has written its turn's start and sent its request: it holds the session mid-turn.
  await held;
  const mine = await runReika(['-p', 'my turn', '-c', '--json'], { cwd: repo, env });
  release();
  t.is(mine.code, 0, mine.stderr);
  t.is((await other).code, 0);
  t.regex(mine.stderr, /is open in another reika \(pid \d+\): going on in a copy/);
  t.regex(mine.stderr, /resumed session [0-9a-z]{10} \(1 turn\)/, 'the other reika’s turn is not counted');
  const sent = s.chatRequests().find((request) => JSON.stringify(request.json.messages).includes('my turn'))!;
  t.false(JSON.stringify(sent.json.messages).includes('the other turn'), 'the copy’s request holds none of the other turn');
  const copy = (await sessionsOf(repo, env)).find((session) => session.id === JSON.parse(mine.stdout).session)!;
  const events = readFileSync(copy.transcript, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(events.filter((e) => e.type === 'turn-start').map((e) => e.prompt), ['start', 'my turn']);
  t.is(events.filter((e) => e.type === 'turn-end').length, 2, 'no turn left open');
});
