import test from 'ava';
import { existsSync } from 'node:fs';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, TERMINALS, toolMessage } from './reika-term.js';

/** The approval menu in a real terminal: the choice is visible with and without colour. */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

for (const terminal of TERMINALS) {
  maybe(`the approval menu marks the chosen answer, and Right then Enter declines (${describeTerminal(terminal)})`, async (t) => {
    const { term, server, root } = await startReika(t, terminal, [
      { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf victim' } }] },
      { content: 'understood, not deleting' },
    ], { tree: { 'victim/file.txt': 'x\n', 'README.md': '# demo\n' } });
    term.type('delete the victim folder');
    term.keys('Enter');
    const asking = await term.waitFor('Approve (y)');
    t.regex(asking, /› Approve \(y\)/, 'the first answer is marked');
    t.is(asking.split('$ rm -rf victim').length - 1, 1, `the command is shown once:\n${asking}`);
    term.keys('Right');
    const moved = await term.waitFor('› Decline (n)');
    t.notRegex(moved, /› Approve \(y\)/, 'one answer is marked at a time');
    t.regex(moved, /\$ rm -rf victim\n/, 'the command is shown');
    term.keys('Enter');
    await term.waitFor('understood, not deleting');
    t.true(existsSync(`${root}/victim/file.txt`));
    t.regex(toolMessage(server, 1), /declin/i);
  });
}
