import test from 'ava';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, TERMINALS } from './reika-term.js';

/** Finished tool calls in a real terminal: whole summaries on any width, folded output opened again. */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

// Wider than 120 columns with its summary, so the line must wrap at both sizes.
const COMMAND = "for word in alpha beta gamma delta epsilon zeta; do echo \"output-$word\"; done # print six words, one per line";

for (const terminal of TERMINALS) {
  maybe(`a finished call's line is whole (wrapped, not cut), says nothing twice, and /last opens its folded output (${describeTerminal(terminal)})`, async (t) => {
    const { term } = await startReika(t, terminal, [
      { toolCalls: [{ name: 'read', arguments: { path: 'README.md' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: COMMAND } }] },
      { content: 'all done here' },
    ]);
    term.type('look around');
    term.keys('Enter');
    const done = await term.waitFor('all done here');
    t.regex(done, /✓ read README\.md — all 1 line\n/, 'the summary does not repeat "read README.md"');
    t.notRegex(done, /…/, 'nothing is cut');
    // The wrapped line, joined again, is the whole summary.
    const start = done.indexOf('✓ bash');
    const end = done.indexOf('/last shows it)', start);
    t.true(start >= 0 && end > start, done);
    const joined = done.slice(start, end + '/last shows it)'.length).split('\n').map((row) => row.trim()).join(' ');
    t.regex(joined, /^✓ bash for word in alpha .* one per line — exit code 0 after [\d.]+ s \(6 lines of output folded · \/last shows it\)$/);
    for (const row of done.slice(start, end).split('\n')) t.true(row.length < terminal.width, `row fits: ${row}`);
    t.notRegex(done, /output-gamma/, 'the output is folded');

    term.type('/last');
    term.keys('Enter');
    const shown = await term.waitFor('│ output-zeta');
    for (const word of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']) t.regex(shown, new RegExp(`│ output-${word}\\n`));
    term.type('/last 2');
    term.keys('Enter');
    await term.waitFor(/› \/last 2\n✓ read README\.md — all 1 line\n  \(no output\)/);
    term.type('/last 3');
    term.keys('Enter');
    await term.waitFor('there are fewer than 3 finished tool calls');
  });
}
