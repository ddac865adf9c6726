import type { ChatMessage } from '../model-io/protocol.js';

/**
 * The one recap message a compaction leaves where it folded whole rounds away (SPEC §5): one line
 * per folded call (`name args → summary`), per earlier request of the user and per answer, oldest
 * first, kept within a budget by dropping the oldest lines.
 *
 * It is deterministic, built from what reika already holds (the calls, their one-line summaries,
 * the model's own words beside its calls), not written by the model. A model-written note would
 * cost one more request at the fullest point of the window (prefill is cached, but the note is
 * generated at a local engine's 10–50 tokens/s, i.e. 10–60 s per event, and fails or is cut like
 * any reply), for facts the summaries mostly carry already; the model's own text beside its calls
 * is kept, which is where it writes down what it found.
 */

/** One line of the recap, tagged with the turn it came from (so it renders before or after a prompt). */
export interface RecapLine {
  turn: number;
  text: string;
}

/** A recap line's longest quote of a message (the user's request, an answer, the model's note). */
const QUOTE_CHARS = 240;
/** A string argument longer than this is shortened in a call's line. */
const ARG_CHARS = 80;

export class Recap {
  private lines: RecapLine[] = [];
  private chars = 0;
  /** Lines dropped (oldest first) to stay within the budget. */
  private omitted = 0;
  /** Tool rounds folded into this recap so far. */
  rounds = 0;

  clone(): Recap {
    const copy = new Recap();
    copy.lines = [...this.lines];
    copy.chars = this.chars;
    copy.omitted = this.omitted;
    copy.rounds = this.rounds;
    return copy;
  }

  get empty(): boolean {
    return this.lines.length === 0 && this.omitted === 0;
  }

  add(line: RecapLine): void {
    this.lines.push(line);
    this.chars += line.text.length + 1;
  }

  /** Drops the oldest lines until the lines take at most `budget` characters. */
  fit(budget: number): void {
    let drop = 0;
    while (drop < this.lines.length - 1 && this.chars > budget) this.chars -= this.lines[drop++]!.text.length + 1;
    if (drop === 0) return;
    this.lines = this.lines.slice(drop);
    this.omitted += drop;
  }

  /**
   * The recap as text around the message of turn `hostTurn` that carries it: lines of earlier
   * turns go before that message's own content, lines of its own turn after it. A recap on its own
   * (`hostTurn` undefined) is all "before".
   */
  blocks(hostTurn: number | undefined): { before: string; after: string } {
    const earlier = this.lines.filter((line) => hostTurn === undefined || line.turn < hostTurn);
    const own = hostTurn === undefined ? [] : this.lines.filter((line) => line.turn >= hostTurn);
    // The note about dropped lines goes in the first block shown.
    const omittedBefore = this.omitted > 0 && (earlier.length > 0 || own.length === 0);
    const omitted = (here: boolean) => (here && this.omitted > 0 ? `\n(… ${this.omitted} older line${this.omitted === 1 ? '' : 's'} of this recap dropped)` : '');
    const body = (lines: RecapLine[]) => lines.map((line) => `\n${line.text}`).join('');
    const before =
      earlier.length === 0 && !omittedBefore
        ? ''
        : `[Recap by reika: the start of this conversation was folded into these lines to fit the context window (oldest first; the outputs are gone, run a tool again if you need one)${omitted(omittedBefore)}${body(earlier)}\n]`;
    const after =
      own.length === 0
        ? ''
        : `[Recap by reika: ${this.rounds} earlier tool round${this.rounds === 1 ? '' : 's'} of this conversation were folded into these lines to fit the context window (oldest first; their outputs are gone, run a tool again if you need one)${omitted(!omittedBefore)}${body(own)}\n]`;
    return { before, after };
  }
}

/** The recap lines of one folded tool round: the model's own note, then one line per call. */
export function roundLines(turn: number, message: Extract<ChatMessage, { role: 'assistant' }>, summaries: ReadonlyMap<string, string>): RecapLine[] {
  const lines: RecapLine[] = [];
  const note = typeof message.content === 'string' ? message.content.trim() : '';
  if (note !== '') lines.push({ turn, text: `- you wrote: ${quote(note)}` });
  for (const call of message.tool_calls ?? []) {
    const summary = summaries.get(call.id) ?? '(no result)';
    lines.push({ turn, text: `- ${call.function.name} ${shortArguments(call.function.arguments)} → ${summary}` });
  }
  return lines;
}

/** A recap line for a message that is not a round: the user's request or the model's answer. */
export function messageLine(turn: number, who: 'user' | 'assistant', text: string): RecapLine | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return { turn, text: who === 'user' ? `- the user asked: ${quote(trimmed)}` : `- you answered: ${quote(trimmed)}` };
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return `"${line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS - 1)}…` : line}"`;
}

/** A call's JSON arguments with long strings shortened (`"…(12,345 chars)"`), for one line. */
export function shortArguments(json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return json.length > ARG_CHARS ? `${json.slice(0, ARG_CHARS)}…` : json;
  }
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' && v.length > ARG_CHARS ? `${v.slice(0, ARG_CHARS - 20)}…(${v.length.toLocaleString('en-US')} chars)` : v,
  );
  return text.length > 4 * ARG_CHARS ? `${text.slice(0, 4 * ARG_CHARS)}…` : text;
}
