import { MarkdownLines } from './markdown-line.js';
import type { Style } from './style.js';
import { splitRow, textWidth, wrapLine } from './text-width.js';

export type StreamKind = 'text' | 'reasoning';

/**
 * Turns streamed deltas into finished lines for the transcript plus one unfinished line for the
 * live area. Long lines are word-wrapped at the terminal width as they stream, so a paragraph
 * without line breaks never grows the live area past one row. Reasoning is dimmed, or folded into
 * a counter when collapsed.
 */
export class StreamText {
  private kind: StreamKind | undefined;
  private partial = '';
  private reasoningWords = 0;
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
  ) {
    this.markdown = new MarkdownLines(style);
  }

  write(kind: StreamKind, text: string): void {
    if (this.kind !== kind) {
      this.end();
      this.kind = kind;
      if (kind === 'text') this.markdown.reset();
      if (kind === 'reasoning') {
        this.lastReasoning = '';
        this.reasoningWords = 0;
        this.reasoningStarted = this.now();
      }
    }
    if (kind === 'reasoning') {
      this.lastReasoning += text;
      this.reasoningWords = countWords(this.lastReasoning);
      if (this.collapsed()) return;
    }
    const parts = (this.partial + sanitize(text)).split('\n');
    this.partial = parts.pop()!;
    for (const line of parts) for (const row of wrapLine(line, this.columns())) this.emit(row);
    // Commit full rows of the unfinished line so it stays one row tall.
    const width = this.columns();
    while (textWidth(this.partial) > width - 1) {
      const [row, rest] = splitRow(this.partial, width - 1);
      this.emit(row);
      this.partial = rest;
    }
  }

  /** Finishes the current segment: commits the unfinished line (or the folded reasoning note). */
  end(): void {
    if (this.kind === 'reasoning' && this.collapsed() && this.lastReasoning.trim() !== '') {
      const seconds = ((this.now() - this.reasoningStarted) / 1000).toFixed(1);
      this.commit(this.style.dim(`∴ thought for ${seconds}s (${this.reasoningWords} words; Ctrl+O shows reasoning)`));
    } else if (this.partial !== '') {
      this.emit(this.partial);
    }
    if (this.kind === 'text' || (this.kind === 'reasoning' && !this.collapsed() && this.lastReasoning.trim() !== '')) this.commit('');
    this.partial = '';
    this.kind = undefined;
  }

  get active(): StreamKind | undefined {
    return this.kind;
  }

  /** The unfinished line for the live area, if any. */
  liveLine(): string | undefined {
    if (this.kind === 'reasoning' && this.collapsed()) return this.style.dim(`∴ thinking… ${this.reasoningWords} words (Ctrl+O shows reasoning)`);
    if (this.partial === '') return undefined;
    return this.kind === 'reasoning' ? this.style.dim(this.partial) : this.partial;
  }

  private emit(line: string): void {
    this.commit(this.kind === 'reasoning' ? this.style.dim(line) : this.markdown.format(line));
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
