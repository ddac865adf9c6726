import type { TodoItem } from '../../actors/tool-executor/protocol.js';
import { visible } from '../visible-text.js';
import type { Style } from './style.js';
import { truncate } from './text-width.js';

/** Rows the list may take above the prompt, its heading included. */
const MAX_ROWS = 6;

/**
 * The model's task list above the prompt, compact: a heading with how many are done, then the
 * item in progress and the pending ones (done ones are only counted), at most {@link MAX_ROWS}
 * rows. Nothing when there is no list or every item is done (the tool line in the transcript
 * already said so).
 */
export function todoLines(items: readonly TodoItem[], columns: number, style: Style): string[] {
  if (items.length === 0 || items.every((item) => item.status === 'completed')) return [];
  const done = items.filter((item) => item.status === 'completed').length;
  const open = items.filter((item) => item.status !== 'completed');
  // The one being worked on first, then the rest in the model's order.
  open.sort((a, b) => Number(b.status === 'in_progress') - Number(a.status === 'in_progress'));
  const width = columns - 1;
  const lines = [style.dim(truncate(`todo · ${done} of ${items.length} done`, width))];
  const room = open.length > MAX_ROWS - 1 ? MAX_ROWS - 2 : MAX_ROWS - 1;
  for (const item of open.slice(0, room)) {
    // The content is the model's text: shown escaped, never acted on.
    const text = visible(item.content.split('\n')[0]!);
    lines.push(item.status === 'in_progress' ? style.cyan(truncate(`  ▸ ${text}`, width)) : truncate(`  ○ ${text}`, width));
  }
  if (open.length > room) lines.push(style.dim(`  … ${open.length - room} more`));
  return lines;
}
