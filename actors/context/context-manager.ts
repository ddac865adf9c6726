import { ReikaError } from '../../runtime/errors.js';
import { placeSystem, type SystemPlacement } from './system-placement.js';
import { historyCallId } from '../model-io/call-id.js';
import type { ChatMessage, ToolCall, ToolSchema, Usage } from '../model-io/protocol.js';
import { IMAGE_TOKENS } from '../images/image.js';
import type { ContextOp } from './context-op.js';
import { Conversation, INTERRUPTED_NOTE, isUser, sized, type Entry, type TurnImage } from './conversation.js';
import { shrinkArguments } from './huge-arguments.js';
import { shedOrder } from './shed-order.js';
import { TokenEstimate } from './token-estimate.js';
import { cutPayload, renderToolEntry, shedPayload, type ToolEntry } from './tool-entry.js';

export type { TurnImage } from './conversation.js';

/**
 * The conversation as the model sees it, kept for the prefix cache (SPEC §5).
 *
 * Window known: every request is the previous one plus new messages, byte for byte, until the
 * estimate passes the threshold, where what is left for the reply would fall below the reserve
 * (see {@link ContextManager.reserve}; the estimate may be {@link ESTIMATE_SLACK} low). Then ONE
 * compaction event: the oldest payloads are shed (large before small) and, if that is not enough,
 * whole old rounds (an assistant call and its results) are folded, oldest first, into one recap
 * message at the start of the conversation; the task (this turn's request) and the active round
 * are protected. An event makes room for {@link ROOM_REQUESTS} more requests at the pace the
 * session has been growing: it goes down at least to {@link COMPACT_TO} of the threshold and
 * keeps at least {@link KEEP_SHARE} of the history, so events stay rare. Nothing accumulates per
 * event: no note is appended, and the recap stays within {@link RECAP_SHARE} of the threshold. A
 * request that still cannot leave {@link MAX_TOKENS_FLOOR} for the reply is not sent.
 *
 * Window unknown: only the newest group of tool results carries payloads. Either way, message
 * shapes keep strict chat templates happy: never two user messages in a row.
 */

/**
 * A request leaves room for its estimate to be this much low (the factor errs high and is
 * corrected by every count the server reports), plus {@link SLACK_TOKENS}.
 */
export const ESTIMATE_SLACK = 1.05;
const SLACK_TOKENS = 64;
/** An event goes at least this far down (share of the threshold)… */
export const COMPACT_TO = 0.7;
/** …and further when the session grows fast: room for this many more requests at its pace… */
export const ROOM_REQUESTS = 24;
/** …but keeps at least this share of the history budget (the threshold less system prompt, tools and task). */
export const KEEP_SHARE = 0.1;
/** The recap takes at most this share of the threshold; its oldest lines go first. */
export const RECAP_SHARE = 0.05;
/** A new payload takes at most this share of the threshold (the rest is cut with a marker). */
export const NEW_PAYLOAD_SHARE = 0.15;
/** max_tokens is never less than this (nor than a quarter of the window, nor than REIKA_MAX_TOKENS). */
export const MAX_TOKENS_FLOOR = 1_024;
/** Generation reserved when REIKA_MAX_TOKENS is not set: a quarter of the window, at most this… */
export const DEFAULT_RESERVE = 8_192;
/** …and once replies were seen, twice the longest of the last {@link RECENT_REPLIES}, at least this. */
export const MIN_RESERVE = 2_048;
const RECENT_REPLIES = 8;
/** max_tokens when REIKA_MAX_TOKENS is not set (still never more than what fits). */
export const DEFAULT_MAX_OUTPUT = 16_384;
/** With the window unknown, a single payload is still cut past this many characters. */
export const UNKNOWN_WINDOW_PAYLOAD_CAP = 200_000;
/** A cut payload keeps at least this many characters. */
const MIN_KEEP = 400;
/** The recap budget when the window is unknown (a `/compact` by hand). */
const UNKNOWN_WINDOW_RECAP_CHARS = 8_000;

