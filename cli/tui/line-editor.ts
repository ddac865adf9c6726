import { PastedTexts, type Span } from './pasted-texts.js';

/**
 * The prompt's text and cursor, with the editing operations the keys map to. Pure state, no
 * terminal: the renderer draws it. Text may hold several lines (`\n`); Ctrl+A/Ctrl+E work on the
 * cursor's line. History is newest last; earlier runs' come in through {@link LineEditor.load}.
 * A long paste stands in the text as one token (`pasted-texts.ts`): the cursor steps over it and
 * Backspace, Delete, Ctrl+W and Ctrl+U delete it whole; {@link LineEditor.expand} gives the text
 * with every token replaced by what it stands for.
 */
export class LineEditor {
  text = '';
  /** UTF-16 index into `text`; never inside a surrogate pair. */
  cursor = 0;
  private readonly history: string[] = [];
  /** Position while browsing history; `history.length` means the draft. */
  private browsing = 0;
  private draft = '';
  /** Ctrl+R: the query, the history entry it matched (or -1), and the text from before the search. */
  private searching: { query: string; at: number; before: string } | undefined;
  private readonly pasted = new PastedTexts();

  constructor(private readonly historyLimit = 500) {}

  get empty(): boolean {
    return this.text === '';
  }

  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
    this.browsing = this.history.length;
  }

  /**
   * A bracketed paste: a long one goes in as a token (see {@link PastedTexts}), unless the same text
   * is collapsed in the prompt already, whose token is then expanded in place (pasting it twice
   * shows it, as other agents' prompts do). Says which happened.
   */
  paste(text: string): { collapsed: string } | 'expanded' | undefined {
    if (!PastedTexts.long(text)) {
      this.insert(text);
      return undefined;
    }
    const twice = this.pasted.tokenFor(text, this.text);
    if (twice) {
      this.replace(twice, text);
      return 'expanded';
    }
    const token = this.pasted.collapse(text);
    this.insert(token);
    return { collapsed: token };
  }

  /** Expands the paste token at (or just before) the cursor into its text; false when there is none. */
  expandPaste(): boolean {
    const span = this.token((s) => s.start < this.cursor && this.cursor <= s.end) ?? this.token((s) => s.start <= this.cursor && this.cursor < s.end);
    if (!span) return false;
    this.replace(span, this.pasted.text(this.text.slice(span.start, span.end))!);
    return true;
  }

  /** `text` (the editor's, by default) with each paste token replaced by the text it stands for. */
  expand(text = this.text): string {
    return this.pasted.expand(text);
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const span = this.token((s) => s.start < this.cursor && this.cursor <= s.end);
    const start = span ? span.start : previousBoundary(this.text, this.cursor);
    this.text = this.text.slice(0, start) + this.text.slice(span ? span.end : this.cursor);
    this.cursor = start;
  }

  deleteForward(): void {
    if (this.cursor >= this.text.length) return;
    const span = this.token((s) => s.start <= this.cursor && this.cursor < s.end);
    if (span) {
      this.text = this.text.slice(0, span.start) + this.text.slice(span.end);
      this.cursor = span.start;
      return;
    }
    this.text = this.text.slice(0, this.cursor) + this.text.slice(nextBoundary(this.text, this.cursor));
  }

  left(): void {
    if (this.cursor === 0) return;
    this.cursor = this.token((s) => s.start < this.cursor && this.cursor <= s.end)?.start ?? previousBoundary(this.text, this.cursor);
  }

  right(): void {
    if (this.cursor >= this.text.length) return;
    this.cursor = this.token((s) => s.start <= this.cursor && this.cursor < s.end)?.end ?? nextBoundary(this.text, this.cursor);
  }

  /** Ctrl+A: start of the cursor's line. */
  lineStart(): void {
    this.cursor = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
  }

  /** Ctrl+E: end of the cursor's line. */
  lineEnd(): void {
    const end = this.text.indexOf('\n', this.cursor);
    this.cursor = end < 0 ? this.text.length : end;
  }

  wordLeft(): void {
    this.cursor = this.wordStart();
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && /\s/.test(this.text[i]!)) i++;
    while (i < this.text.length && !/\s/.test(this.text[i]!)) i++;
    this.cursor = this.token((s) => s.start < i && i < s.end)?.end ?? i;
  }

  /** Ctrl+W: deletes the word before the cursor (and the spaces after it); a paste token is one word. */
  deleteWordBack(): void {
    const start = this.wordStart();
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  /** Ctrl+U: deletes from the start of the line to the cursor (all of a paste token it is in). */
  deleteToLineStart(): void {
    this.cursor = this.token((s) => s.start < this.cursor && this.cursor < s.end)?.end ?? this.cursor;
    const start = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
    const from = start === this.cursor && start > 0 ? start - 1 : start;
    this.text = this.text.slice(0, from) + this.text.slice(this.cursor);
    this.cursor = from;
  }

  /** Ctrl+K: deletes from the cursor to the end of the line (all of a paste token it is in). */
  deleteToLineEnd(): void {
    this.cursor = this.token((s) => s.start < this.cursor && this.cursor < s.end)?.start ?? this.cursor;
    const end = this.text.indexOf('\n', this.cursor);
    const to = end < 0 ? this.text.length : end === this.cursor ? end + 1 : end;
    this.text = this.text.slice(0, this.cursor) + this.text.slice(to);
  }

  /** ↑: moves up a line inside multi-line text, else recalls older history. */
  up(): void {
    const lineStart = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
    if (lineStart > 0) {
      const column = this.cursor - lineStart;
      const previousStart = this.text.lastIndexOf('\n', lineStart - 2) + 1;
      this.cursor = Math.min(previousStart + column, lineStart - 1);
      this.outOfToken();
      return;
    }
    if (this.browsing === 0) return;
    if (this.browsing === this.history.length) this.draft = this.text;
    this.browsing--;
    this.recall();
  }

  /** ↓: moves down a line inside multi-line text, else recalls newer history (then the draft). */
  down(): void {
    const lineEnd = this.text.indexOf('\n', this.cursor);
    if (lineEnd >= 0) {
      const column = this.cursor - (this.text.lastIndexOf('\n', this.cursor - 1) + 1);
      const nextEnd = this.text.indexOf('\n', lineEnd + 1);
      this.cursor = Math.min(lineEnd + 1 + column, nextEnd < 0 ? this.text.length : nextEnd);
      this.outOfToken();
      return;
    }
    if (this.browsing >= this.history.length) return;
    this.browsing++;
    this.recall();
  }

  /**
   * Enter: returns the text to submit and clears the editor, or undefined when the line ends in
   * a `\` (which becomes a line break instead).
   */
  submit(): string | undefined {
    if (this.cursor === this.text.length && this.text.endsWith('\\')) {
      this.text = `${this.text.slice(0, -1)}\n`;
      this.cursor = this.text.length;
      return undefined;
    }
    const text = this.text;
    this.remember(text);
    this.text = '';
    this.cursor = 0;
    return text;
  }

  /** Takes the history of earlier runs (oldest first), before anything typed in this one. */
  load(entries: readonly string[]): void {
    this.history.unshift(...entries.slice(-this.historyLimit));
    if (this.history.length > this.historyLimit) this.history.splice(0, this.history.length - this.historyLimit);
    this.browsing = this.history.length;
  }

  /** Adds an entry to history (not blank, not a repeat of the newest). */
  remember(text: string): void {
    if (text.trim() !== '' && this.history[this.history.length - 1] !== text) {
      this.history.push(text);
      if (this.history.length > this.historyLimit) this.history.shift();
    }
    this.browsing = this.history.length;
    this.draft = '';
  }

  clear(): void {
    this.text = '';
    this.cursor = 0;
    this.browsing = this.history.length;
  }

  /** The word under/before the cursor (no spaces), with where it starts. */
  wordAtCursor(): { word: string; start: number } {
    let start = this.cursor;
    while (start > 0 && !/\s/.test(this.text[start - 1]!)) start--;
    return { word: this.text.slice(start, this.cursor), start };
  }

  /** Replaces `text[start, cursor)` with `replacement`. */
  replaceBeforeCursor(start: number, replacement: string): void {
    this.text = this.text.slice(0, start) + replacement + this.text.slice(this.cursor);
    this.cursor = start + replacement.length;
  }

  /** The search under way (Ctrl+R), if any: its query and whether it matches an entry. */
  get search(): { query: string; found: boolean } | undefined {
    return this.searching ? { query: this.searching.query, found: this.searching.at >= 0 } : undefined;
  }

  /** Ctrl+R: starts searching the history backwards, or goes on to the next older match. */
  searchOlder(): void {
    if (!this.searching) {
      this.searching = { query: '', at: -1, before: this.text };
      return;
    }
    if (this.searching.query !== '') this.findFrom(this.searching.at - 1);
  }

  /** A character typed while searching: the newest entry holding the longer query is shown. */
  searchType(text: string): void {
    if (!this.searching) return;
    this.searching.query += text;
    this.findFrom(this.searching.at >= 0 ? this.searching.at : this.history.length - 1);
  }

  searchBackspace(): void {
    if (!this.searching) return;
    this.searching.query = this.searching.query.slice(0, -1);
    this.findFrom(this.history.length - 1);
  }

  /** Ends the search: the match stays in the editor (`accept`), or the text from before comes back. */
  searchEnd(accept: boolean): void {
    const searching = this.searching;
    if (!searching) return;
    this.searching = undefined;
    if (!accept || searching.at < 0) this.set(searching.before);
    this.browsing = accept && searching.at >= 0 ? searching.at : this.history.length;
  }

  private findFrom(start: number): void {
    const searching = this.searching!;
    const query = searching.query;
    if (query === '') {
      searching.at = -1;
      this.set(searching.before);
      return;
    }
    for (let i = Math.min(start, this.history.length - 1); i >= 0; i--) {
      if (!this.history[i]!.includes(query)) continue;
      searching.at = i;
      this.set(this.history[i]!, this.history[i]!.indexOf(query));
      return;
    }
    // No older match: the last one found stays (as readline does).
    if (searching.at < 0 || !this.history[searching.at]!.includes(query)) {
      searching.at = -1;
      this.set(searching.before);
    }
  }

  /** The paste token in the text that `where` picks, if any. */
  private token(where: (span: Span) => boolean): Span | undefined {
    return this.pasted.spans(this.text).find(where);
  }

  /** Moves a cursor that landed inside a paste token to its end. */
  private outOfToken(): void {
    this.cursor = this.token((s) => s.start < this.cursor && this.cursor < s.end)?.end ?? this.cursor;
  }

  private replace(span: Span, text: string): void {
    this.text = this.text.slice(0, span.start) + text + this.text.slice(span.end);
    this.cursor = span.start + text.length;
    this.browsing = this.history.length;
  }

  /** Where the word before the cursor starts (a paste token counts as one word). */
  private wordStart(): number {
    let i = this.cursor;
    while (i > 0 && /\s/.test(this.text[i - 1]!)) i--;
    const span = this.token((s) => s.start < i && i <= s.end);
    return span ? span.start : wordStart(this.text, this.cursor);
  }

  private recall(): void {
    this.text = this.browsing === this.history.length ? this.draft : this.history[this.browsing]!;
    this.cursor = this.text.length;
  }
}

function previousBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1;
}

function nextBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 2 <= text.length ? index + 2 : index + 1;
}

function wordStart(text: string, index: number): number {
  let i = index;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return i;
}
