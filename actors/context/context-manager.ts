import { ReikaError } from '../../runtime/errors.js';
import { IMAGE_TOKENS, type TurnImage } from '../images/image.js';
import type { ChatMessage, ToolCall, ToolSchema, Usage } from '../model-io/protocol.js';
import { Compactor, type Compaction } from './compactor.js';
import { applyOp, type ContextOp } from './context-op.js';
import type { ContextParts } from './context-parts.js';
import { Conversation, INTERRUPTED_NOTE, isUser } from './conversation.js';
import { callMessage, ReplyCalls } from './reply-calls.js';
import { placeSystem, type SystemPlacement } from '../model-io/system-placement.js';
import { TokenEstimate } from './token-estimate.js';
import { cutPayload, shedPayload, type ToolEntry, type ToolResultInput } from './tool-entry.js';
import { capUnsent, cutUnsent, cutUnsentText, NEW_PAYLOAD_SHARE, shrinkCall, shrinkUnsentCalls, UNKNOWN_WINDOW_PAYLOAD_CAP, UNSENT_CUT_TO } from './unsent-cuts.js';
import { WindowBudget, type WindowSource } from './window-budget.js';

export interface ContextOptions {
  /** The session's frozen system prompt. */
  system: string;
  /** The session's fixed tools array (counted in every estimate). */
  tools: readonly ToolSchema[];
  /**
   * Context window in tokens; undefined when neither configured nor discovered. A function asks
   * the window's owner (the session's `ModelLink`) each time, so a window found later is used at once.
   */
  window?: WindowSource;
  /** REIKA_MAX_TOKENS. */
  maxTokens?: number;
  /** Told every change, as data (the session transcript); {@link ContextManager.replay} rebuilds from them. */
  journal?: (op: ContextOp) => void;
  /** Where the system prompt goes (actors/model-io/system-placement.ts); decided once per session. Default `system`. */
  systemPlacement?: SystemPlacement;
  /**
   * Send the model's reasoning back as `reasoning_content` of its assistant messages
   * (REIKA_REASONING_HISTORY): fixed for the conversation, so a message once sent with its
   * reasoning keeps it in every later request.
   */
  reasoningHistory?: boolean;
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

/**
 * The conversation as the model sees it, kept for the prefix cache (SPEC §5).
 *
 * Window known: every request is the previous one plus new messages, byte for byte, until the
 * estimate passes the threshold, where what is left for the reply would fall below the reserve
 * (window-budget.ts). Then ONE compaction event (compactor.ts) sheds old payloads and folds old
 * rounds into the recap; nothing accumulates per event. A request that still cannot leave
 * `MAX_TOKENS_FLOOR` for the reply is not sent.
 *
 * Window unknown: only the newest group of tool results carries payloads. Either way, message
 * shapes keep strict chat templates happy: never two user messages in a row.
 *
 * The manager takes the turn's changes, tells its journal of each, and builds each request; the
 * policies it applies live beside it: the window's budget, compaction, cuts of what was never sent.
 */
export class ContextManager {
  private readonly conversation: Conversation;
  private toolsChars: number;
  private readonly estimate = new TokenEstimate();
  private readonly budget: WindowBudget;
  private readonly compactor: Compactor;
  /** What the policies beside the manager work on. */
  private readonly parts: ContextParts;
  private readonly calls = new ReplyCalls();
  /** Serialised size of the last prepared request (what the next count calibrates), and the prefix version it was made at. */
  private lastChars = 0;
  private lastVersion = 0;
  private lastDigits = 0;
  private placement: SystemPlacement;
  private reasoningHistory: boolean;
  /** The compaction event whose request went out last and was not yet answered (its figures tell whether the engine found what it kept). */
  private sentEvent: Compaction | undefined;
  /** An event by hand, waiting for the request that carries it. */
  private manualEvent: Compaction | undefined;
  /** The estimate of the last prepared request (what the server's count of it is compared with). */
  private sentEstimate = 0;
  /** The engine's facts were given (at construction or late, once): they no longer change. */
  private engineFactsSettled: boolean;
  private journal: ((op: ContextOp) => void) | undefined;
  /** The window the journal last told of (it is asked of its owner, so a change is noticed at the next change). */
  private journaledWindow: number | undefined;

