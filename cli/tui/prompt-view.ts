import type { LineEditor } from './line-editor.js';
import type { Style } from './style.js';
import { textWidth } from './text-width.js';

export const PROMPT = '› ';
const CONTINUATION = '  ';

/**
 * Draws the editor as lines (a `› ` prompt, then two-space continuation lines) and says where the
 * cursor goes. Tall input shows a window of `maxLines` around the cursor.
 */
export function promptView(editor: LineEditor, style: Style, maxLines: number, placeholder?: string): { lines: string[]; cursor: { line: number; column: number } } {
  if (editor.empty && placeholder) {
    return { lines: [`${style.bold(PROMPT)}${style.dim(placeholder)}`], cursor: { line: 0, column: textWidth(PROMPT) } };
  }
  const rows = editor.text.split('\n');
  const before = editor.text.slice(0, editor.cursor);
  const cursorLine = before.split('\n').length - 1;
  const column = textWidth(before.slice(before.lastIndexOf('\n') + 1)) + textWidth(PROMPT);
  let first = 0;
  let last = rows.length;
  if (rows.length > maxLines) {
    first = Math.max(0, Math.min(cursorLine - Math.floor(maxLines / 2), rows.length - maxLines));
    last = first + maxLines;
  }
  const lines = rows.slice(first, last).map((row, i) => (first + i === 0 ? `${style.bold(PROMPT)}${row}` : `${CONTINUATION}${row}`));
  if (first > 0) lines[0] = `${CONTINUATION}${style.dim(`… ${first} more line${first === 1 ? '' : 's'} above`)}`;
  if (last < rows.length) lines[lines.length - 1] = `${CONTINUATION}${style.dim(`… ${rows.length - last} more below`)}`;
  return { lines, cursor: { line: cursorLine - first, column } };
}