export interface ContextOptions {
  /** The session's frozen system prompt. */
  system: string;
  /** The session's fixed tools array (counted in every estimate). */
  tools: readonly ToolSchema[];
  /**
   * Context window in tokens; undefined when neither configured nor discovered. A function asks
   * the window's owner (the session's `ModelLink`) each time, so a window found later is used at once.
   */
  window?: number | (() => number | undefined);
  /** REIKA_MAX_TOKENS. */
  maxTokens?: number;
  /** Told every change, as data (the session transcript); {@link ContextManager.replay} rebuilds from them. */
  journal?: (op: ContextOp) => void;
  /** Where the system prompt goes (system-placement.ts); decided once per session. Default `system`. */
  systemPlacement?: SystemPlacement;
  /**
   * Send the model's reasoning back as `reasoning_content` of its assistant messages
   * (REIKA_REASONING_HISTORY): fixed for the conversation, so a message once sent with its
   * reasoning keeps it in every later request.
   */
  reasoningHistory?: boolean;
}

/** One compaction event: what it shed and the estimate before and after. */
export interface Compaction {
  reason: 'auto' | 'manual';
  /** How many payloads were replaced by their summaries. */
  shed: number;
  /** How many whole tool rounds were folded into the recap. */
  folded: number;
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

/** A tool result as the turn hands it over. */
export interface ToolResultInput {
  callId: string;
  name: string;
  summary: string;
  payload: string;
  status?: 'done' | 'error' | 'declined' | 'cancelled';
}

export class ContextManager {
  private conversation: Conversation;
  private toolsChars: number;
  private estimate = new TokenEstimate();
  private requests = 0;
  private lastChars = 0;
  /** Completion tokens of the last few replies (Infinity: cut by max_tokens). */
  private readonly replies: number[] = [];
  /** Calls of the newest reply still waiting for their own assistant message (after the previous call's result). */
  private queuedCalls: ToolCall[] = [];
  /**
   * The ids the calls of the newest reply have in the history, by the id they came with (a queue
   * per id: a server may give two calls one id). Every id in the history is 9 letters and digits.
   */
  private historyIds = new Map<string, string[]>();
  /** The window's owner, asked each time (see {@link ContextOptions.window}). */
  private windowOf: () => number | undefined = () => undefined;
  private readonly maxTokensSetting: number | undefined;
  private placement: SystemPlacement;
  private reasoningHistory: boolean;
  /** The engine's facts were given (at construction or late, once): they no longer change. */
  private engineFactsSettled: boolean;
  /** Where the growth since the last event is measured from. */
  private pace: { requests: number; tokens: number } | undefined;
  private journal: ((op: ContextOp) => void) | undefined;
  /** The window the journal last told of (it is asked of its owner, so a change is noticed at the next change). */
  private journaledWindow: number | undefined;

  constructor(options: ContextOptions) {
    this.conversation = new Conversation(options.system, () => this.windowValue !== undefined);
    this.toolsChars = options.tools.length === 0 ? 0 : JSON.stringify(options.tools).length;
    this.setWindow(options.window);
    this.maxTokensSetting = options.maxTokens && options.maxTokens > 0 ? options.maxTokens : undefined;
    this.placement = options.systemPlacement ?? 'system';
    this.reasoningHistory = options.reasoningHistory ?? false;
    this.engineFactsSettled = options.systemPlacement !== undefined;
    this.journal = options.journal;
    this.journaledWindow = this.windowValue;
    this.log({ op: 'init', system: options.system, tools: [...options.tools], ...(this.windowValue ? { window: this.windowValue } : {}), ...(this.maxTokensSetting ? { maxTokens: this.maxTokensSetting } : {}) });
  }

  /**
   * A manager in the state the recorded `ops` left one in (the first is its `init`), telling
   * `journal` of the changes made from then on. A request that failed to build (context full)
   * fails the same way again and is passed over, as it was.
   */
  static replay(ops: readonly ContextOp[], journal?: (op: ContextOp) => void): ContextManager {
    const [init, ...rest] = ops;
    if (init?.op !== 'init') throw new ReikaError('REIKA_ERR_TRANSCRIPT', 'the recorded conversation does not start with its system prompt');
    // The window each change saw, as the journal told it; the caller then gives the live source.
    let window = init.window;
    const manager = new ContextManager({ system: init.system, tools: init.tools, window: () => window, maxTokens: init.maxTokens });
    for (const op of rest) {
      if (op.op === 'window') window = op.window;
      else manager.apply(op);
    }
    manager.journaledWindow = window;
    manager.journal = journal;
    return manager;
  }

