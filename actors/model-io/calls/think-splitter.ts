/**
 * Splits `<think>…</think>` at the start of the content into the reasoning channel (models served
 * without a reasoning parser print their thoughts that way). Only a block that opens the message
 * counts, so a `<think>` inside later text or a tool argument stays text. A bare `</think>` (the
 * template opened the block in the prompt: DeepSeek V3.2/V4, Qwen3 thinking) is markup too: the
 * first one, when no `<think>` came before it, is dropped. Partial tags are held back and blank
 * lines around the tags dropped, so pieces of any size give the same result.
 */
export interface Piece {
  channel: 'text' | 'reasoning';
  text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

export class ThinkSplitter {
  private state: 'start' | 'thinking' | 'text' = 'start';
  private buffer = '';
  /** Leading whitespace of the current channel is still being dropped. */
  private trimming = false;
  /** A bare `</think>` may still come (none yet, no `<think>` in the text so far). */
  private bareClose = true;
  /**
   * Before the reply's first character: the white space it opened with, kept out of the buffer so
   * each delta trims only itself (a reply opening with 100,000 newline deltas took 32 s).
   */
  private leading = '';

  push(text: string): Piece[] {
    this.buffer += text;
    return this.run(false);
  }

  end(): Piece[] {
    return this.run(true);
  }

  private emit(out: Piece[], channel: Piece['channel'], text: string): void {
    if (this.trimming) {
      text = text.trimStart();
      if (text) this.trimming = false;
    }
    if (text) out.push({ channel, text });
  }

  private run(final: boolean): Piece[] {
    const out: Piece[] = [];
    if (this.state === 'start') {
      const rest = this.buffer.trimStart();
      this.leading += this.buffer.slice(0, this.buffer.length - rest.length);
      this.buffer = rest;
      if (rest.startsWith(OPEN)) {
        this.state = 'thinking';
        this.trimming = true;
        this.bareClose = false;
        this.buffer = rest.slice(OPEN.length);
        this.leading = '';
      } else if (!final && (OPEN.startsWith(rest) || CLOSE.startsWith(rest))) {
        return out; // blank so far, or a partial `<think>`
      } else {
        this.state = 'text';
        this.buffer = this.leading + rest;
        this.leading = '';
      }
    }
    if (this.state === 'thinking') {
      const close = this.buffer.indexOf(CLOSE);
      if (close === -1) {
        let keep = 0;
        if (!final) {
          for (let k = Math.min(CLOSE.length - 1, this.buffer.length); k > 0; k--) {
            if (CLOSE.startsWith(this.buffer.slice(-k))) {
              keep = k;
              break;
            }
          }
        }
        this.emit(out, 'reasoning', this.buffer.slice(0, this.buffer.length - keep));
        this.buffer = this.buffer.slice(this.buffer.length - keep);
        return out;
      }
      this.emit(out, 'reasoning', this.buffer.slice(0, close));
      this.buffer = this.buffer.slice(close + CLOSE.length);
      this.state = 'text';
      this.trimming = true;
    }
    let text = this.buffer;
    this.buffer = '';
    if (this.bareClose && text.includes('<')) {
      const close = text.indexOf(CLOSE);
      const open = text.indexOf(OPEN);
      if (open !== -1 && (close === -1 || open < close)) {
        this.bareClose = false;
      } else if (close !== -1) {
        this.bareClose = false;
        this.emit(out, 'text', text.slice(0, close));
        this.trimming = true;
        text = text.slice(close + CLOSE.length);
      } else if (!final) {
        // A tag may be arriving: hold its beginning (either tag, so a `<think>` is seen whole).
        const lt = text.lastIndexOf('<');
        if (lt !== -1 && lt > text.length - CLOSE.length) {
          const tail = text.slice(lt);
          if (CLOSE.startsWith(tail) || OPEN.startsWith(tail)) {
            this.buffer = tail;
            text = text.slice(0, lt);
          }
        }
      }
    }
    this.emit(out, 'text', text);
    return out;
  }
}