  constructor(options: ContextOptions) {
    this.budget = new WindowBudget(options.window, options.maxTokens);
    this.conversation = new Conversation(options.system, () => this.budget.window !== undefined);
    this.toolsChars = options.tools.length === 0 ? 0 : JSON.stringify(options.tools).length;
    this.parts = { conversation: this.conversation, estimate: this.estimate, budget: this.budget, chars: () => this.chars(), fixedChars: () => this.fixedChars(), tokens: () => this.tokens() };
    this.compactor = new Compactor(this.parts);
    this.placement = options.systemPlacement ?? 'system';
    this.reasoningHistory = options.reasoningHistory ?? false;
    this.engineFactsSettled = options.systemPlacement !== undefined;
    this.journal = options.journal;
    const window = this.budget.window;
    const maxTokens = this.budget.maxTokensSetting;
    this.journaledWindow = window;
    this.log({ op: 'init', system: options.system, tools: [...options.tools], ...(window ? { window } : {}), ...(maxTokens ? { maxTokens } : {}) });
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
      else applyOp(manager, op);
    }
    manager.journaledWindow = window;
    manager.journal = journal;
    return manager;
  }

  /** Tells the journal of a change, after the window if that changed since the last one. */
  private log(op: ContextOp): void {
    if (!this.journal) return;
    const window = this.budget.window;
    if (op.op !== 'init' && window !== this.journaledWindow) this.journal({ op: 'window', ...(window !== undefined ? { window } : {}) });
    this.journaledWindow = window;
    this.journal(op);
  }

  /** A recorded reply was sent with its reasoning: the conversation keeps reasoning from now on (see {@link ContextOptions.reasoningHistory}). */
  keepReasoning(): void {
    this.reasoningHistory = true;
  }

  get window(): number | undefined {
    return this.budget.window;
  }

  /** Tokens kept free for the reply (see `WindowBudget.reserve`). */
  get reserve(): number {
    return this.budget.reserve;
  }

  /** The estimate past which a compaction event happens (undefined with the window unknown). */
  get threshold(): number | undefined {
    return this.budget.threshold;
  }

  /** The smallest max_tokens a request goes with (undefined with the window unknown). */
  get maxTokensFloor(): number | undefined {
    return this.budget.maxTokensFloor;
  }

  /** Serialised size of the next request's messages and the tools array (a running total). */
  chars(): number {
    return this.conversation.chars() + this.toolsChars;
  }

  /** The same by a full walk, every message rendered afresh: what {@link chars} always equals. */
  recountChars(): number {
    return this.conversation.recount() + this.toolsChars;
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
    const last = this.conversation.last;
    // A recap of its own (after `/compact`) waits unsent at the end: the request joins it, never a second user message in a row.
    if (last.kind === 'message' && last.message.role === 'user' && !last.sent && last.message.content === '' && !last.images) {
      last.message = { role: 'user', content: text };
      last.images = { list: images, live: true };
      last.prompt = true;
      last.turn = this.conversation.turn;
      this.conversation.touch(last);
      return;
    }
    this.conversation.push({ kind: 'message', message: { role: 'user', content: text }, images: { list: images, live: true }, prompt: true, turn: this.conversation.turn });
  }