  /** Tells the journal of a change, after the window if that changed since the last one. */
  private log(op: ContextOp): void {
    if (!this.journal) return;
    const window = this.windowValue;
    if (op.op !== 'init' && window !== this.journaledWindow) this.journal({ op: 'window', ...(window !== undefined ? { window } : {}) });
    this.journaledWindow = window;
    this.journal(op);
  }

  private apply(op: ContextOp): void {
    switch (op.op) {
      case 'init':
        throw new ReikaError('REIKA_ERR_TRANSCRIPT', 'the recorded conversation starts twice');
      case 'user':
        return this.addUser(op.text);
      case 'user-images':
        return this.addUserImages(op.text, op.notes.map((note) => ({ url: '', note })));
      case 'end-turn':
        return this.endTurn(op.status);
      case 'nudge':
        return this.addNudge(op.text);
      case 'assistant':
        if (op.reasoning !== undefined) this.reasoningHistory = true;
        return this.addAssistant(op.text, op.calls, op.ids, op.reasoning);
      case 'tool-result':
        return this.addToolResult(op.result);
      case 'prepare':
        try {
          this.prepare();
        } catch {
          // REIKA_ERR_CONTEXT_FULL: the turn ended there, as it did when it happened.
        }
        return;
      case 'compact':
        this.compact();
        return;
      case 'usage':
        return this.recordUsage(op.usage, op.finishReason);
      case 'rebase':
        return this.rebase(op.system, op.tools);
      case 'window':
        return; // read by replay itself
    }
  }

  private get entries(): Entry[] {
    return this.conversation.entries;
  }

  get window(): number | undefined {
    return this.windowValue;
  }

  private get windowValue(): number | undefined {
    const window = this.windowOf();
    return window && window > 0 ? window : undefined;
  }

  /**
   * Tokens kept free for the reply: REIKA_MAX_TOKENS, else twice the longest of the last replies
   * (at least {@link MIN_RESERVE}), else a quarter of the window; never more than a quarter nor
   * than {@link DEFAULT_RESERVE}. Tool calls are short, so a session of them runs fuller between
   * events; a reply cut by max_tokens brings the full reserve back, and with it a compaction.
   */
  get reserve(): number {
    if (this.windowValue === undefined) return 0;
    const most = Math.min(this.maxTokensSetting ?? DEFAULT_RESERVE, Math.floor(this.windowValue / 4));
    if (this.maxTokensSetting !== undefined || this.replies.length === 0) return most;
    return Math.min(most, Math.max(MIN_RESERVE, 2 * Math.max(...this.replies)));
  }

  /** The estimate past which a compaction event happens: the reply would get less than the reserve (undefined with the window unknown). */
  get threshold(): number | undefined {
    if (this.windowValue === undefined) return undefined;
    return Math.floor((this.windowValue - this.reserve - SLACK_TOKENS) / ESTIMATE_SLACK);
  }

  /** The smallest max_tokens a request goes with (undefined with the window unknown). */
  get maxTokensFloor(): number | undefined {
    if (this.windowValue === undefined) return undefined;
    return Math.min(MAX_TOKENS_FLOOR, Math.floor(this.windowValue / 4), this.maxTokensSetting ?? Infinity);
  }

  /** The user's request for a new turn; merged into an unsent trailing user message (a nudge). */
  addUser(text: string): void {
    this.log({ op: 'user', text });
    this.conversation.turn++;
    this.pushUser(text, true);
  }

  /**
   * The user's message with images sent natively: image parts in this turn's requests, then (at
   * {@link endTurn}) each image's note in its place. That one message changes once, so the prefix
   * cache restarts from it on the next turn: the cost of letting the model look only once.
   */
  addUserImages(text: string, images: TurnImage[]): void {
    if (images.length === 0) return this.addUser(text);
    // The image bytes went once; only their notes are kept (what every later request carries).
    this.log({ op: 'user-images', text, notes: images.map((image) => image.note) });
    this.conversation.turn++;
    this.entries.push({ kind: 'message', message: { role: 'user', content: text }, images: { list: images, live: true }, prompt: true, turn: this.conversation.turn });
  }

