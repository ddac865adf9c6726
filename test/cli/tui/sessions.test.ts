import test, { type ExecutionContext } from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type Script, type ScriptedRequest, type ScriptedServer, type WireJson } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { Tmux, tmuxMissing } from '../../helpers/tmux.js';
import { reikaBin } from '../../helpers/binary.js';

/**
 * Sessions in a real terminal (tmux): the prompt history of one run comes back in the next, a
 * session goes on with `reika -c` and the `--resume` picker, `/save` writes Markdown, `/new` and
 * `/resume` switch conversations.
 */

const mainJs = reikaBin;
const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

async function serverFor(t: ExecutionContext, script: Script): Promise<ScriptedServer> {
  const server = await startScriptedServer(script, { models: ['scripted-model'] });
  t.teardown(() => server.close());
  return server;
}

/** One reika run in tmux; `home` and the state folder are shared by the runs of one test. */
async function reika(t: ExecutionContext, server: ScriptedServer, root: string, state: string, args: string[] = [], waitFor = '› '): Promise<Tmux> {
  const term = await Tmux.start({
    command: [process.execPath, mainJs, ...args],
    cwd: root,
    env: { PATH: process.env.PATH, HOME: state, XDG_STATE_HOME: join(state, 'state'), TERM: 'xterm-256color', LANG: 'C.UTF-8', REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32000' },
    width: 100,
    height: 30,
  });
  t.teardown(() => term.kill());
  await term.waitFor(waitFor);
  return term;
}

async function leave(term: Tmux): Promise<number> {
  await term.waitFor('› type a message');
  term.type('/exit');
  term.keys('Enter');
  return term.waitForExit();
}

function messagesPrefix(request: ScriptedRequest): string {
  const messages = JSON.stringify(request.json.messages);
  if (!request.body.startsWith(`{"messages":${messages}`)) throw new Error('the body does not start with its messages');
  return request.body.slice(0, '{"messages":'.length + messages.length - 1);
}

/** The prompt row: what the editor holds now. */
function promptRow(screen: string): string {
  return screen.split('\n').filter((line) => line.startsWith('› ')).at(-1) ?? '';
}

maybe('the ↑ history comes back in the next run of the same folder; reika -c goes on with the same bytes; /save writes Markdown', async (t) => {
  const root = gitRepo({ 'notes.txt': 'alpha\nbeta\n' });
  const state = tempDir('reika-home-');
  const server = await serverFor(t, [{ toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] }, { content: 'It has two lines.' }, { content: 'Yes, alpha and beta.' }]);
  const first = await reika(t, server, root, state);
  first.type('what is in notes.txt?');
  first.keys('Enter');
  await first.waitFor('It has two lines.');
  await first.waitFor('› type a message');
  first.type('/save');
  first.keys('Enter');
  const saved = await first.waitFor(/saved the conversation to (\S+\.md)/);
  const file = /saved the conversation to (\S+\.md)/.exec(saved)![1]!;
  const markdown = readFileSync(file, 'utf8');
  t.regex(markdown, /^# reika session [0-9a-z]{10}\n/);
  t.regex(markdown, /\*\*You:\*\*\n\nwhat is in notes\.txt\?/);
  t.regex(markdown, /- `read` \{"path":"notes\.txt"\} — .*\n\n {2}```\n {2}.*alpha/);
  t.regex(markdown, /\*\*reika:\*\*\n\nIt has two lines\./);
  t.is(await leave(first), 0);

  const second = await reika(t, server, root, state, ['-c'], 'resumed session');
  const screen = await second.waitFor('› type a message');
  t.regex(screen, /resumed session [0-9a-z]{10} \(1 turn\) · last: what is in notes\.txt\?/);
  t.regex(screen, /It has two lines\./, 'the last answer is shown again');
  // Newest first: /exit, /save, then the prompt of the first run.
  second.keys('Up');
  await second.waitFor((s) => promptRow(s) === '› /exit');
  second.keys('Up', 'Up');
  await second.waitFor((s) => promptRow(s) === '› what is in notes.txt?');
  second.keys('Up');
  t.is(promptRow(second.screen()), '› what is in notes.txt?', 'nothing older');
  second.keys('C-u');
  // Ctrl+R finds it by a word; Enter takes it into the prompt without sending it.
  second.keys('C-r');
  second.type('notes');
  await second.waitFor((s) => promptRow(s) === '› what is in notes.txt?' && s.includes('history search: "notes"'));
  second.keys('Enter');
  await second.waitFor((s) => !s.includes('history search'));
  t.is(server.chatRequests().length, 2, 'nothing was sent');
  second.keys('C-u');
  second.type('is that all?');
  second.keys('Enter');
  await second.waitFor('Yes, alpha and beta.');
  const chats = server.chatRequests();
  t.true(chats[2]!.body.startsWith(messagesPrefix(chats[1]!)), 'the first request after -c begins with the last request of the first run');
  t.is(await leave(second), 0);
  const history = readFileSync(join(state, 'state', 'reika', 'sessions', readdirOne(join(state, 'state', 'reika', 'sessions')), 'history.jsonl'), 'utf8');
  t.is(history.trim().split('\n').filter((line) => line === '"/exit"').length, 2, 'each line as it was sent; deduplicated when read');
});

/** The one project folder under `dir`. */
function readdirOne(dir: string): string {
  const entries = readdirSync(dir);
  if (entries.length !== 1) throw new Error(`expected one project folder in ${dir}, found ${entries.join(', ')}`);
  return entries[0]!;
}

maybe('reika --resume without an id picks from the sessions of the folder; /new and /resume switch conversations', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const state = tempDir('reika-home-');
  const server = await serverFor(t, [{ content: 'answer one' }, { content: 'answer two' }, { content: 'answer three' }, { content: 'answer four' }]);
  const first = await reika(t, server, root, state);
  first.type('the first session');
  first.keys('Enter');
  await first.waitFor('answer one');
  await first.waitFor('› type a message');
  first.type('/new');
  first.keys('Enter');
  await first.waitFor(/new conversation \(the last one stays resumable: \/resume ([0-9a-z]{10})/);
  first.type('the second session');
  first.keys('Enter');
  await first.waitFor('answer two');
  await first.waitFor('› type a message');
  first.type('/resume');
  first.keys('Enter');
  const listed = await first.waitFor('/resume N (or an id) goes on with one');
  t.regex(listed, / 1\. [0-9a-z]{10} .* the second session \(this one\)/);
  t.regex(listed, / 2\. [0-9a-z]{10} .* the first session/);
  first.type('/resume 2');
  first.keys('Enter');
  await first.waitFor(/resumed session [0-9a-z]{10} \(1 turn\) · last: the first session/);
  first.type('back to the first');
  first.keys('Enter');
  await first.waitFor('answer three');
  const third = server.chatRequests()[2]!.json.messages.map((m: WireJson) => m.content);
  t.deepEqual(third.slice(1), ['the first session', 'answer one', 'back to the first']);
  t.is(await leave(first), 0);

  const picking = await reika(t, server, root, state, ['--resume'], 'Resume a session of');
  const picker = picking.screen();
  t.regex(picker, /› [0-9a-z]{10} .* 2 turns .* the first session/, 'the newest first, chosen');
  t.regex(picker, /\n {2}[0-9a-z]{10} .* 1 turn .* the second session/);
  picking.keys('Down');
  picking.keys('Enter');
  await picking.waitFor(/resumed session [0-9a-z]{10} \(1 turn\) · last: the second session/);
  picking.type('and the second?');
  picking.keys('Enter');
  await picking.waitFor('answer four');
  const fourth = server.chatRequests()[3]!.json.messages.map((m: WireJson) => m.content);
  t.deepEqual(fourth.slice(1), ['the second session', 'answer two', 'and the second?']);
  t.is(await leave(picking), 0);
});

/** The ids of the transcripts stored for the one project folder under `state`. */
function storedIds(state: string): string[] {
  const sessions = join(state, 'state', 'reika', 'sessions');
  return readdirSync(join(sessions, readdirOne(sessions)))
    .filter((name) => name.endsWith('.jsonl') && name !== 'history.jsonl')
    .map((name) => name.slice(0, -'.jsonl'.length))
    .sort();
}

maybe('reika -c opened while the session is open in another terminal, and quit without a word, leaves no copy behind', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const state = tempDir('reika-home-');
  const server = await serverFor(t, [{ content: 'answer one' }]);
  const first = await reika(t, server, root, state);
  first.type('the only question');
  first.keys('Enter');
  await first.waitFor('answer one');
  await first.waitFor('› type a message');
  const [original] = storedIds(state);
  // The first terminal still holds the session: the second goes on in a copy of it…
  const second = await reika(t, server, root, state, ['-c'], 'resumed session');
  await second.waitFor('› type a message');
  t.is(storedIds(state).length, 2, 'the copy exists while it runs');
  t.is(await leave(second), 0);
  // …which repeated the original only, and goes with it.
  t.deepEqual(storedIds(state), [original]);
  t.is(await leave(first), 0);
  t.deepEqual(storedIds(state), [original], 'the original stays');
  t.is(server.chatRequests().length, 1);
});
