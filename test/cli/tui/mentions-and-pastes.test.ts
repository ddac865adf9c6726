import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectDir } from '../../../actors/transcript/store-paths.js';
import { tempDir } from '../../helpers/temp.js';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, TERMINALS, until } from './reika-term.js';
import type { ScriptedServer } from '../../helpers/scripted-server.js';

/**
 * `@` mentions of paths with spaces, quotes and accents, and long pastes collapsed to a token, in a
 * real terminal at 80×24 with and without colour.
 */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

const SMALL = TERMINALS.filter((terminal) => terminal.width === 80);
/** What the user sent in chat request `n`. */
function userMessage(server: ScriptedServer, n: number): string {
  const messages = server.chatRequests()[n]!.json.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'user').at(-1)!.content;
}

/** The screen as NFC: a decomposed name on disk shows as the same letters. */
const nfc = (screen: string) => screen.normalize('NFC');

for (const terminal of SMALL) {
  maybe(`Tab completes a path with spaces into a quoted mention, quoted and escaped mentions attach their files, and a missing one says so (${describeTerminal(terminal)})`, async (t) => {
    const { term, server } = await startReika(t, terminal, [{ content: 'read them' }], {
      tree: {
        // Stored decomposed (as files copied from macOS are), typed composed.
        'my notes/re\u0301sume\u0301.md': 'hired in 2024\n',
        'my notes/plan.md': 'step one\n',
        "it's here.txt": 'quoted name\n',
        'src/app.ts': 'export {};\n',
      },
    });
    await term.waitFor('files indexed');
    term.type('read @my');
    term.keys('Tab');
    await term.waitFor('› read @"my notes/');
    term.type('r\u00e9');
    term.keys('Tab');
    await term.waitFor((screen) => nfc(screen).includes('› read @"my notes/r\u00e9sum\u00e9.md"'));
    term.type("and @my\\ notes/plan.md, @\"it's here.txt\" and @'my notes/gone.md'");
    term.keys('Enter');
    const screen = nfc(await term.waitFor('read them'));
    t.regex(screen, /attached my notes\/résumé\.md, my notes\/plan\.md, it's here\.txt/);
    t.regex(screen, /^! @'my notes\/gone\.md': no such file$/m);
    const sent = nfc(userMessage(server, 0));
    t.regex(sent, /<file path="my notes\/résumé\.md">\nhired in 2024\n<\/file>/);
    t.regex(sent, /<file path="my notes\/plan\.md">\nstep one\n<\/file>/);
    t.regex(sent, /<file path="it's here\.txt">\nquoted name\n<\/file>/);
    for (const row of screen.split('\n')) t.true(row.length <= terminal.width, row);
  });

  maybe(`a 500-line paste shows as one token that Backspace and Ctrl-U delete whole and Tab expands; the model, the history and the transcript get the full text (${describeTerminal(terminal)})`, async (t) => {
    const home = tempDir('reika-home-');
    const lines = Array.from({ length: 500 }, (_, i) => `pasted row ${i + 1}`);
    const pasted = `${lines.join('\n')}\n`;
    const { term, server, root } = await startReika(t, terminal, [{ content: 'summarised it' }], { env: { HOME: home } });
    term.paste(pasted);
    let screen = await term.waitFor('› [pasted 500 lines #1]');
    t.notRegex(screen, /pasted row/);
    t.regex(screen, /long paste collapsed, sent in full · Tab expands it · Backspace deletes it/);
    term.keys('BSpace');
    await term.waitFor('› type a message');

    term.type('keep ');
    term.paste(pasted);
    await term.waitFor('› keep [pasted 500 lines #2]');
    term.keys('C-u');
    await term.waitFor('› type a message');

    term.paste(pasted);
    await term.waitFor('› [pasted 500 lines #3]');
    term.keys('Tab');
    screen = await term.waitFor('pasted row 499');
    t.regex(screen, /more rows? above/);
    term.keys('C-c');
    await term.waitFor('› type a message');

    term.type('summarise ');
    term.paste(pasted);
    term.type(' briefly');
    await term.waitFor('› summarise [pasted 500 lines #4] briefly');
    term.keys('Enter');
    screen = await term.waitFor('summarised it');
    t.regex(screen, /› summarise \[pasted 500 lines #4\] briefly/);
    t.notRegex(screen, /pasted row/);
    t.is(userMessage(server, 0), `summarise ${pasted} briefly`);

    // ↑ brings the message back as it was typed, token and all, and it sends the full text again.
    term.keys('Up');
    await term.waitFor((s) => s.split('\n').at(-2)?.startsWith('› summarise [pasted 500 lines #4] briefly') === true);

    const sessions = projectDir(root, { XDG_STATE_HOME: join(home, '.local', 'state') });
    const history = readFileSync(join(sessions, 'history.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string);
    t.deepEqual(history, [`summarise ${pasted} briefly`]);
    const transcript = await until(() => {
      const file = readdirSync(sessions).find((name) => /^[a-z0-9]{10}\.jsonl$/.test(name));
      const text = file ? readFileSync(join(sessions, file), 'utf8') : '';
      return text.includes('pasted row 500') && text;
    }, 'the transcript to hold the paste');
    t.true(transcript.includes(JSON.stringify(`summarise ${pasted} briefly`).slice(1, -1)));
  });
}