  /**
   * The turn ended: images sent natively are replaced by their notes, and a turn that ended with
   * the user's message or tool results unanswered (aborted, or the server failed) gets a short
   * assistant note, so the next turn's message does not follow it directly — strict chat
   * templates reject two user messages in a row, and a user message right after tool results.
   */
  endTurn(status: 'answered' | 'unanswered' = 'answered'): void {
    this.log({ op: 'end-turn', status });
    this.queuedCalls = [];
    const last = this.conversation.last;
    if (status === 'unanswered' && (last.kind === 'tool' || (last.kind === 'message' && last.message.role === 'user'))) {
      this.entries.push({ kind: 'message', message: { role: 'assistant', content: INTERRUPTED_NOTE }, turn: this.conversation.turn });
    }
    for (const entry of this.entries) {
      if (entry.kind === 'message' && entry.images?.live) {
        entry.images.live = false;
        entry.cache = undefined;
      }
    }
  }

  /**
   * A note to the model (loop guard, declined approvals, an empty reply). It rides in the newest
   * tool result not yet sent: a user message right after tool results breaks the role order that
   * strict templates (Mistral's) enforce. Otherwise it is a trailing user message, after an empty
   * assistant message when the model answered nothing to what was sent last (a tool result, or a
   * user message: never two user messages in a row).
   */
  addNudge(text: string): void {
    this.log({ op: 'nudge', text });
    const last = this.conversation.last;
    if (last.kind === 'tool' && !last.sent) {
      last.notes = [...(last.notes ?? []), text];
      last.cache = undefined;
      return;
    }
    this.pushUser(text, false);
  }

  /**
   * The engine's facts (template probe) came after this conversation's first request: adopted
   * once, from the next request on, and never changed again. Moving the system text into the
   * first user message re-prefills the prefix at most once; for the templates that need it the
   * template itself already changed the prompt there. Reasoning is only ever switched on: what
   * was sent without it stays without it.
   */
  adoptEngineFacts(facts: { systemPlacement: SystemPlacement; reasoningHistory: boolean }): void {
    if (this.engineFactsSettled) return;
    this.engineFactsSettled = true;
    this.placement = facts.systemPlacement;
    if (facts.reasoningHistory) this.reasoningHistory = true;
  }

  /**
   * The model's reply; calls (if any) open a new tool round. Several calls go one per assistant
   * message, each followed by its result (see {@link addToolResult}): the form every template
   * renders (Llama 3.x templates raise on two calls in one message). Each call's id in the history
   * is 9 letters and digits ({@link historyCallId}; Mistral templates reject any other), its result
   * paired by the id the call came with.
   */
  addAssistant(text: string, calls: readonly ToolCall[], recordedIds?: readonly string[], reasoning = ''): void {
    if (calls.length > 0) this.conversation.round++;
    this.historyIds = new Map();
    const used = new Set<string>();
    const [first, ...rest] = calls.map((call, i) => {
      const id = recordedIds?.[i] ?? historyCallId(call.id, used);
      used.add(id);
      this.historyIds.set(call.id, [...(this.historyIds.get(call.id) ?? []), id]);
      return { ...call, id };
    });
    const message: ChatMessage = first ? callMessage(text, first) : { role: 'assistant', content: text };
    if (this.reasoningHistory && reasoning !== '') (message as Extract<ChatMessage, { role: 'assistant' }>).reasoning_content = reasoning;
    this.entries.push({ kind: 'message', message, turn: this.conversation.turn, round: this.conversation.round });
    this.queuedCalls = [...rest];
    this.log({ op: 'assistant', text, calls: [...calls], ids: first ? [first, ...rest].map((call) => call.id) : [], ...(this.reasoningHistory && reasoning !== '' ? { reasoning } : {}) });
  }

  /**
   * A tool's result for a call of the current round, in the order of the calls. When the call failed, its huge arguments
   * (a 2 MB command that hit E2BIG) are replaced in the history by their size and hash: the call
   * message has not been sent yet, so this costs the prefix cache nothing.
   */
  addToolResult(result: ToolResultInput): void {
    this.log({ op: 'tool-result', result });
    const callId = this.historyIds.get(result.callId)?.shift() ?? result.callId;
    const entry: ToolEntry = { kind: 'tool', callId, name: result.name, summary: result.summary, payload: result.payload, round: this.conversation.round, shed: false, cutChars: 0 };
    if (this.windowValue === undefined && entry.payload.length > UNKNOWN_WINDOW_PAYLOAD_CAP) cutPayload(entry, UNKNOWN_WINDOW_PAYLOAD_CAP);
    if (result.status === 'error') this.shrinkCall(callId);
    this.entries.push({ ...entry, turn: this.conversation.turn });
    const next = this.queuedCalls.shift();
    if (next) this.entries.push({ kind: 'message', message: callMessage('', next), turn: this.conversation.turn, round: this.conversation.round });
  }

