import type { AgentEvent } from '../../actors/agent/events.js';

/**
 * Text the plain `reika -p` holds per reply before it starts streaming it. The answer is the text
 * of the reply that calls no tool; a short preamble before a tool call ("Let me read it.") is not
 * part of it, and whether a reply calls a tool is known only once the call starts. Preambles are
 * short, answers long: past this much text a reply is taken for the answer and streams.
 */
export const HOLD_CHARS = 240;

/**
 * The answer on stdout as it arrives, for plain `reika -p`: exactly the final reply's text and one
 * newline, nothing else, so `reika -p … | less` and `> file` work. Call markup never gets here
 * (model-io holds it back until it parses). Trailing white space is held until more text follows,
 * so the output ends in exactly one newline. An interrupted run prints what it had.
 */
export class AnswerStream {
  /** The current reply's text not yet written. */
  private held = '';
  /** True once the current reply's text started going out. */
  private streaming = false;
  /** True once anything went to stdout. */
  private wrote = false;

  constructor(private readonly write: (text: string) => void) {}

  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'request':
      case 'retry':
        // A new request (after tool results, a nudge or a failed attempt): the text held was not the answer.
        this.newReply();
        break;
      case 'tool-call':
        if (event.state.status === 'pending') this.newReply();
        break;
      case 'text-delta':
        this.held += event.text;
        // White space alone writes nothing now (it is held until text follows); flushing it would
        // trim the whole held run again per delta: a model stuck on newlines made that quadratic.
        if (/\S/.test(event.text) && (this.streaming || this.held.length >= HOLD_CHARS)) this.flush();
        break;
      default:
        break;
    }
  }

  /**
   * The turn ended: writes what is held of the last reply (all of it when `partial`, e.g. after an
   * interrupt), then the final newline. Returns true when anything was written.
   */
  finish(options: { answered: boolean; partial: boolean }): boolean {
    if (options.answered || options.partial) {
      this.streaming = true;
      this.flush();
    }
    if (this.wrote) this.write('\n');
    return this.wrote;
  }

  private newReply(): void {
    // Text already streamed stays (a long preamble before a call is rare); only unwritten text goes.
    if (this.streaming && this.wrote) this.pendingBreak = true;
    this.held = '';
    this.streaming = false;
  }

  private pendingBreak = false;

  private flush(): void {
    this.streaming = true;
    const body = this.held.trimEnd();
    if (body === '') return;
    if (this.pendingBreak) {
      this.write('\n\n');
      this.pendingBreak = false;
    }
    this.write(body);
    this.wrote = true;
    this.held = this.held.slice(body.length);
  }
}
