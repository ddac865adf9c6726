import type { Style } from '../style.js';
import { CodeHighlighter } from './code-highlight.js';
import { inlineSpans, type InlineLook } from './inline.js';
import { renderSpans, spansWidth, wrapSpans, type Span } from './spans.js';
import { isTableRow, renderTable } from './table.js';

export interface MarkdownOptions {
  style: Style;
  /** Links as OSC 8 hyperlinks (else `text (url)`); only with colour. */
  hyperlinks?: boolean;
  /** Loads and runs the highlighter; one is made on first use when not given. */
  highlighter?: CodeHighlighter;
  /** Called when lines held for the highlighter can be taken with {@link MarkdownLines.take}. */
  onReady?: () => void;
}

interface Fence {
  marker: string;
  grammar?: string;
  /** The block's lines so far, for the highlighter's context. */
  lines: string[];
}

/** How the rows after the first of a wrapped line begin: under a quote's bar, a list item's text. */
interface Continuation {
  prefix: Span[];
  paint?: (text: string) => string;
}

/**
 * The answer's Markdown, one finished line at a time, as terminal rows at the given width:
 * headings and **bold**, `code`, links (OSC 8 where the terminal shows them), `>` quotes under a
 * bar, list items with their continuation rows indented, rules, tables aligned to fit, and fenced
 * code highlighted (the highlighter loads on the first fence; the lines of a block wait for it,
 * a few milliseconds, in {@link pending}). Without colour the text is kept as written, only
 * wrapped (a quote's rows keep their `>`) and tables aligned, so nothing depends on colour.
 */
export class MarkdownLines {
  private readonly style: Style;
  private readonly look: InlineLook;
  private highlighter: CodeHighlighter | undefined;
  private fence: Fence | undefined;
  /** Finished lines not shown yet: a table that may go on, or code waiting for the highlighter. */
  private held: string[] = [];
  /** Set while a long line is being committed row by row as it streams. */
  private continuation: Continuation | undefined;
  /** How many of the held lines are known table rows (a table that may go on is not re-read per row). */
  private tableRun = 0;

  constructor(private readonly options: MarkdownOptions) {
    this.style = options.style;
    this.look = { style: options.style, hyperlinks: options.style.color && options.hyperlinks === true };
    this.highlighter = options.highlighter;
  }

  /** Rows to commit now for one finished line (none while it is held). */
  push(line: string, columns: number): string[] {
    if (this.continuation) {
      const rest = this.continued(line, columns);
      this.continuation = undefined;
      return rest;
    }
    this.held.push(line);
    return this.drain(columns, false);
  }

