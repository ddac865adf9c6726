import { textWidth, wrapLine } from './text-width.js';

/** Where the screen writes: a TTY stream, or a fake with the same three members in tests. */
export interface TerminalOutput {
  write(data: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
}

/** What sits at the bottom of the screen and is redrawn in place. */
export interface LiveArea {
  lines: string[];
  /** The terminal cursor goes here: a line of `lines` and a cell within it. */
  cursor?: { line: number; column: number };
}

/**
 * Inline rendering without the alternate screen: finished output scrolls up into the terminal's
 * own scrollback (so copy, search and scrollback keep working), while a small live area at the
 * bottom — the streaming line, spinner, prompt and status line — is redrawn in place.
 *
 * Every frame is one `write`: move to the top of the live area, clear below, print the committed
 * lines, then the live area. A line whose width is an exact multiple of the terminal width gets
 * an explicit wrap, so each line of width w always takes ⌊w / columns⌋ + 1 rows and the cursor
 * arithmetic stays exact.
 */
/** A place kept in the transcript for lines that are not ready yet; `fallback` if it must be drawn before. */
interface Reserved {
  lines?: string[];
  fallback: string[];
}

export class Screen {
  private committed: (string | Reserved)[] = [];
  /** Row of the terminal cursor within the live area drawn last. */
  private cursorRow = 0;
  private scheduled: NodeJS.Timeout | undefined;
  private disposed = false;
  private hidden = false;
  /** Widths of the live lines drawn last and where the cursor went, to redo the arithmetic on resize. */
  private last: { widths: number[]; cursor?: { line: number; column: number } } = { widths: [] };

  constructor(
    private readonly out: TerminalOutput,
    private readonly live: () => LiveArea,
    /** Coalescing delay for output-driven redraws (keys redraw at once). */
    private readonly frameMs = 16,
  ) {}

  get columns(): number {
    return Math.max(20, this.out.columns ?? 80);
  }

  get rows(): number {
    return Math.max(5, this.out.rows ?? 24);
  }

  /** Queues finished lines to print above the live area (each a full line, no `\n` needed). */
  commit(...lines: string[]): void {
    for (const line of lines) for (const part of line.split('\n')) this.committed.push(part);
    this.schedule();
  }

  /**
   * Keeps the next place in the transcript for lines that come later (code waiting for its
   * highlighter): what is committed after it waits behind it, so the order never changes. Call
   * the returned function once with the lines; `fallback` is printed if the screen closes first.
   */
  reserve(fallback: string[]): (lines: string[]) => void {
    const place: Reserved = { fallback };
    this.committed.push(place);
    return (lines) => {
      if (place.lines) return;
      place.lines = lines;
      this.schedule();
    };
  }

  /** The committed lines that can be printed now, in order (all of them when `all`). */
  private takeCommitted(all: boolean): string[] {
    let count = 0;
    const out: string[] = [];
    for (const entry of this.committed) {
      if (typeof entry === 'string') out.push(entry);
      else if (entry.lines || all) for (const line of entry.lines ?? entry.fallback) out.push(...line.split('\n'));
      else break;
      count++;
    }
    this.committed.splice(0, count);
    return out;
  }

  /** Commits plain text word-wrapped to the width, each row painted (so colour never spans a break). */
  note(text: string, paint: (row: string) => string = (row) => row): void {
    this.commit(...text.split('\n').flatMap((line) => wrapLine(line, this.columns)).map(paint));
  }

  /** Redraws soon (at most once per frame). */
  schedule(): void {
    if (this.scheduled || this.disposed || this.hidden) return;
    this.scheduled = setTimeout(() => this.render(), this.frameMs);
  }

