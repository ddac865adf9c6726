import type { SlashCommand } from './slash-context.js';

/** What `/init` asks the model: an AGENTS.md written from what it finds in the project. */
export const INIT_PROMPT = [
  'Write AGENTS.md at the root of this project, for the coding agents that will work in it.',
  'Look at the project first: its README, how it is built, tested and run, and how its folders are laid out.',
  'Keep it short and factual: what the project is, the exact commands to build, test and run it, the layout,',
  'the conventions its code follows, and what an agent must not do here.',
  'Only name commands you have seen in the project files. If AGENTS.md exists already, read it and improve it instead of starting over.',
].join(' ');

/** `/init`: the model writes the project's AGENTS.md (as other coding agents offer). */
export const initCommand: SlashCommand = {
  name: 'init',
  help: 'ask the model to write AGENTS.md for this project (read at the next /cd . or session)',
  idleOnly: true,
  run(context) {
    if (!context.send) return context.error('/init needs the interactive session');
    context.print(context.style.dim('asking the model to write AGENTS.md; reika reads it into the system prompt at the next /cd . or session'));
    context.send(INIT_PROMPT);
  },
};
