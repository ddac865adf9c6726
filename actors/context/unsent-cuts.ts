import { tokensOf, type ContextParts } from './context-parts.js';
import { weightOf, type Conversation, type Entry } from './conversation.js';
import { shrinkArguments } from './huge-arguments.js';
import { cutPayload, type ToolEntry } from './tool-entry.js';
import type { MessageEntry } from './conversation.js';

// What a request may still change for free: what was never sent. A new payload too large for the
// window is cut (head and tail kept, a marker between), and as a last resort the huge arguments of
// unsent calls are replaced by their size and hash, then the model's own text of an unsent reply
// is cut like a payload; the prefix cache loses nothing either way.

/**
 * A new payload takes at most this share of the history budget (the threshold less the system
 * prompt and tools); the rest is cut, the marker saying which lines and how to read them. Through
 * a real llama-server at 16k the budget is ~10k tokens beside a 4.3–5k system prompt,
 * and the old cap (15% of the threshold, ~2.1k tokens) let 7–9 large outputs make half of a
 * session's growth: 5–6 compaction events in 80 rounds where 4 is the aim. At 0.11 an output keeps
 * ~1.1k tokens at 16k (65–75 lines of code), ~11k in a 128k window.
 */
export const NEW_PAYLOAD_SHARE = 0.11;
/**
 * When an event cannot bring a request under the threshold (the task and the active round are
 * protected), the unsent parts are cut to this share of it: the reserve is only the floor when the
 * replies are short, and the model's next message in the same round (the answer after a cut reply)
 * must still fit with the floor.
 */
export const UNSENT_CUT_TO = 0.95;
/** With the window unknown, a single payload is still cut past this many characters. */
export const UNKNOWN_WINDOW_PAYLOAD_CAP = 200_000;
/** A cut payload keeps at least this many characters. */
const MIN_KEEP = 400;

/**
 * New payloads that weigh more than `cap` characters of the estimate are cut (a 200 KB output must
 * not fill a small window alone); digits and non-ASCII weigh more than one (see `weightOf`).
 */
export function capUnsent(conversation: Conversation, cap: number): number {
  let cut = 0;
  for (const entry of conversation.entries) {
    if (entry.kind !== 'tool' || entry.sent || entry.shed || entry.payload.length <= MIN_KEEP) continue;
    // What the cut keeps is mostly the head: its weight is the one that counts.
    const weight = weightOf(entry.payload, 2 * cap);
    const limit = Math.max(MIN_KEEP, Math.floor(cap / weight));
    if (entry.payload.length <= limit) continue;
    cut += cutPayload(entry, limit);
    conversation.touch(entry);
  }
  return cut;
}

/** Cuts payloads never sent yet (largest first) until the estimate fits under `limit`. */
export function cutUnsent(parts: ContextParts, limit: number): number {
  let cut = 0;
  // The marker adds a little text, so a second pass may be needed; each pass only shrinks.
  for (let pass = 0; pass < 3 && tokensOf(parts) > limit; pass++) {
    let excess = parts.estimate.chars(tokensOf(parts) - limit) + 256;
    const unsent = parts.conversation.entries
      .filter((entry): entry is Entry & ToolEntry => entry.kind === 'tool' && !entry.sent && !entry.shed && entry.payload.length > MIN_KEEP)
      .sort((a, b) => b.payload.length - a.payload.length);
    for (const entry of unsent) {
      if (excess <= 0) break;
      const removed = cutPayload(entry, Math.max(MIN_KEEP, entry.payload.length - excess));
      parts.conversation.touch(entry);
      excess -= removed;
      cut += removed;
    }
  }
  return cut;
}

/** Replaces huge arguments of the unsent call `callId` by their size and hash. */
export function shrinkCall(conversation: Conversation, callId: string): void {
  const entries = conversation.entries;
  for (let i = entries.length - 1; i > 0; i--) {
    const entry = entries[i]!;
    if (entry.kind !== 'message' || entry.message.role !== 'assistant' || !entry.message.tool_calls) continue;
    if (entry.sent) return;
    const calls = entry.message.tool_calls;
    const at = calls.findIndex((call) => call.id === callId);
    if (at === -1) continue;
    const shrunk = shrinkArguments(calls[at]!);
    if (shrunk) {
      entry.message = { ...entry.message, tool_calls: calls.map((call, j) => (j === at ? shrunk : call)) };
      conversation.touch(entry);
    }
    return;
  }
}

/** The last resort before giving up on a request: huge arguments of unsent calls shrunk too. */
export function shrinkUnsentCalls(conversation: Conversation): void {
  for (const entry of conversation.entries) {
    if (entry.sent || entry.kind !== 'message' || entry.message.role !== 'assistant') continue;
    for (const call of entry.message.tool_calls ?? []) shrinkCall(conversation, call.id);
  }
}

/** Says the model's own reply was cut by reika for context. */
export function replyCutMarker(removed: number): string {
  return `[… ${removed.toLocaleString('en-US')} characters of this reply cut here by reika to fit the context window]`;
}

/**
 * The very last resort: the text of unsent assistant messages (a 10 MB reply beside its call),
 * longest first, cut until the estimate fits under `limit` (three quarters of what is kept from the
 * head, the rest from the tail). Returns the characters removed.
 */
export function cutUnsentText(parts: ContextParts, limit: number): number {
  let cut = 0;
  for (let pass = 0; pass < 3 && tokensOf(parts) > limit; pass++) {
    let excess = parts.estimate.chars(tokensOf(parts) - limit) + 256;
    const unsent = parts.conversation.entries
      .filter((entry): entry is Entry & MessageEntry => entry.kind === 'message' && !entry.sent && entry.message.role === 'assistant' && typeof entry.message.content === 'string' && entry.message.content.length > MIN_KEEP)
      .sort((a, b) => (b.message.content as string).length - (a.message.content as string).length);
    for (const entry of unsent) {
      if (excess <= 0) break;
      const text = entry.message.content as string;
      // A character may weigh more than one in the estimate (escapes, non-ASCII count 4): its mean weight here.
      const weight = Math.max(1, parts.conversation.render(entry).size / text.length);
      const keep = Math.max(MIN_KEEP, text.length - Math.ceil(excess / weight));
      const head = Math.floor(keep * 0.75);
      const removed = text.length - keep;
      entry.message = { ...entry.message, content: `${text.slice(0, head)}\n${replyCutMarker(removed)}\n${text.slice(text.length - (keep - head))}` } as typeof entry.message;
      parts.conversation.touch(entry);
      excess -= removed * weight;
      cut += removed;
    }
  }
  return cut;
}