  /**
   * Builds the next request: cuts new payloads to their share, compacts first if the estimate
   * passed the threshold, cuts new payloads that still cannot fit, and fixes max_tokens to what is
   * left. Throws REIKA_ERR_CONTEXT_FULL when even then the reply would get less than the floor.
   */
  prepare(): PreparedRequest {
    this.log({ op: 'prepare' });
    let compaction: Compaction | undefined;
    let cutChars = 0;
    const threshold = this.threshold;
    this.requests++;
    if (threshold !== undefined) {
      cutChars += this.capUnsent(this.estimate.chars(threshold * NEW_PAYLOAD_SHARE));
      if (this.tokens() > threshold) compaction = this.compactNow('auto');
      if (this.tokens() > threshold) cutChars += this.cutUnsent(threshold);
      if (this.tokens() > threshold) this.shrinkUnsentCalls();
    }
    const chars = this.chars();
    const estimateTokens = this.estimate.tokens(chars);
    const maxTokens = this.maxTokensFor(estimateTokens);
    const floor = this.maxTokensFloor;
    if (maxTokens !== undefined && floor !== undefined && maxTokens < floor) {
      const fixed = this.estimate.tokens(this.conversation.render(this.entries[0]!).size + this.toolsChars);
      const fmt = (n: number) => n.toLocaleString('en-US');
      // Mostly system prompt (a big repo map in a small window): say which setting shrinks it.
      const why = fixed * 2 > estimateTokens ? `, ${fmt(fixed)} of them the system prompt and tools; a smaller REIKA_REPO_MAP_BUDGET shrinks the repo map in it` : '';
      throw new ReikaError(
        'REIKA_ERR_CONTEXT_FULL',
        `the request does not fit the ${fmt(this.windowValue!)}-token context window even after compaction (about ${fmt(estimateTokens)} tokens of system prompt, task and newest tool round${why}); use a larger window (REIKA_CONTEXT_WINDOW) or a shorter request`,
      );
    }
    const messages = placeSystem(
      this.entries.map((entry) => this.conversation.render(entry).message),
      this.placement,
    );
    for (const entry of this.entries) entry.sent = true;
    if (this.windowValue === undefined) this.releaseOldPayloads();
    this.lastChars = chars;
    this.pace ??= { requests: this.requests, tokens: estimateTokens };
    return { messages, maxTokens, chars, estimateTokens, compaction, cutChars };
  }

  /** `/compact`: one event by hand that sheds and folds all it can; never grows the context. */
  compact(): Compaction | undefined {
    this.log({ op: 'compact' });
    return this.compactNow('manual');
  }

  /**
   * What the server said about the reply to the last prepared request: its prompt count
   * calibrates the estimate, its length (or a cut by max_tokens) sizes the reserve.
   */
  recordUsage(usage: Usage | null, finishReason?: string): void {
    this.log({ op: 'usage', usage, ...(finishReason !== undefined ? { finishReason } : {}) });
    if (usage && usage.promptTokens > 0) this.estimate.calibrate(this.lastChars, usage.promptTokens);
    const need = finishReason === 'length' ? Infinity : usage?.completionTokens;
    if (need === undefined) return;
    this.replies.push(need);
    if (this.replies.length > RECENT_REPLIES) this.replies.shift();
  }

  /**
   * A new system prompt and tools array (a mode switch) for the same conversation. The prefix
   * cache restarts from the first byte; nothing else changes.
   */
  rebase(system: string, tools: readonly ToolSchema[]): void {
    this.log({ op: 'rebase', system, tools: [...tools] });
    this.entries[0] = { kind: 'message', message: { role: 'system', content: system }, sent: this.entries[0]!.sent, turn: 0 };
    this.toolsChars = tools.length === 0 ? 0 : JSON.stringify(tools).length;
  }

  /** Where the window comes from: a fixed number (a subagent's, a test's) or a function that asks its owner. */
  setWindow(window: number | (() => number | undefined) | undefined): void {
    this.windowOf = typeof window === 'function' ? window : () => window;
  }

