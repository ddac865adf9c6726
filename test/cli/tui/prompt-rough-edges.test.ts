import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, TERMINALS, until } from './reika-term.js';

/** The prompt in a real terminal: queued messages, long drafts, Ctrl-L, and the summary at exit. */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

const WORDS = 'every word of this long draft stays whole when the prompt wraps it onto the next rows of the terminal, indented under the prompt';

for (const terminal of TERMINALS) {
  maybe(`a queued notice leaves with its message, a long draft wraps at words under the prompt, Ctrl-L leaves one prompt in the scrollback, and leaving prints the figures (${describeTerminal(terminal)})`, async (t) => {
    // The command waits for a file the test creates: the turn runs until the test lets it end.
    const command = 'until [ -e go ]; do sleep 0.05; done; echo released';
    const { term, server, root } = await startReika(t, terminal, [
      { toolCalls: [{ name: 'bash', arguments: { command } }] },
      { content: 'first turn over' },
      { content: 'the queued one ran', usage: { prompt_tokens: 2000, cached_tokens: 1500, completion_tokens: 10 } },
    ]);
    term.type('take a while');
    term.keys('Enter');
    await term.waitFor('● bash until');
    term.type('and then this');
    term.keys('Enter');
    await term.waitFor('queued 1 message: sent when this turn ends');
    writeFileSync(join(root, 'go'), '');
    await term.waitFor('the queued one ran', 30_000);
    await until(() => server.chatRequests().length === 3, 'the queued message to be sent');
    const after = await term.waitFor((screen) => screen.includes('› type a message') && !screen.includes('queued 1 message'));
    t.notRegex(after, /queued 1 message/);

    term.type(WORDS);
    const wrapped = await term.waitFor((screen) => screen.replace(/\n {2}(?=\S)/g, ' ').includes(`› ${WORDS}`));
    const rows = wrapped.split('\n');
    const first = rows.findIndex((row) => row.startsWith('› every word'));
    const draft: string[] = [];
    for (let i = first; i < rows.length && (i === first || rows[i]!.startsWith('  ')); i++) draft.push(rows[i]!);
    t.true(draft.length >= 2, wrapped);
    for (const row of draft.slice(1)) t.regex(row, /^  \S/, `continuation rows are indented: ${row}`);
    t.is(draft.map((row) => row.slice(2)).join(' '), WORDS, 'no word is cut');
    for (const row of draft) t.true(row.length < terminal.width);
    term.keys('C-u');

    term.keys('C-l');
    await until(() => !term.screen().includes('first turn over'), 'the screen to be cleared');
    for (const char of 'typed after clearing') term.type(char);
    await term.waitFor('› typed after clearing');
    const cleared = term.screen();
    const prompts = term.capture(500).split('\n').filter((row) => row.startsWith('› typed') || row.startsWith('› type a message'));
    t.true(prompts.length <= 2, `one prompt per keystroke was kept in the scrollback:\n${term.capture(500)}`);
    t.regex(cleared, /^reika · /m, 'the banner is back on top');
    term.keys('C-u');

    term.type('/exit');
    term.keys('Enter');
    t.is(await term.waitForExit(), 0);
    // A shell's own line: the terminal wraps it where it is wider than the screen.
    const end = term.capture().replace(/\n/g, '');
    t.regex(end, /reika: 2 turns, 3 requests · [\d.]+k prompt tokens, \d+% cached · [\d.]+k? generated · [\d.]+s(?!\d)/);
  });
}
