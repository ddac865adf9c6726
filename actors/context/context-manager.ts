import { historyCallId } from '../model-io/call-id.js';
import type { ChatMessage, ToolCall, ToolSchema, Usage } from '../model-io/protocol.js';
import { IMAGE_TOKENS } from '../images/image.js';
import { shedOrder } from './shed-order.js';
import { CHARS_PER_TOKEN, TokenEstimate } from './token-estimate.js';
import { cutPayload, renderToolEntry, type ToolEntry } from './tool-entry.js';

/**
 * The conversation as the model sees it, kept for the prefix cache (SPEC §5).
 *
 * Window known: every request is the previous one plus new messages, byte for byte, until the
 * estimate passes {@link COMPACT_AT} × (window − reserved generation); then ONE compaction event
 * sheds the oldest payloads (large before small, the active round protected) down to
 * {@link COMPACT_TO} of that threshold. Window unknown: only the newest group of tool results
 * carries payloads. Nudges ride in the newest tool result not yet sent (else a trailing user
 * message), never edits of messages already sent.
 */

/** Compaction starts when the estimate passes this share of (window − reserved generation). */
export const COMPACT_AT = 0.9;
/** …and sheds payloads until the estimate is below this share of that threshold. */
export const COMPACT_TO = 0.7;
/** Generation reserved when REIKA_MAX_TOKENS is not set: a quarter of the window, at most this. */
export const DEFAULT_RESERVE = 8_192;
/** max_tokens when REIKA_MAX_TOKENS is not set (still never more than what fits). */
export const DEFAULT_MAX_OUTPUT = 16_384;
/** With the window unknown, a single payload is still cut past this many characters. */
export const UNKNOWN_WINDOW_PAYLOAD_CAP = 200_000;
/** A cut payload keeps at least this many characters. */
const MIN_KEEP = 400;

export interface ContextOptions {
  /** The session's frozen system prompt. */
  system: string;
  /** The session's fixed tools array (counted in every estimate). */
  tools: readonly ToolSchema[];
  /** Context window in tokens; undefined when neither configured nor discovered. */
  window?: number;
  /** REIKA_MAX_TOKENS. */
  maxTokens?: number;
}

/** One compaction event: what it shed and the estimate before and after. */
export interface Compaction {
  reason: 'auto' | 'manual';
  /** How many payloads were replaced by their summaries. */
  shed: number;
  beforeTokens: number;
  afterTokens: number;
}

/** What goes to model-io for the next request. */
export interface PreparedRequest {
  messages: ChatMessage[];
  maxTokens?: number;
  /** Serialised size of messages + tools. */
  chars: number;
  estimateTokens: number;
  /** Set when this request follows a compaction event (its prefix changed). */
  compaction?: Compaction;
  /** Characters cut from new payloads that could not fit. */
  cutChars: number;
}

/** An image sent as an image part for one turn; `note` stands in for it afterwards. */
export interface TurnImage {
  /** A `data:` URL. */
  url: string;
  note: string;
}

interface MessageEntry {
  kind: 'message';
  message: ChatMessage;
  /** Images of this user message; `live` while the turn that attached them runs. */
  images?: { list: TurnImage[]; live: boolean };
}

/** `size` is what counts in the estimate: the JSON's length, but an image part counts IMAGE_TOKENS. */
type Rendered = { withPayload: boolean; message: ChatMessage; json: string; size: number };
type Entry = (MessageEntry | ToolEntry) & { sent?: boolean; cache?: Rendered };

export class ContextManager {
  private readonly entries: Entry[] = [];
  private toolsChars: number;
  private readonly estimate = new TokenEstimate();
  private round = 0;
  private lastChars = 0;
  private windowValue: number | undefined;
  private readonly maxTokensSetting: number | undefined;
  /** Calls of the newest reply still waiting for their own assistant message (after the previous call's result). */
  private queuedCalls: ToolCall[] = [];
  /**
   * The ids the calls of the newest reply have in the history, by the id they came with (a queue
   * per id: a server may give two calls one id). Every id in the history is 9 letters and digits.
   */
  private historyIds = new Map<string, string[]>();