  /** Redraws now. */
  render(): void {
    if (this.scheduled) {
      clearTimeout(this.scheduled);
      this.scheduled = undefined;
    }
    if (this.disposed || this.hidden) return;
    const columns = this.columns;
    let frame = '\x1b[?25l';
    frame += this.cursorRow > 0 ? `\x1b[${this.cursorRow}A\r\x1b[J` : '\r\x1b[J';
    for (const line of this.takeCommitted(false)) frame += `${line}\x1b[0m\r\n`;
    const area = this.fit(this.live());
    const rowsOf = area.lines.map((line) => Math.floor(textWidth(line) / columns) + 1);
    area.lines.forEach((line, i) => {
      if (i > 0) frame += '\r\n';
      frame += `${line}\x1b[0m`;
      const width = textWidth(line);
      if (width > 0 && width % columns === 0) frame += ' \r';
    });
    this.last = { widths: area.lines.map((line) => textWidth(line)), cursor: area.cursor && area.cursor.line < area.lines.length ? { ...area.cursor } : undefined };
    const lastRow = rowsOf.reduce((a, b) => a + b, 0) - 1;
    let row = lastRow;
    let column = 0;
    if (area.cursor && area.cursor.line < area.lines.length) {
      row = rowsOf.slice(0, area.cursor.line).reduce((a, b) => a + b, 0) + Math.floor(area.cursor.column / columns);
      column = area.cursor.column % columns;
      if (lastRow > row) frame += `\x1b[${lastRow - row}A`;
      frame += `\x1b[${column + 1}G\x1b[?25h`;
    }
    this.cursorRow = Math.max(0, row);
    this.out.write(frame);
  }

  /** Clears the live area and leaves the cursor at its top, for exit or handing over the terminal. */
  dispose(): void {
    if (this.disposed) return;
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    let frame = this.cursorRow > 0 ? `\x1b[${this.cursorRow}A\r\x1b[J` : '\r\x1b[J';
    for (const line of this.takeCommitted(true)) frame += `${line}\x1b[0m\r\n`;
    this.out.write(`${frame}\x1b[?25h`);
    this.disposed = true;
  }

  /** Clears the live area and stops drawing until {@link show} (the process is being suspended). */
  hide(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.out.write(`${this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : ''}\r\x1b[J\x1b[?25h`);
    this.cursorRow = 0;
    this.hidden = true;
  }

  /** Draws again after {@link hide}. */
  show(): void {
    this.hidden = false;
    this.render();
  }

  /**
   * The terminal changed size. Terminals today (tmux, VTE, kitty, iTerm2, Windows Terminal…)
   * re-wrap existing lines to the new width, so the cursor's row within the live area drawn last
   * is computed again at the new width before redrawing over it.
   */
  resize(): void {
    const columns = this.columns;
    const rows = (width: number) => Math.floor(width / columns) + 1;
    const { widths, cursor } = this.last;
    if (widths.length > 0) {
      this.cursorRow = cursor
        ? widths.slice(0, cursor.line).reduce((sum, width) => sum + rows(width), 0) + Math.floor(cursor.column / columns)
        : widths.reduce((sum, width) => sum + rows(width), 0) - 1;
    }
    this.render();
  }

  /** Forgets the live area's position (after the screen was cleared by Ctrl+L). */
  resetPosition(): void {
    this.cursorRow = 0;
  }

  /**
   * Drops lines from the top until the area fits the screen, keeping the cursor's line and at
   * least one line. Measured from the bottom up, so the work is the screen's height whatever the
   * area holds (a model's table of thousands of rows waits in it until the table ends).
   */
  private fit(area: LiveArea): LiveArea {
    const columns = this.columns;
    const max = this.rows - 1;
    const { lines } = area;
    let start = lines.length;
    for (let used = 0; start > 0; start--) {
      used += Math.floor(textWidth(lines[start - 1]!) / columns) + 1;
      if (used > max) break;
    }
    const drop = Math.min(start, lines.length - 1, area.cursor ? area.cursor.line : Infinity);
    if (drop <= 0) return area;
    return { lines: lines.slice(drop), ...(area.cursor ? { cursor: { ...area.cursor, line: area.cursor.line - drop } } : {}) };
  }
}