  /**
   * Whether an unfinished line may be committed a row at a time as it streams (prose does; code,
   * tables and anything behind held lines wait for the whole line). `width` is the room of its
   * next row.
   */
  streamable(partial: string, columns: number): number | undefined {
    if (this.held.length > 0 || this.fence || isTableRow(partial) || /^\s*(```|~~~)/.test(partial)) return undefined;
    if (this.continuation) return columns - 1 - spansWidth(this.continuation.prefix);
    return columns - 1 - spansWidth(this.block(partial).continuation.prefix);
  }

  /** Commits the first row of a long unfinished line (`row`, cut by the caller at a space); the rest follows. */
  pushRow(row: string, columns: number): string[] {
    if (this.continuation) return this.continued(row, columns);
    const block = this.block(row);
    this.continuation = block.continuation;
    return this.wrap(block.first, block.spans, block.continuation, columns);
  }

  /** The held lines, as written, for the live area. */
  pending(): string[] {
    return this.held;
  }

  /** Rows of the held lines that can be shown now (after {@link MarkdownOptions.onReady}). */
  take(columns: number): string[] {
    return this.drain(columns, false);
  }

  /** Every held line, shown now whatever it waits for (the answer's segment ended). */
  flush(columns: number): string[] {
    this.continuation = undefined;
    return this.drain(columns, true);
  }

  /**
   * At the end of a segment, the held lines that wait for the highlighter, taken out of this
   * object: their rows once it has loaded (or failed to), and the lines as written meanwhile.
   * Undefined when nothing waits for it (then {@link flush} shows everything now).
   */
  defer(columns: number): { written: string[]; rows: Promise<string[]> } | undefined {
    const fence = this.fence;
    if (this.continuation || !fence?.grammar || !this.style.color || this.held.length === 0) return undefined;
    if (this.codeHighlighter().state(fence.grammar) !== 'loading') return undefined;
    const later = new MarkdownLines({ ...this.options, highlighter: this.codeHighlighter() });
    later.fence = fence;
    later.held = this.held;
    this.reset();
    return { written: [...later.held], rows: this.codeHighlighter().prepare(fence.grammar).then(() => later.flush(columns)) };
  }

  /** A new answer starts outside any fence. */
  reset(): void {
    this.fence = undefined;
    this.held = [];
    this.continuation = undefined;
    this.tableRun = 0;
  }

  private drain(columns: number, force: boolean): string[] {
    const out: string[] = [];
    while (this.held.length > 0) {
      const line = this.held[0]!;
      if (this.fence) {
        const fence = this.fence;
        if (closesFence(line, fence.marker)) {
          this.held.shift();
          this.fence = undefined;
          out.push(this.style.dim(line));
          continue;
        }
        if (fence.grammar && this.style.color) {
          const state = this.codeHighlighter().state(fence.grammar);
          if (state === 'loading' && !force) {
            void this.codeHighlighter()
              .prepare(fence.grammar)
              .then(() => this.options.onReady?.());
            break;
          }
        }
        this.held.shift();
        out.push(...this.codeRows(fence, line, columns));
        fence.lines.push(line);
        continue;
      }
      if (isTableRow(line)) {
        let count = Math.max(1, this.tableRun);
        while (count < this.held.length && isTableRow(this.held[count]!)) count++;
        if (count === this.held.length && !force) {
          this.tableRun = count;
          break;
        }
        this.tableRun = 0;
        const lines = this.held.splice(0, count);
        const table = renderTable(lines, columns, this.style, (text) => this.cellSpans(text), this.look.hyperlinks);
        if (table) out.push(...table);
        else for (const row of lines) out.push(...this.prose(row, columns));
        continue;
      }
      this.held.shift();
      const opens = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(line);
      if (opens && !(opens[2]!.startsWith('`') && opens[3]!.includes('`'))) {
        const grammar = CodeHighlighter.grammarOf(opens[3]!);
        this.fence = { marker: opens[2]!, lines: [], ...(grammar ? { grammar } : {}) };
        if (grammar && this.style.color) this.codeHighlighter().state(grammar);
        out.push(this.style.dim(line));
        continue;
      }
      out.push(...this.prose(line, columns));
    }
    return out;
  }

  private codeHighlighter(): CodeHighlighter {
    this.highlighter ??= new CodeHighlighter(this.style);
    return this.highlighter;
  }

  private codeRows(fence: Fence, line: string, columns: number): string[] {
    const spans = fence.grammar && this.style.color && this.codeHighlighter().state(fence.grammar) === 'ready' ? this.codeHighlighter().highlight(fence.grammar, line, fence.lines) : [{ text: line }];
    return wrapSpans(spans, columns - 1, false).map((row) => renderSpans(row, false));
  }

  private prose(line: string, columns: number): string[] {
    const block = this.block(line);
    return this.wrap(block.first, block.spans, block.continuation, columns);
  }

  private continued(text: string, columns: number): string[] {
    const continuation = this.continuation!;
    return this.wrap(continuation.prefix, this.inline(text, continuation.paint), continuation, columns);
  }

  private wrap(first: Span[], spans: Span[], continuation: Continuation, columns: number): string[] {
    // The first row has its own prefix (a bullet), the others the continuation's (its indent).
    const firstRoom = Math.max(8, columns - 1 - spansWidth(first));
    const otherRoom = Math.max(8, columns - 1 - spansWidth(continuation.prefix));
    return wrapSpans(spans, otherRoom, true, firstRoom).map((row, i) => renderSpans([...(i === 0 ? first : continuation.prefix), ...row], this.look.hyperlinks));
  }

  /** A prose line's block: its first-row prefix, its text as spans, and how its other rows begin. */
  private block(line: string): { first: Span[]; spans: Span[]; continuation: Continuation } {
    const { style } = this;
    if (!style.color) {
      // As written; a quote's rows keep its `>`, a list item's rows line up under its text.
      const quote = /^(\s*(?:>\s?)+)/.exec(line);
      if (quote) return { first: [], spans: [{ text: line }], continuation: { prefix: [{ text: quote[1]! }] } };
      const item = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)/.exec(line);
      if (item) return { first: [], spans: [{ text: line }], continuation: { prefix: [{ text: ' '.repeat(item[0].length) }] } };
      return { first: [], spans: [{ text: line }], continuation: { prefix: [] } };
    }
    const heading = /^\s{0,3}#{1,6}\s+/.exec(line);
    if (heading) return { first: [], spans: this.inline(headingText(line.slice(heading[0].length)), style.bold), continuation: { prefix: [], paint: style.bold } };
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return { first: [{ text: '─'.repeat(40), paint: style.dim }], spans: [], continuation: { prefix: [] } };
    const quote = /^(\s*)((?:>\s?)+)(.*)$/.exec(line);
    if (quote) {
      const depth = quote[2]!.replace(/[^>]/g, '').length;
      const bar = [{ text: quote[1]! }, { text: '│ '.repeat(depth), paint: style.dim }];
      const inner = this.block(quote[3]!);
      return { first: [...bar, ...inner.first], spans: inner.spans.map((span) => ({ ...span, paint: span.paint ?? style.italic })), continuation: { prefix: [...bar, ...inner.continuation.prefix], paint: style.italic } };
    }
    const item = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)(\[[ xX]\]\s+)?(.*)$/.exec(line);
    if (item) {
      const [, indent, marker, gap, task, text] = item;
      const bullet = /^[-*+]$/.test(marker!) ? '•' : marker!;
      const box = task ? (/x/i.test(task) ? '☑ ' : '☐ ') : '';
      const first = [{ text: indent! }, { text: `${bullet}${gap!.length > 1 ? gap : ' '}${box}`, paint: style.dim }];
      return { first, spans: this.inline(text!), continuation: { prefix: [{ text: ' '.repeat(spansWidth(first)) }] } };
    }
    return { first: [], spans: this.inline(line), continuation: { prefix: [] } };
  }

  private inline(text: string, paint?: (text: string) => string): Span[] {
    if (!this.style.color) return [{ text }];
    return inlineSpans(text, this.look, paint);
  }

  private cellSpans(text: string): Span[] {
    return this.inline(text);
  }
}

function closesFence(line: string, marker: string): boolean {
  const match = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
  return match !== null && match[1]![0] === marker[0] && match[1]!.length >= marker.length;
}

/**
 * A heading's text without its closing `#`s (`## Title ##`) and trailing space. Done by hand: the
 * regex it replaces (`(.*?)(?:\s+#+)?\s*$`) was quadratic in a long run of spaces.
 */
function headingText(text: string): string {
  const trimmed = text.trimEnd();
  let hashes = trimmed.length;
  while (hashes > 0 && trimmed[hashes - 1] === '#') hashes--;
  if (hashes === trimmed.length || (hashes > 0 && !/\s/.test(trimmed[hashes - 1]!))) return trimmed;
  return trimmed.slice(0, hashes).trimEnd();
}