  constructor(options: ContextOptions) {
    this.entries.push({ kind: 'message', message: { role: 'system', content: options.system } });
    this.toolsChars = options.tools.length === 0 ? 0 : JSON.stringify(options.tools).length;
    this.windowValue = options.window && options.window > 0 ? options.window : undefined;
    this.maxTokensSetting = options.maxTokens && options.maxTokens > 0 ? options.maxTokens : undefined;
  }

  get window(): number | undefined {
    return this.windowValue;
  }

  /** Tokens kept free for the reply. */
  get reserve(): number {
    if (this.windowValue === undefined) return 0;
    return Math.min(this.maxTokensSetting ?? DEFAULT_RESERVE, Math.floor(this.windowValue / 4));
  }

  /** The estimate past which a compaction event happens (undefined with the window unknown). */
  get threshold(): number | undefined {
    if (this.windowValue === undefined) return undefined;
    return Math.floor(COMPACT_AT * (this.windowValue - this.reserve));
  }

  /** The user's message (or a nudge) at the end; merged into an unsent trailing user message. */
  addUser(text: string): void {
    const last = this.entries[this.entries.length - 1]!;
    if (last.kind === 'message' && last.message.role === 'user' && !last.sent && typeof last.message.content === 'string') {
      last.message = { role: 'user', content: `${last.message.content}\n\n${text}` };
      last.cache = undefined;
      return;
    }
    this.entries.push({ kind: 'message', message: { role: 'user', content: text } });
  }

  /**
   * The user's message with images sent natively: image parts in this turn's requests, then (at
   * {@link endTurn}) each image's note in its place. That one message changes once, so the prefix
   * cache restarts from it on the next turn: the cost of letting the model look only once.
   */
  addUserImages(text: string, images: TurnImage[]): void {
    if (images.length === 0) return this.addUser(text);
    this.entries.push({ kind: 'message', message: { role: 'user', content: text }, images: { list: images, live: true } });
  }

  /**
   * The turn ended: images sent natively are replaced by their notes, and a turn that ended with
   * the user's message unanswered (aborted, or the server failed) gets a short assistant note, so
   * the next turn's message does not follow it directly — strict chat templates reject two user
   * messages in a row, and a user message right after tool results.
   */
  endTurn(status: 'answered' | 'unanswered' = 'answered'): void {
    this.queuedCalls = [];
    const last = this.entries[this.entries.length - 1]!;
    if (status === 'unanswered' && (last.kind === 'tool' || last.message.role === 'user')) {
      this.entries.push({ kind: 'message', message: { role: 'assistant', content: '[no reply: the turn was interrupted]' } });
    }
    for (const entry of this.entries) {
      if (entry.kind === 'message' && entry.images?.live) {
        entry.images.live = false;
        entry.cache = undefined;
      }
    }
  }

  /**
   * A note to the model (loop guard, declined approvals, compaction). It rides in the newest tool
   * result not yet sent: a user message right after tool results breaks the role order that strict
   * templates (Mistral's) enforce. After a tool result already sent (the model then replied with
   * nothing), an empty assistant message goes between; otherwise it is a trailing user message.
   */
  addNudge(text: string): void {
    const last = this.entries[this.entries.length - 1]!;
    if (last.kind === 'tool') {
      if (!last.sent) {
        last.notes = [...(last.notes ?? []), text];
        last.cache = undefined;
        return;
      }
      this.entries.push({ kind: 'message', message: { role: 'assistant', content: '' } });
    }
    this.addUser(text);
  }

  /**
   * The model's reply; calls (if any) open a new tool round. Several calls go one per assistant
   * message, each followed by its result (see {@link addToolResult}): the form every template
   * renders (Llama 3.x templates raise on two calls in one message). Each call's id in the history
   * is 9 letters and digits ({@link historyCallId}; Mistral templates reject any other), its result
   * paired by the id the call came with.
   */
  addAssistant(text: string, calls: readonly ToolCall[]): void {
    if (calls.length > 0) this.round++;
    this.historyIds = new Map();
    const used = new Set<string>();
    const [first, ...rest] = calls.map((call) => {
      const id = historyCallId(call.id, used);
      used.add(id);
      this.historyIds.set(call.id, [...(this.historyIds.get(call.id) ?? []), id]);
      return { ...call, id };
    });
    this.entries.push({ kind: 'message', message: first ? callMessage(text, first) : { role: 'assistant', content: text } });
    this.queuedCalls = [...rest];
  }

