import { sanitize } from '../tui/stream-text.js';
import { toolLine } from '../tui/tool-line.js';
import type { SlashCommand } from './slash-context.js';

/** Lines `/last` prints at most; past that it says how many it left out (the whole stays in the model's payload or spill file). */
const MAX_LINES = 2_000;

/** `/last [N]`: the N-th last tool call again, with the output the transcript folded. */
export const lastCommand: SlashCommand = {
  name: 'last',
  args: '[N]',
  help: 'show the last tool call (or the N-th last) with its whole output',
  run(context, arg) {
    const back = arg === '' ? 1 : Number(arg);
    if (!Number.isInteger(back) || back < 1) return context.error(`usage: /last [N] (N a number from 1, got "${arg}")`);
    const view = context.finishedTool?.(back);
    if (!view) return context.error(back === 1 ? 'no tool call has finished yet' : `there are fewer than ${back} finished tool calls`);
    const { style } = context;
    const columns = context.columns?.() ?? 80;
    const text = sanitize(view.output).replace(/\n$/, '');
    const lines = text === '' ? [] : text.split('\n');
    const shown = lines.slice(0, MAX_LINES).map((line) => `  ${style.dim('│')} ${line}`);
    const notes: string[] = [];
    if (lines.length === 0) notes.push('(no output)');
    if (lines.length > MAX_LINES) notes.push(`… ${lines.length - MAX_LINES} more lines not shown`);
    if (view.outputDropped > 0) notes.push(`… ${view.outputDropped} more characters were not kept`);
    context.print(toolLine({ ...view, outputLines: 0, partial: '' }, columns, style, true), ...shown, ...notes.map((note) => style.dim(`  ${note}`)));
  },
};
