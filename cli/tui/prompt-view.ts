import type { LineEditor } from './line-editor.js';
import type { Style } from './style.js';
import { splitRow, textWidth } from './text-width.js';

export const PROMPT = '› ';
const CONTINUATION = '  ';

/** One row on screen: the text it shows and where that text starts in its line of the draft. */
interface Row {
  line: number;
  start: number;
  text: string;
}

/**
 * Draws the editor as rows (a `› ` prompt, then two-space continuation rows) and says where the
 * cursor goes. A line longer than the terminal is word-wrapped here, each row indented under the
 * prompt, instead of being cut mid-word by the terminal. Tall input shows a window of `maxLines`
 * rows around the cursor.
 */
export function promptView(editor: LineEditor, style: Style, maxLines: number, placeholder?: string, columns = 80): { lines: string[]; cursor: { line: number; column: number } } {
  if (editor.empty && placeholder) {
    return { lines: [`${style.bold(PROMPT)}${style.dim(placeholder)}`], cursor: { line: 0, column: textWidth(PROMPT) } };
  }
  const width = Math.max(8, columns - 1 - textWidth(PROMPT));
  const rows: Row[] = [];
  editor.text.split('\n').forEach((text, line) => rows.push(...wrapRows(text, line, width)));
  const before = editor.text.slice(0, editor.cursor);
  const cursorLine = before.split('\n').length - 1;
  const offset = editor.cursor - (before.lastIndexOf('\n') + 1);
  let cursorRow = 0;
  rows.forEach((row, i) => {
    if (row.line === cursorLine && row.start <= offset) cursorRow = i;
  });
  const row = rows[cursorRow]!;
  const column = textWidth(PROMPT) + textWidth(row.text.slice(0, offset - row.start));
  let first = 0;
  let last = rows.length;
  if (rows.length > maxLines) {
    first = Math.max(0, Math.min(cursorRow - Math.floor(maxLines / 2), rows.length - maxLines));
    last = first + maxLines;
  }
  const lines = rows.slice(first, last).map((r, i) => (first + i === 0 ? `${style.bold(PROMPT)}${r.text}` : `${CONTINUATION}${r.text}`));
  if (first > 0) lines[0] = `${CONTINUATION}${style.dim(`… ${first} more row${first === 1 ? '' : 's'} above`)}`;
  if (last < rows.length) lines[lines.length - 1] = `${CONTINUATION}${style.dim(`… ${rows.length - last} more below`)}`;
  return { lines, cursor: { line: cursorRow - first, column } };
}

/** A line of the draft as rows of at most `width` cells, broken at spaces where it can. */
function wrapRows(text: string, line: number, width: number): Row[] {
  const rows: Row[] = [];
  let start = 0;
  let rest = text;
  while (textWidth(rest) > width) {
    const [head, tail] = splitRow(rest, width);
    rows.push({ line, start, text: head });
    start += rest.length - tail.length;
    rest = tail;
  }
  rows.push({ line, start, text: rest });
  return rows;
}