  /** A tool's result for a call of the current round, in the order of the calls. */
  addToolResult(result: { callId: string; name: string; summary: string; payload: string }): void {
    const callId = this.historyIds.get(result.callId)?.shift() ?? result.callId;
    const entry: ToolEntry = { kind: 'tool', ...result, callId, round: this.round, shed: false, cutChars: 0 };
    if (this.windowValue === undefined && entry.payload.length > UNKNOWN_WINDOW_PAYLOAD_CAP) cutPayload(entry, UNKNOWN_WINDOW_PAYLOAD_CAP);
    this.entries.push(entry);
    const next = this.queuedCalls.shift();
    if (next) this.entries.push({ kind: 'message', message: callMessage('', next) });
  }

  /**
   * Builds the next request: compacts first if the estimate passed the threshold, cuts new
   * payloads that still cannot fit, and fixes max_tokens to what is left.
   */
  prepare(): PreparedRequest {
    let compaction: Compaction | undefined;
    let cutChars = 0;
    const threshold = this.threshold;
    if (threshold !== undefined) {
      if (this.tokens() > threshold) compaction = this.shed('auto');
      if (this.tokens() > threshold) cutChars = this.cutUnsent(threshold);
    }
    const messages = this.entries.map((entry) => this.render(entry).message);
    const chars = this.chars();
    for (const entry of this.entries) entry.sent = true;
    this.lastChars = chars;
    const estimateTokens = this.estimate.tokens(chars);
    return { messages, maxTokens: this.maxTokensFor(estimateTokens), chars, estimateTokens, compaction, cutChars };
  }

  /** `/compact`: one event by hand, shedding every payload but the newest group's. */
  compact(): Compaction | undefined {
    return this.shed('manual');
  }

  /** Calibrates the estimate with the server's count for the last prepared request. */
  recordUsage(usage: Usage | null): void {
    if (usage && usage.promptTokens > 0) this.estimate.calibrate(this.lastChars, usage.promptTokens);
  }

  /**
   * A new system prompt and tools array (a mode switch) for the same conversation. The prefix
   * cache restarts from the first byte; nothing else changes.
   */
  rebase(system: string, tools: readonly ToolSchema[]): void {
    this.entries[0] = { kind: 'message', message: { role: 'system', content: system }, sent: this.entries[0]!.sent };
    this.toolsChars = tools.length === 0 ? 0 : JSON.stringify(tools).length;
  }

  /** Sets the window once it is discovered (or a profile switch changed it). */
  setWindow(window: number | undefined): void {
    this.windowValue = window && window > 0 ? window : undefined;
  }

  /** Figures for the status line and `/tokens`. */
  stats(): { estimateTokens: number; window?: number; threshold?: number; payloads: number; shed: number; messages: number; imageTokens: number } {
    const tools = this.entries.filter((entry): entry is Entry & ToolEntry => entry.kind === 'tool');
    let liveImages = 0;
    for (const entry of this.entries) if (entry.kind === 'message' && entry.images?.live) liveImages += entry.images.list.length;
    return {
      imageTokens: liveImages * IMAGE_TOKENS,
      estimateTokens: this.tokens(),
      window: this.windowValue,
      threshold: this.threshold,
      payloads: tools.filter((entry) => !entry.shed && entry.payload !== '').length,
      shed: tools.filter((entry) => entry.shed).length,
      messages: this.entries.length,
    };
  }

  private tokens(): number {
    return this.estimate.tokens(this.chars());
  }

  private chars(): number {
    let total = 2 + Math.max(0, this.entries.length - 1);
    for (const entry of this.entries) total += this.render(entry).size;
    return total + this.toolsChars;
  }

