import { charWidth } from '../text-width.js';

/**
 * A run of text with one look: how to paint it (SGR, applied per row so no row leaks its colour
 * into the next) and, for a link, its target. Markdown is parsed into spans, wrapped as plain text,
 * then painted row by row.
 */
export interface Span {
  text: string;
  paint?: (text: string) => string;
  /** Target of a hyperlink (OSC 8), when the terminal shows them. */
  href?: string;
}

/** Cells the spans take on screen. */
export function spansWidth(spans: readonly Span[]): number {
  let width = 0;
  for (const span of spans) for (const char of span.text) width += charWidth(char.codePointAt(0)!);
  return width;
}

/**
 * Splits spans into rows of at most `width` cells. Prose breaks at the last space of a row when
 * that space is past half of it (the space is dropped), as the rest of the TUI wraps; code
 * (`breakAtSpaces` false) is cut at the width so every character stays where it was. The first
 * row may have a width of its own (a list item's bullet takes room the other rows indent by).
 */
export function wrapSpans(spans: readonly Span[], width: number, breakAtSpaces = true, firstWidth = width): Span[][] {
  const cells: { char: string; span: number; width: number }[] = [];
  spans.forEach((span, index) => {
    for (const char of span.text) cells.push({ char, span: index, width: charWidth(char.codePointAt(0)!) });
  });
  const rows: Span[][] = [];
  let start = 0;
  while (true) {
    const limit = Math.max(1, rows.length === 0 ? firstWidth : width);
    let used = 0;
    let end = start;
    let lastSpace = -1;
    while (end < cells.length && used + cells[end]!.width <= limit) {
      if (cells[end]!.char === ' ') lastSpace = end;
      used += cells[end]!.width;
      end++;
    }
    if (end >= cells.length) {
      rows.push(collect(spans, cells, start, cells.length));
      return rows;
    }
    if (end === start) end = start + 1; // a character wider than the row: it goes alone
    if (breakAtSpaces && lastSpace > start && lastSpace - start > limit / 2) {
      rows.push(collect(spans, cells, start, lastSpace));
      start = lastSpace + 1;
    } else {
      rows.push(collect(spans, cells, start, end));
      start = end;
    }
  }
}

function collect(spans: readonly Span[], cells: readonly { char: string; span: number }[], from: number, to: number): Span[] {
  const row: Span[] = [];
  let current = -1;
  for (let i = from; i < to; i++) {
    const cell = cells[i]!;
    if (cell.span !== current) {
      row.push({ ...spans[cell.span]!, text: '' });
      current = cell.span;
    }
    row[row.length - 1]!.text += cell.char;
  }
  return row;
}

/** One row as terminal text: each span painted, links as OSC 8 when `hyperlinks`. */
export function renderSpans(spans: readonly Span[], hyperlinks: boolean): string {
  let out = '';
  for (const span of spans) {
    if (span.text === '') continue;
    const painted = span.paint ? span.paint(span.text) : span.text;
    out += hyperlinks && span.href ? `\x1b]8;;${span.href}\x1b\\${painted}\x1b]8;;\x1b\\` : painted;
  }
  return out;
}

/** Each span's paint, then `paint` over it (a bold word inside a link, a code span in a quote). */
export function paintAll(spans: readonly Span[], paint: ((text: string) => string) | undefined): Span[] {
  if (!paint) return [...spans];
  return spans.map((span) => ({ ...span, paint: span.paint ? (text: string) => paint(span.paint!(text)) : paint }));
}
