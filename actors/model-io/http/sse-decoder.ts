/** One decoded event. */
export interface SseEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/**
 * Server-sent events decoding that survives any chunking: lines split anywhere (even inside a
 * UTF-8 character), `\n`, `\r\n` or `\r` endings, comments and keep-alives, multi-line `data:`.
 * Only what the chat stream needs is kept: each event's `data` (and its `event` name, if any);
 * llama.cpp's non-standard `error:` line becomes an `error` event.
 */
export class SseDecoder {
  /**
   * The bytes of a line still waiting for its break. Lines are found in the bytes (a line break is
   * never part of a UTF-8 character) and each is decoded once when it ends, so a 10 MB event
   * arriving in 64 KB chunks costs what the same bytes cost as many small events: linear in the
   * event's size, one copy, not one scan (and one flattened string) per chunk.
   */
  private partial: Buffer[] = [];
  /** The previous chunk ended in `\r`: a `\n` starting the next chunk belongs to that break. */
  private pendingCr = false;
  /** No line decoded yet: a leading byte-order mark is dropped. */
  private first = true;
  private data: string[] = [];
  private eventName = '';

  /** Decodes one chunk of bytes (or text) and returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = this.pendingCr && bytes[0] === 10 ? 1 : 0;
    this.pendingCr = false;
    const n = bytes.length;
    if (start >= n) return [];
    const events: SseEvent[] = [];
    // The next \n and \r at or after `start`, found by native searches (-1: none left).
    let lf = bytes.indexOf(10, start);
    let cr = bytes.indexOf(13, start);
    while (lf !== -1 || cr !== -1) {
      const at = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (this.partial.length === 0) {
        this.line(bytes.subarray(start, at), events);
      } else {
        this.partial.push(bytes.subarray(start, at));
        const line = Buffer.concat(this.partial);
        this.partial = [];
        this.line(line, events);
      }
      let next = at + 1;
      if (at === cr) {
        if (next < n) {
          if (bytes[next] === 10) next++;
        } else {
          this.pendingCr = true;
        }
      }
      start = next;
      if (lf !== -1 && lf < start) lf = bytes.indexOf(10, start);
      if (cr !== -1 && cr < start) cr = bytes.indexOf(13, start);
    }
    if (start < n) this.partial.push(bytes.subarray(start));
    return events;
  }

  /** Call at the end of the stream: a last event without its blank line still counts. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const rest = Buffer.concat(this.partial);
    this.partial = [];
    if (rest.length) this.line(rest, events);
    this.line(Buffer.alloc(0), events);
    return events;
  }

  private line(raw: Buffer, events: SseEvent[]): void {
    let line = raw;
    if (this.first && line.length > 0) {
      this.first = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (line.length === 0) {
      if (this.data.length) events.push({ event: this.eventName || 'message', data: this.data.length === 1 ? this.data[0]! : this.data.join('\n') });
      this.data = [];
      this.eventName = '';
      return;
    }
    if (line[0] === 58 /* : */) return; // comment / keep-alive
    const colon = line.indexOf(58);
    const field = line.toString('latin1', 0, colon === -1 ? line.length : colon);
    if (field !== 'data' && field !== 'event' && field !== 'error') return;
    let from = colon === -1 ? line.length : colon + 1;
    if (line[from] === 32) from++;
    const value = line.toString('utf8', from);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    else {
      // llama.cpp reports a failure mid-stream as an `error: {json}` line.
      this.data.push(value);
      this.eventName = 'error';
    }
  }
}
