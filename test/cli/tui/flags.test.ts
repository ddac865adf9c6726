import test from 'ava';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, TERMINALS } from './reika-term.js';

/** `reika --model … --mode …` in a real terminal, and `/model` checking names against the server. */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

for (const terminal of TERMINALS) {
  maybe(`flags set model and mode; /model lists the server's models and refuses one it does not have (${describeTerminal(terminal)})`, async (t) => {
    const { term, server } = await startReika(t, terminal, [{ content: 'planned on the other model' }, { content: 'still the other model' }], {
      args: ['--model', 'other-model', '--mode', 'plan', '--approvals', 'off'],
      server: { models: ['scripted-model', 'other-model'] },
    });
    await term.waitFor(/other-model · plan · approvals off/);
    term.type('/model');
    term.keys('Enter');
    await term.waitFor(/the server's models: scripted-model, other-model \(active\)/);
    term.type('/model gpt-5');
    term.keys('Enter');
    const refused = await term.waitFor(/has no model "gpt-5"/);
    t.regex(refused.replace(/\n/g, ' ').replace(/\s+/g, ' '), /\/model: the server at \S+ has no model "gpt-5"; it offers: scripted-model, other-model \(profiles: default\)/);
    t.regex(refused, /other-model · plan · approvals off/, 'the model did not change');
    term.type('go on');
    term.keys('Enter');
    await term.waitFor('planned on the other model');
    const request = server.chatRequests()[0]!.json;
    t.is(request.model, 'other-model');
    t.false((request.tools as { function: { name: string } }[]).some((tool) => tool.function.name === 'edit'));
  });
}