  private render(entry: Entry): Rendered {
    if (entry.kind === 'message') {
      if (!entry.cache) entry.cache = renderMessage(entry);
      return entry.cache;
    }
    // Window unknown: only the newest round's results carry payloads.
    const withPayload = this.windowValue !== undefined || entry.round === this.round;
    if (!entry.cache || entry.cache.withPayload !== withPayload) {
      const message = renderToolEntry(entry, withPayload);
      const json = JSON.stringify(message);
      entry.cache = { withPayload, message, json, size: json.length };
    }
    return entry.cache;
  }

  private shed(reason: Compaction['reason']): Compaction | undefined {
    const beforeTokens = this.tokens();
    const threshold = this.threshold;
    const target = reason === 'manual' || threshold === undefined ? 0 : Math.floor(COMPACT_TO * threshold);
    const tools = this.entries.filter((entry): entry is Entry & ToolEntry => entry.kind === 'tool');
    const largeChars = threshold === undefined ? 8_000 : this.estimate.chars(threshold / 10);
    let shed = 0;
    for (const entry of shedOrder(tools, this.round, largeChars)) {
      if (reason === 'auto' && this.tokens() <= target) break;
      entry.shed = true;
      (entry as Entry).cache = undefined;
      shed++;
    }
    if (shed === 0) return undefined;
    this.addNudge(
      `[context note: ${shed} older tool output${shed === 1 ? ' was' : 's were'} replaced by ${shed === 1 ? 'its' : 'their'} one-line summary to stay within the context window; run a tool again if you need an output back]`,
    );
    return { reason, shed, beforeTokens, afterTokens: this.tokens() };
  }

  /** Cuts payloads never sent yet (largest first) until the estimate fits under `limit`. */
  private cutUnsent(limit: number): number {
    let cut = 0;
    // The marker adds a little text, so a second pass may be needed; each pass only shrinks.
    for (let pass = 0; pass < 3 && this.tokens() > limit; pass++) {
      let excess = this.estimate.chars(this.tokens() - limit) + 256;
      const unsent = this.entries
        .filter((entry): entry is Entry & ToolEntry => entry.kind === 'tool' && !entry.sent && !entry.shed && entry.payload.length > MIN_KEEP)
        .sort((a, b) => b.payload.length - a.payload.length);
      for (const entry of unsent) {
        if (excess <= 0) break;
        const removed = cutPayload(entry, Math.max(MIN_KEEP, entry.payload.length - excess));
        (entry as Entry).cache = undefined;
        excess -= removed;
        cut += removed;
      }
    }
    return cut;
  }

  private maxTokensFor(estimateTokens: number): number | undefined {
    if (this.windowValue === undefined) return this.maxTokensSetting;
    const fits = this.windowValue - Math.ceil(estimateTokens * 1.02) - 32;
    return Math.max(16, Math.min(this.maxTokensSetting ?? DEFAULT_MAX_OUTPUT, fits));
  }
}

/** An assistant message with one call; content "" and not null (templates concatenate or test it as a string). */
function callMessage(text: string, call: ToolCall): ChatMessage {
  return { role: 'assistant', content: text, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] };
}

function renderMessage(entry: MessageEntry): Rendered {
  const images = entry.images;
  if (!images || entry.message.role !== 'user' || typeof entry.message.content !== 'string') {
    const json = JSON.stringify(entry.message);
    return { withPayload: false, message: entry.message, json, size: json.length };
  }
  const text = entry.message.content;
  if (!images.live) {
    const message: ChatMessage = { role: 'user', content: [text, ...images.list.map((image) => image.note)].join('\n\n') };
    const json = JSON.stringify(message);
    return { withPayload: false, message, json, size: json.length };
  }
  const message: ChatMessage = {
    role: 'user',
    content: [{ type: 'text', text }, ...images.list.map((image) => ({ type: 'image_url' as const, image_url: { url: image.url } }))],
  };
  const json = JSON.stringify(message);
  const urlChars = images.list.reduce((sum, image) => sum + image.url.length, 0);
  return { withPayload: false, message, json, size: json.length - urlChars + images.list.length * IMAGE_TOKENS * CHARS_PER_TOKEN };
}
