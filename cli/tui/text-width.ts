import { stripAnsi } from './style.js';

/**
 * How many terminal cells text occupies: ANSI sequences count 0, combining marks and zero-width
 * characters 0, East Asian wide characters and most emoji 2, everything else 1. An approximation
 * of wcwidth that is right for the text a coding agent prints.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of stripAnsi(text)) width += charWidth(char.codePointAt(0)!);
  return width;
}

export function charWidth(code: number): number {
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (code < 0x300) return 1;
  if (isZeroWidth(code)) return 0;
  return isWide(code) ? 2 : 1;
}

function isZeroWidth(code: number): boolean {
  return (
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x1ab0 && code <= 0x1aff) ||
    (code >= 0x1dc0 && code <= 0x1dff) ||
    (code >= 0x20d0 && code <= 0x20ff) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xfe20 && code <= 0xfe2f) ||
    code === 0x2060 ||
    code === 0xfeff
  );
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Cuts text (no ANSI inside) to at most `width` cells, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** Splits one line into rows of at most `columns - 1` cells, breaking at spaces when it can. */
export function wrapLine(line: string, columns: number): string[] {
  const rows: string[] = [];
  let rest = line;
  while (textWidth(rest) > columns - 1) {
    const [row, tail] = splitRow(rest, columns - 1);
    rows.push(row);
    rest = tail;
  }
  rows.push(rest);
  return rows;
}

export function splitRow(text: string, width: number): [string, string] {
  let used = 0;
  let cut = 0;
  let lastSpace = -1;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0)!);
    if (used + w > width) break;
    used += w;
    if (char === ' ') lastSpace = cut;
    cut += char.length;
  }
  if (lastSpace > width / 2) return [text.slice(0, lastSpace), text.slice(lastSpace + 1)];
  return [text.slice(0, cut), text.slice(cut)];
}
