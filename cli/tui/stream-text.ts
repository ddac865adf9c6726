import { hyperlinksSupported } from './markdown/hyperlinks.js';
import { MarkdownLines } from './markdown/markdown-lines.js';
import type { Style } from './style.js';
import { splitRow, textWidth, wrapLine } from './text-width.js';

export type StreamKind = 'text' | 'reasoning';

/**
 * Turns streamed deltas into finished lines for the transcript plus one unfinished line for the
 * live area. The answer's lines go through its Markdown ({@link MarkdownLines}); a long prose line
 * is committed a row at a time as it streams, so a paragraph without line breaks never grows the
 * live area past one row (code and tables wait for their whole line, which the live area shows
 * meanwhile). Reasoning is dimmed, or folded into a counter when collapsed.
 */
export class StreamText {
  private kind: StreamKind | undefined;
  private partial = '';
  /** The unfinished line is code, a table row or behind held lines: it waits for its newline whole. */
  private partialWaits = false;
  private reasoningWords = 0;
  /** The reasoning so far ends inside a word (the next delta may go on with it). */
  private reasoningInWord = false;
  private reasoningStarted = 0;
  /** The whole reasoning of the latest segment, to show it later on demand. */
  lastReasoning = '';
  private readonly markdown: MarkdownLines;

  constructor(
    private readonly commit: (...lines: string[]) => void,
    private readonly style: Style,
    private readonly columns: () => number,
    private readonly collapsed: () => boolean,
    private readonly now: () => number = Date.now,
    /** Links as OSC 8 hyperlinks (default: when the terminal says it shows them). */
    hyperlinks: boolean = hyperlinksSupported(),
    /**
     * Keeps a place in the transcript for rows that come later ({@link Screen.reserve}): code
     * still waiting for the highlighter when its segment ends. Without it they are shown plain.
     */
    private readonly reserve?: (fallback: string[]) => (lines: string[]) => void,
  ) {
    // Code held for the highlighter (a few ms on the first fence) is committed when it is ready.
    this.markdown = new MarkdownLines({ style, hyperlinks, onReady: () => this.kind === 'text' && this.commit(...this.markdown.take(this.columns())) });
  }

  write(kind: StreamKind, text: string): void {
    if (this.kind !== kind) {
      this.end();
      this.kind = kind;
      if (kind === 'text') this.markdown.reset();
      if (kind === 'reasoning') {
        this.lastReasoning = '';
        this.reasoningWords = 0;
        this.reasoningInWord = false;
        this.reasoningStarted = this.now();
      }
    }
    if (kind === 'reasoning') {
      // Counted per delta: counting the whole reasoning again at each one made a long think
      // quadratic (20,000 deltas took 52 s of the terminal's thread).
      this.lastReasoning += text;
      const words = countWords(text);
      this.reasoningWords += words > 0 && this.reasoningInWord && /^\S/.test(text) ? words - 1 : words;
      if (text !== '') this.reasoningInWord = /\S$/.test(text);
      if (this.collapsed()) return;
    }
    const clean = sanitize(text);
    const width = this.columns();
    if (clean.includes('\n')) {
      const parts = (this.partial + clean).split('\n');
      this.partial = parts.pop()!;
      this.partialWaits = false;
      for (const line of parts) this.line(line, width);
    } else {
      // Appended, not re-split: a line that waits whole (minified JSON in a code block) can be long.
      this.partial += clean;
    }
    if (this.kind === 'text') {
      if (this.partialWaits) return;
      // Commit full rows of an unfinished prose line so it stays one row tall.
      let room: number | undefined;
      while ((room = this.markdown.streamable(this.partial, width)) !== undefined && textWidth(this.partial) > room) {
        const [row, rest] = splitRow(this.partial, room);
        this.commit(...this.markdown.pushRow(row, width));
        this.partial = rest;
      }
      // Whether it waits is known from the line's start (a fence, a table's pipe, held lines) and
      // holds until its newline, so it is not asked again per delta.
      if (room === undefined && /\S/.test(this.partial)) this.partialWaits = true;
      return;
    }
    while (textWidth(this.partial) > width - 1) {
      const [row, rest] = splitRow(this.partial, width - 1);
      this.commit(this.style.dim(row));
      this.partial = rest;
    }
  }

  /** Finishes the current segment: commits the unfinished line (or the folded reasoning note). */
  end(): void {
    if (this.kind === 'reasoning' && this.collapsed() && this.lastReasoning.trim() !== '') {
      const seconds = ((this.now() - this.reasoningStarted) / 1000).toFixed(1);
      this.commit(this.style.dim(`∴ thought for ${seconds}s (${this.reasoningWords} words; Ctrl+O shows reasoning)`));
    } else if (this.partial !== '') {
      this.line(this.partial, this.columns());
    }
    if (this.kind === 'text') this.flushMarkdown();
    if (this.kind === 'text' || (this.kind === 'reasoning' && !this.collapsed() && this.lastReasoning.trim() !== '')) this.commit('');
    this.partial = '';
    this.partialWaits = false;
    this.kind = undefined;
  }

  get active(): StreamKind | undefined {
    return this.kind;
  }

  /** The live area's part: the unfinished line, after the finished lines held back (a table that may go on). */
  liveLines(): string[] {
    if (this.kind === 'reasoning' && this.collapsed()) return [this.style.dim(`∴ thinking… ${this.reasoningWords} words (Ctrl+O shows reasoning)`)];
    if (this.kind === 'reasoning') return this.partial === '' ? [] : [this.style.dim(this.partial)];
    const held = this.kind === 'text' ? this.markdown.pending() : [];
    return [...held, ...(this.partial === '' ? [] : [this.partial])];
  }

  private flushMarkdown(): void {
    const later = this.reserve ? this.markdown.defer(this.columns()) : undefined;
    if (!later) return this.commit(...this.markdown.flush(this.columns()));
    const fill = this.reserve!(later.written);
    later.rows.then(fill, () => fill(later.written));
  }

  private line(line: string, width: number): void {
    if (this.kind === 'text') this.commit(...this.markdown.push(line, width));
    else for (const row of wrapLine(line, width)) this.commit(this.style.dim(row));
  }
}

/** Model text may not move the cursor or recolour the terminal: drop escapes and control bytes. */
export function sanitize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/\x1b\[[0-9;?]*[ -\/]*[@-~]/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

function countWords(text: string): number {
  const match = text.match(/\S+/g);
  return match ? match.length : 0;
}