  /** Figures for the status line and `/tokens`. */
  stats(): { estimateTokens: number; window?: number; threshold?: number; payloads: number; shed: number; folded: number; messages: number; imageTokens: number } {
    let liveImages = 0;
    let payloads = 0;
    let shed = 0;
    for (const entry of this.entries) {
      if (entry.kind === 'message' && entry.images?.live) liveImages += entry.images.list.length;
      if (entry.kind === 'tool' && entry.shed) shed++;
      else if (entry.kind === 'tool' && entry.payload !== '') payloads++;
    }
    return {
      imageTokens: liveImages * IMAGE_TOKENS,
      estimateTokens: this.tokens(),
      window: this.windowValue,
      threshold: this.threshold,
      payloads,
      shed,
      folded: this.conversation.recap.rounds,
      messages: this.entries.length,
    };
  }

  private pushUser(text: string, prompt: boolean): void {
    const last = this.conversation.last;
    if (last.kind === 'message' && last.message.role === 'user' && !last.sent && typeof last.message.content === 'string' && last !== this.conversation.recapHost) {
      last.message = { role: 'user', content: `${last.message.content}\n\n${text}` };
      last.cache = undefined;
      if (prompt) {
        last.prompt = true;
        last.turn = this.conversation.turn;
      }
      return;
    }
    // The model answered nothing to what was sent last: an empty assistant message goes between.
    if (isUser(last) || (last.kind === 'tool' && last.sent)) this.entries.push({ kind: 'message', message: { role: 'assistant', content: '' }, turn: this.conversation.turn });
    this.entries.push({ kind: 'message', message: { role: 'user', content: text }, turn: this.conversation.turn, ...(prompt ? { prompt: true } : {}) });
  }

  private tokens(): number {
    return this.estimate.tokens(this.chars());
  }

  private chars(): number {
    return this.conversation.chars() + this.toolsChars;
  }

  /**
   * One compaction event. Payloads first (oldest, large before small), then whole rounds folded
   * into the recap, oldest first, until the estimate is at the target (manual: all it can). The
   * task, the active round and what follows it are protected. An event that would not make the
   * context smaller changes nothing.
   */
  private compactNow(reason: Compaction['reason']): Compaction | undefined {
    const beforeTokens = this.tokens();
    const target = this.target(reason, beforeTokens);
    const protectedFrom = this.conversation.protectedFrom();
    const threshold = this.threshold;
    const largeChars = threshold === undefined ? 8_000 : this.estimate.chars(threshold / 10);
    const candidates: Array<Entry & ToolEntry> = [];
    for (let i = 1; i < protectedFrom; i++) {
      const entry = this.entries[i]!;
      if (entry.kind === 'tool') candidates.push(entry);
    }
    let chars = this.chars();
    let shed = 0;
    for (const entry of shedOrder(candidates, largeChars)) {
      if (this.estimate.tokens(chars) <= target) break;
      const before = this.conversation.render(entry).size;
      const after = sized(renderToolEntry({ ...entry, shed: true, payload: '' }, true)).size;
      if (after >= before) continue; // a payload shorter than the note that would replace it
      shedPayload(entry);
      entry.cache = undefined;
      chars += after - before;
      shed++;
    }
    const folded = this.estimate.tokens(chars) > target ? this.foldRounds(target) : 0;
    if (shed === 0 && folded === 0) return undefined;
    const afterTokens = this.tokens();
    this.pace = { requests: this.requests, tokens: afterTokens };
    return { reason, shed, folded, beforeTokens, afterTokens };
  }

  /**
   * Folds units (rounds, answers, requests of earlier turns) oldest first into the recap until the
   * estimate is at `target`; kept only if the context got smaller. Returns the rounds folded.
   */
  private foldRounds(target: number): number {
    const conversation = this.conversation;
    const restore = conversation.snapshot();
    const before = this.chars();
    const budget = this.threshold === undefined ? UNKNOWN_WINDOW_RECAP_CHARS : this.estimate.chars(this.threshold * RECAP_SHARE);
    let rounds = 0;
    // In batches sized by what is still above the target; each batch is checked on the real estimate.
    for (let tokens = this.tokens(); tokens > target; tokens = this.tokens()) {
      const folded = conversation.foldOldest(this.estimate.chars(tokens - target));
      if (folded === undefined) break;
      rounds += folded;
      conversation.recap.fit(budget);
      conversation.rehost();
    }
    if (this.chars() >= before || (rounds === 0 && conversation.recap.empty)) {
      restore();
      return 0;
    }
    return rounds;
  }

