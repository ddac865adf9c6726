import type { Style } from '../style.js';
import { renderSpans, spansWidth, wrapSpans, type Span } from './spans.js';

/** What a table cell is made of: the cell's source text → its spans. */
export type CellSpans = (text: string) => Span[];

type Align = 'left' | 'right' | 'center';

/** A line of a Markdown table: `| a | b |` (the leading pipe is what a streamed line can be told by). */
export function isTableRow(line: string): boolean {
  return /^\s{0,3}\|/.test(line);
}

/** The cells of a table row, split at pipes that are not escaped and not inside a code span. */
export function tableCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let ticks = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (char === '`') {
      ticks = ticks === 0 ? 1 : 0;
      cell += char;
    } else if (char === '|' && ticks === 0) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

function delimiter(line: string): Align[] | undefined {
  const cells = tableCells(line);
  if (!cells.every((cell) => /^:?-+:?$/.test(cell))) return undefined;
  return cells.map((cell) => (cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : 'left'));
}

/**
 * Rows of a whole table, fitted to `columns`: the pipes aligned (so it still reads as Markdown,
 * and copies as Markdown), the header bold, a column too wide for its share wrapped inside its
 * cell. Returns undefined when the lines are not a table (no delimiter row under the first).
 */
export function renderTable(lines: readonly string[], columns: number, style: Style, cellSpans: CellSpans, hyperlinks = false): string[] | undefined {
  if (lines.length < 2) return undefined;
  const aligns = delimiter(lines[1]!);
  if (!aligns) return undefined;
  const rows = [lines[0]!, ...lines.slice(2)].map((line) => tableCells(line));
  const count = Math.max(aligns.length, ...rows.map((row) => row.length));
  const cells = rows.map((row) => Array.from({ length: count }, (_, i) => cellSpans(row[i] ?? '')));
  const natural = Array.from({ length: count }, (_, i) => Math.max(1, ...cells.map((row) => spansWidth(row[i]!))));
  const widths = fit(natural, columns - 1 - (3 * count + 1));
  const pipe = style.dim('|');
  const out: string[] = [];
  const emit = (row: Span[][], header: boolean) => {
    const wrapped = row.map((cell, i) => wrapSpans(cell, widths[i]!));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    for (let r = 0; r < height; r++) {
      let line = pipe;
      wrapped.forEach((lines, i) => {
        const spans = lines[r] ?? [];
        const text = renderSpans(header ? spans.map((span) => ({ ...span, paint: span.paint ? (t: string) => style.bold(span.paint!(t)) : style.bold })) : spans, hyperlinks);
        line += ` ${pad(text, spansWidth(spans), widths[i]!, aligns[i] ?? 'left')} ${pipe}`;
      });
      out.push(line);
    }
  };
  emit(cells[0]!, true);
  out.push(pipe + widths.map((width, i) => style.dim(`${aligns[i] === 'center' ? ':' : '-'}${'-'.repeat(width)}${aligns[i] === 'right' || aligns[i] === 'center' ? ':' : '-'}`) + pipe).join(''));
  for (const row of cells.slice(1)) emit(row, false);
  return out;
}

/** Column widths within `room`: the narrow columns keep their width, the wide ones share the rest. */
function fit(natural: number[], room: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return natural;
  const widths = [...natural];
  const order = natural.map((_, i) => i).sort((a, b) => natural[a]! - natural[b]!);
  let left = Math.max(room, natural.length * 4);
  order.forEach((column, index) => {
    const share = Math.floor(left / (order.length - index));
    widths[column] = Math.max(Math.min(4, natural[column]!), Math.min(natural[column]!, share));
    left -= widths[column]!;
  });
  return widths;
}

function pad(text: string, width: number, target: number, align: Align): string {
  const space = Math.max(0, target - width);
  if (align === 'right') return ' '.repeat(space) + text;
  if (align === 'center') return ' '.repeat(Math.floor(space / 2)) + text + ' '.repeat(space - Math.floor(space / 2));
  return text + ' '.repeat(space);
}