  /**
   * The turn ended: images sent natively are replaced by their notes, and a turn that ended with
   * the user's message or tool results unanswered (aborted, or the server failed) gets a short
   * assistant note, so the next turn's message does not follow it directly — strict chat
   * templates reject two user messages in a row, and a user message right after tool results.
   */
  endTurn(status: 'answered' | 'unanswered' = 'answered'): void {
    this.log({ op: 'end-turn', status });
    this.calls.drop();
    const last = this.conversation.last;
    if (status === 'unanswered' && (last.kind === 'tool' || (last.kind === 'message' && last.message.role === 'user'))) {
      this.conversation.push({ kind: 'message', message: { role: 'assistant', content: INTERRUPTED_NOTE }, turn: this.conversation.turn });
    }
    for (const entry of this.conversation.entries) {
      if (entry.kind === 'message' && entry.images?.live) {
        entry.images.live = false;
        this.conversation.touch(entry);
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
      this.conversation.touch(last);
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
    if (facts.systemPlacement !== this.placement) this.conversation.prefixVersion++;
    this.placement = facts.systemPlacement;
    if (facts.reasoningHistory) this.reasoningHistory = true;
  }

  /**
   * The model's reply; calls (if any) open a new tool round, one call per assistant message, each
   * followed by its result (reply-calls.ts; see {@link addToolResult}).
   */
  addAssistant(text: string, calls: readonly ToolCall[], recordedIds?: readonly string[], reasoning = ''): void {
    if (calls.length > 0) this.conversation.round++;
    const named = this.calls.open(calls, recordedIds);
    const first = named[0];
    const message: ChatMessage = first ? callMessage(text, first) : { role: 'assistant', content: text };
    if (this.reasoningHistory && reasoning !== '') (message as Extract<ChatMessage, { role: 'assistant' }>).reasoning_content = reasoning;
    this.conversation.push({ kind: 'message', message, turn: this.conversation.turn, round: this.conversation.round });
    this.log({ op: 'assistant', text, calls: [...calls], ids: named.map((call) => call.id), ...(this.reasoningHistory && reasoning !== '' ? { reasoning } : {}) });
  }

  /**
   * A tool's result for a call of the current round, in the order of the calls. When the call failed, its huge arguments
   * (a 2 MB command that hit E2BIG) are replaced in the history by their size and hash: the call
   * message has not been sent yet, so this costs the prefix cache nothing.
   */
  addToolResult(result: ToolResultInput): void {
    this.log({ op: 'tool-result', result });
    const callId = this.calls.resultId(result.callId);
    const entry: ToolEntry = { kind: 'tool', callId, name: result.name, summary: result.summary, payload: result.payload, round: this.conversation.round, shed: false, cutChars: 0 };
    if (this.budget.window === undefined && entry.payload.length > UNKNOWN_WINDOW_PAYLOAD_CAP) cutPayload(entry, UNKNOWN_WINDOW_PAYLOAD_CAP);
    if (result.status === 'error') shrinkCall(this.conversation, callId);
    this.conversation.push({ ...entry, turn: this.conversation.turn });
    const next = this.calls.next();
    if (next) this.conversation.push({ kind: 'message', message: callMessage('', next), turn: this.conversation.turn, round: this.conversation.round });
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
    const threshold = this.budget.threshold;
    this.compactor.countRequest();
    if (threshold !== undefined) {
      const history = Math.max(0, threshold - this.estimate.tokens(this.fixedChars()));
      cutChars += capUnsent(this.conversation, this.estimate.chars(history * NEW_PAYLOAD_SHARE));
      if (this.tokens() > threshold) compaction = this.compactor.compact('auto');
      // What no event could shed is cut a little deeper, for what the model says next in the same round.
      const cutTo = Math.floor(threshold * UNSENT_CUT_TO);
      if (this.tokens() > threshold) cutChars += cutUnsent(this.parts, cutTo);
      if (this.tokens() > threshold) shrinkUnsentCalls(this.conversation);
      if (this.tokens() > threshold) cutChars += cutUnsentText(this.parts, cutTo);
    }
    const chars = this.chars();
    const estimateTokens = this.tokens();
    const maxTokens = this.budget.maxTokensFor(estimateTokens, this.estimate.calibrated, this.estimate.anchored(chars, this.conversation.prefixVersion));
    const floor = this.budget.maxTokensFloor;
    if (maxTokens !== undefined && floor !== undefined && maxTokens < floor) throw this.budget.overflow(estimateTokens, this.estimate.tokens(this.fixedChars()));
    const entries = this.conversation.entries;
    const messages = placeSystem(
      entries.map((entry) => this.conversation.render(entry).message),
      this.placement,
    );
    for (const entry of entries) entry.sent = true;
    this.lastChars = chars;
    this.lastVersion = this.conversation.prefixVersion;
    this.lastDigits = this.conversation.digits();
    if (this.budget.window === undefined) this.releaseOldPayloads();
    this.compactor.sent(estimateTokens);
    this.sentEvent = compaction ?? this.manualEvent;
    this.sentEstimate = estimateTokens;
    this.manualEvent = undefined;
    return { messages, maxTokens, chars, estimateTokens, compaction, cutChars };
  }

  /** `/compact`: one event by hand that sheds and folds all it can; never grows the context. */
  compact(): Compaction | undefined {
    this.log({ op: 'compact' });
    const event = this.compactor.compact('manual');
    if (event) this.manualEvent = event;
    return event;
  }

  /**
   * What the server said about the reply to the last prepared request: its prompt count
   * calibrates the estimate, its length (or a cut by max_tokens) sizes the reserve.
   */
  recordUsage(usage: Usage | null, finishReason?: string): void {
    this.log({ op: 'usage', usage, ...(finishReason !== undefined ? { finishReason } : {}) });
    if (usage && usage.promptTokens > 0) this.estimate.count(this.lastChars, usage.promptTokens, this.lastVersion, this.lastDigits);
    this.budget.recordReply(usage, finishReason);
    // The request after an event: whether the engine's cache covered what it kept (when the engine reports its cache).
    if (this.sentEvent && usage && usage.promptTokens > 0 && this.sentEstimate > 0 && (usage.cacheFrom !== undefined || usage.prefilledTokens !== undefined)) {
      this.compactor.observe(this.sentEvent, usage.cachedTokens, usage.promptTokens / this.sentEstimate);
    }
    this.sentEvent = undefined;
  }

  /**
   * A new system prompt and tools array (a mode switch) for the same conversation. The prefix
   * cache restarts from the first byte; nothing else changes.
   */
  rebase(system: string, tools: readonly ToolSchema[]): void {
    this.log({ op: 'rebase', system, tools: [...tools] });
    this.conversation.setSystem(system);
    this.toolsChars = tools.length === 0 ? 0 : JSON.stringify(tools).length;
  }

  /** Where the window comes from: a fixed number (a subagent's, a test's) or a function that asks its owner. */
  setWindow(window: WindowSource): void {
    this.budget.setWindow(window);
  }

  /** Figures for the status line and `/tokens`. */
  stats(): { estimateTokens: number; window?: number; threshold?: number; payloads: number; shed: number; folded: number; messages: number; imageTokens: number } {
    let liveImages = 0;
    let payloads = 0;
    let shed = 0;
    const entries = this.conversation.entries;
    for (const entry of entries) {
      if (entry.kind === 'message' && entry.images?.live) liveImages += entry.images.list.length;
      if (entry.kind === 'tool' && entry.shed) shed++;
      else if (entry.kind === 'tool' && entry.payload !== '') payloads++;
    }
    return {
      imageTokens: liveImages * IMAGE_TOKENS,
      estimateTokens: this.tokens(),
      window: this.budget.window,
      threshold: this.budget.threshold,
      payloads,
      shed,
      folded: this.conversation.recap.rounds,
      messages: entries.length,
    };
  }

  private pushUser(text: string, prompt: boolean): void {
    const conversation = this.conversation;
    const last = conversation.last;
    if (last.kind === 'message' && last.message.role === 'user' && !last.sent && typeof last.message.content === 'string') {
      last.message = { role: 'user', content: last.message.content === '' ? text : `${last.message.content}\n\n${text}` };
      conversation.touch(last);
      if (prompt) {
        last.prompt = true;
        last.turn = conversation.turn;
      }
      return;
    }
    // The model answered nothing to what was sent last: an empty assistant message goes between.
    if (isUser(last) || (last.kind === 'tool' && last.sent)) conversation.push({ kind: 'message', message: { role: 'assistant', content: '' }, turn: conversation.turn });
    conversation.push({ kind: 'message', message: { role: 'user', content: text }, turn: conversation.turn, ...(prompt ? { prompt: true } : {}) });
  }

  private tokens(): number {
    return this.estimate.request(this.chars(), this.conversation.prefixVersion, this.conversation.digits());
  }

  /** The system prompt and the tools array. */
  private fixedChars(): number {
    return this.conversation.render(this.conversation.entries[0]!).size + this.toolsChars;
  }

  /**
   * Window unknown: results older than the newest round went as summaries and never go back to
   * payloads (a window found later leaves them so), so their payloads are let go.
   */
  private releaseOldPayloads(): void {
    for (const entry of this.conversation.entries) {
      if (entry.kind !== 'tool' || entry.shed || entry.payload === '' || entry.round >= this.conversation.round) continue;
      shedPayload(entry);
      this.conversation.touch(entry);
    }
  }
}
