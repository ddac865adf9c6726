import test from 'ava';
import { tempDir } from '../../helpers/temp.js';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, type Terminal } from './reika-term.js';

/**
 * Leaving and coming back, in a real terminal at 80×24 (tmux): the exit line counts every
 * conversation of the run and names the stored session with the command that goes on with it;
 * `/tokens` and `/doctor` count the same requests; a resumed session shows its last turns as they
 * were, and the status line its context; `/new` leaves no figure of the old conversation behind.
 */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

const TERMINALS: readonly Terminal[] = [
  { width: 80, height: 24, noColor: false },
  { width: 80, height: 24, noColor: true },
];

/** The status line: the last row that names the model. */
function statusRow(screen: string): string {
  return screen.split('\n').filter((row) => row.startsWith('scripted-model · ')).at(-1) ?? '';
}

for (const terminal of TERMINALS) {
  maybe(`after /cd the exit line counts the whole run and names the session to resume; /tokens and /doctor count alike (${describeTerminal(terminal)})`, async (t) => {
    const { term } = await startReika(t, terminal, [{ content: 'first answer' }, { content: 'second answer' }], { env: { XDG_STATE_HOME: tempDir('reika-xdg-') } });
    term.type('first question');
    term.keys('Enter');
    await term.waitFor('first answer');
    await term.waitFor('› type a message');
    term.type('/cd .');
    term.keys('Enter');
    await term.waitFor(/now in .*: \d+ files? indexed/);
    term.type('second question');
    term.keys('Enter');
    await term.waitFor('second answer');
    await term.waitFor('› type a message');
    term.type('/tokens');
    term.keys('Enter');
    const tokens = await term.waitFor(/requests: \d+ · prompt/);
    t.regex(tokens, /requests: 2 · prompt/, 'the requests of both conversations');
    term.type('/doctor');
    term.keys('Enter');
    const doctor = await term.waitFor(/cache: +[^\n]*requests|cache: +no requests yet/);
    t.regex(doctor.replace(/\n\s+/g, ' '), /cache: +2 requests · /, '/doctor counts as /tokens does');
    await term.waitFor('› type a message');
    term.type('/exit');
    term.keys('Enter');
    t.is(await term.waitForExit(), 0);
    // The shell's lines: the terminal wraps them where they are wider than the screen.
    const end = term.capture().replace(/\n/g, '');
    t.regex(end, /reika: 2 turns, 2 requests · [\d.]+k? prompt tokens, \d+% cached · [\d.]+k? generated · [\d.]+s/);
    t.regex(end, /reika: session ([0-9a-z]{10}) · go on with it: reika --resume \1(?![0-9a-z])/);
  });
}

maybe('a resumed session shows its last turns as they were and its context size; /new clears the last request’s figures (80×24)', async (t) => {
  const state = tempDir('reika-xdg-');
  const script = [{ toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] }, { content: 'It has two lines.' }, { content: 'The first is alpha.' }, { content: 'Still here.' }];
  const terminal: Terminal = { width: 80, height: 24, noColor: true };
  const env = { XDG_STATE_HOME: state };
  const tree = { 'notes.txt': 'alpha\nbeta\n', 'src/app.ts': 'export function main() {}\n' };
  const first = await startReika(t, terminal, script, { env, tree });
  first.term.type('what is in notes.txt?');
  first.term.keys('Enter');
  await first.term.waitFor('It has two lines.');
  await first.term.waitFor('› type a message');
  first.term.type('and the first line?');
  first.term.keys('Enter');
  await first.term.waitFor('The first is alpha.');
  await first.term.waitFor('› type a message');
  first.term.type('/tokens');
  first.term.keys('Enter');
  await first.term.waitFor('last request: ');
  first.term.type('/new');
  first.term.keys('Enter');
  await first.term.waitFor('new conversation');
  await first.term.waitFor('› type a message');
  t.notRegex(statusRow(first.term.screen()), /prefill/, 'the old conversation’s last request is not shown');
  first.term.type('/tokens');
  first.term.keys('Enter');
  const after = await first.term.waitFor((screen) => screen.lastIndexOf('tool calls: ') > screen.lastIndexOf('› /tokens') && screen.lastIndexOf('› /tokens') > screen.lastIndexOf('› /new'));
  t.notRegex(after.slice(after.lastIndexOf('› /tokens')), /last request: /, '/tokens shows no last request of the old conversation');
  first.term.type('/exit');
  first.term.keys('Enter');
  t.is(await first.term.waitForExit(), 0);
  const id = /reika --resume ([0-9a-z]{10})/.exec(first.term.capture().replace(/\n/g, ''))?.[1];
  t.truthy(id, first.term.capture());

  const second = await startReika(t, terminal, script.slice(3), { env, root: first.root, args: ['--resume', id!], ready: 'resumed session' });
  const screen = await second.term.waitFor((s) => s.includes('› type a message') && s.includes('The first is alpha.'));
  const rows = screen.split('\n');
  const at = (text: string) => rows.findIndex((row) => row.includes(text));
  t.true(at('› what is in notes.txt?') >= 0, screen);
  t.true(at('✓ read notes.txt') > at('› what is in notes.txt?'), 'the tool call line after its prompt');
  t.true(at('It has two lines.') > at('✓ read notes.txt'), 'then the answer');
  t.true(at('› and the first line?') > at('It has two lines.'), 'then the next turn');
  t.true(at('The first is alpha.') > at('› and the first line?'), screen);
  t.regex(statusRow(screen), /ctx [1-9][\d.]*k?\/32k/, 'the resumed context, not an empty one');
  // Once the session is up, its own estimate of the resumed conversation (before any new turn).
  second.term.type('/tokens');
  second.term.keys('Enter');
  const tokens = await second.term.waitFor(/context: [\d.]+k? tokens/);
  t.regex(tokens, /context: [1-9][\d.]*k? tokens \(32k window/);
  t.is(second.server.chatRequests().length, 0, 'nothing was sent');
  second.term.type('/exit');
  second.term.keys('Enter');
  t.is(await second.term.waitForExit(), 0);
  t.regex(second.term.capture().replace(/\n/g, ''), new RegExp(`reika: session ${id} · go on with it: reika --resume ${id}`), 'a resumed session with no new turn is still named');
});
