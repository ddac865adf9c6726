/**
 * Server-sent events decoding that survives any chunking: lines split anywhere (even inside a
 * UTF-8 character), `\n`, `\r\n` or `\r` endings, comments and keep-alives, multi-line `data:`.
 * Only what the chat stream needs is kept: each event's `data` (and its `event` name, if any);
 * llama.cpp's non-standard `error:` line becomes an `error` event.
 */

/** One decoded event. */
export interface SseEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  /** Text after the last line break, waiting for the rest of its line. */
  private partial = '';
  /** The previous chunk ended in `\r`: a `\n` starting the next chunk belongs to that break. */
  private pendingCr = false;
  private data: string[] = [];
  private eventName = '';

  /** Decodes one chunk of bytes (or text) and returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.utf8.decode(chunk, { stream: true });
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    if (text.length === 0) return [];
    const events: SseEvent[] = [];
    let start = 0;
    const all = this.partial.length ? this.partial + text : text;
    this.partial = '';
    const n = all.length;
    for (let i = 0; i < n; i++) {
      const c = all.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(all.slice(start, i), events);
      if (c === 13) {
        if (i + 1 < n) {
          if (all.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    if (start < n) this.partial = all.slice(start);
    return events;
  }

  /** Call at the end of the stream: a last event without its blank line still counts. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const tail = this.utf8.decode();
    const rest = this.partial + tail;
    this.partial = '';
    if (rest.length) this.line(rest, events);
    this.line('', events);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line.length === 0) {
      if (this.data.length) events.push({ event: this.eventName || 'message', data: this.data.join('\n') });
      this.data = [];
      this.eventName = '';
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    else if (field === 'error') {
      // llama.cpp reports a failure mid-stream as an `error: {json}` line.
      this.data.push(value);
      this.eventName = 'error';
    }
  }
}