  /** The estimate an automatic event goes down to (0 by hand: all it can). */
  private target(reason: Compaction['reason'], now: number): number {
    const threshold = this.threshold;
    if (reason === 'manual' || threshold === undefined) return 0;
    const task = this.conversation.taskIndex();
    const fixedChars = this.conversation.render(this.entries[0]!).size + this.toolsChars + (task > 0 ? this.conversation.render(this.entries[task]!).size : 0);
    const fixed = this.estimate.tokens(fixedChars);
    const floor = fixed + KEEP_SHARE * Math.max(0, threshold - fixed);
    const pace = this.pace ? Math.max(0, now - this.pace.tokens) / Math.max(1, this.requests - this.pace.requests) : 0;
    return Math.floor(Math.min(COMPACT_TO * threshold, Math.max(floor, threshold - ROOM_REQUESTS * pace)));
  }

  /** New payloads beyond `cap` characters are cut (a 200 KB output must not fill a small window alone). */
  private capUnsent(cap: number): number {
    let cut = 0;
    const limit = Math.max(MIN_KEEP, cap);
    for (const entry of this.entries) {
      if (entry.kind !== 'tool' || entry.sent || entry.shed || entry.payload.length <= limit) continue;
      cut += cutPayload(entry, limit);
      entry.cache = undefined;
    }
    return cut;
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
        entry.cache = undefined;
        excess -= removed;
        cut += removed;
      }
    }
    return cut;
  }

  /** Replaces huge arguments of the unsent call `callId` by their size and hash. */
  private shrinkCall(callId: string): void {
    for (let i = this.entries.length - 1; i > 0; i--) {
      const entry = this.entries[i]!;
      if (entry.kind !== 'message' || entry.message.role !== 'assistant' || !entry.message.tool_calls) continue;
      if (entry.sent) return;
      const calls = entry.message.tool_calls;
      const at = calls.findIndex((call) => call.id === callId);
      if (at === -1) continue;
      const shrunk = shrinkArguments(calls[at]!);
      if (shrunk) {
        entry.message = { ...entry.message, tool_calls: calls.map((call, j) => (j === at ? shrunk : call)) };
        entry.cache = undefined;
      }
      return;
    }
  }

  /** The last resort before giving up on a request: huge arguments of unsent calls shrunk too. */
  private shrinkUnsentCalls(): void {
    for (const entry of this.entries) {
      if (entry.sent || entry.kind !== 'message' || entry.message.role !== 'assistant') continue;
      for (const call of entry.message.tool_calls ?? []) this.shrinkCall(call.id);
    }
  }

  /**
   * Window unknown: results older than the newest round went as summaries and never go back to
   * payloads (a window found later leaves them so), so their payloads are let go.
   */
  private releaseOldPayloads(): void {
    for (const entry of this.entries) {
      if (entry.kind === 'tool' && !entry.shed && entry.payload !== '' && entry.round < this.conversation.round) shedPayload(entry);
    }
  }

  /**
   * What is left of the window for the reply, with a margin: an estimate a little low must not
   * make the engine refuse prompt + max_tokens (vLLM does). Before the server has reported a
   * count the estimate may be far off, so the reply gets less, though never less than the floor.
   */
  private maxTokensFor(estimateTokens: number): number | undefined {
    if (this.windowValue === undefined) return this.maxTokensSetting;
    const fits = this.windowValue - Math.ceil(estimateTokens * ESTIMATE_SLACK) - SLACK_TOKENS;
    const safe = this.estimate.calibrated ? fits : this.windowValue - Math.ceil(estimateTokens * 1.5) - SLACK_TOKENS;
    const floor = Math.min(this.maxTokensFloor!, fits);
    return Math.max(0, Math.min(this.maxTokensSetting ?? DEFAULT_MAX_OUTPUT, Math.max(floor, safe)));
  }
}

/** An assistant message with one call; content "" and not null (templates concatenate or test it as a string). */
function callMessage(text: string, call: ToolCall): ChatMessage {
  return { role: 'assistant', content: text, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] };
}
