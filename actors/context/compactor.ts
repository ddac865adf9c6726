import { tokensOf, type ContextParts } from './context-parts.js';

// Compaction events (SPEC §5): whole old units (a round, an answer, an earlier request)
// are folded, oldest first, into the recap; the task and the active round are protected, and
// what is kept stays exactly as it was sent, in one piece after the task. The recap rides in the
// newest message, after the kept part (recap.ts): an engine that holds the old prompt keeps the
// system prompt, tools and task as its prefix, and one that reuses moved chunks (llama.cpp
// `--cache-reuse`) finds the kept history again too. Nothing is shed in place any more: a
// payload replaced by its summary in the middle of the kept part made the engine prefill all
// after it again.
//
// How much an event keeps verbatim depends on what the engine does with it. One that moves cached
// chunks (llama.cpp `--cache-reuse`) holds the kept part still, so keeping it costs nothing: the
// event then makes room for {@link ROOM_REQUESTS} more requests at the pace the session has been
// growing, goes down at least to {@link COMPACT_TO} of the threshold and keeps at least
// {@link KEEP_SHARE} of the history verbatim. Any other engine (a plain prefix cache: llama.cpp
// without the flag, vLLM, SGLang, hosted APIs) prefills the kept part again at every event, so an
// event keeps only the active round and the newest rounds within {@link KEEP_SHARE_PREFIX} of
// the history, and goes deep, so that events are few. Which one it is, the engine says: the first
// event's request tells whether its cache covered the kept part ({@link Compactor.observe}). The
// recap stays within {@link RECAP_SHARE} of the threshold.

/** An event goes at least this far down (share of the threshold)… */
export const COMPACT_TO = 0.7;
/** …and further when the session grows fast: room for this many more requests at its pace… */
export const ROOM_REQUESTS = 24;
/**
 * …but keeps at least this share of the history budget (the threshold less system prompt, tools
 * and task) verbatim, the newest rounds as they were sent (~30% verbatim beside the recap). At 0.1 a 16k session of reads kept 5–9% (little more than the active round); 0.3 keeps
 * 22–29% for 14 events in 300 rounds instead of 12.
 */
export const KEEP_SHARE = 0.3;
/**
 * With an engine that prefills the kept part again at each event (a plain prefix cache), an event
 * keeps the active round, the recap and the newest rounds within this share of the history budget.
 * Through llama-server at 16k (80 rounds of reads): 30% kept made 18% of all prefill
 * re-prefill at events; this share keeps about one round beside the active one.
 */
export const KEEP_SHARE_PREFIX = 0.1;
/** An event shows whether the engine found what it kept only when it kept at least this many tokens. */
const EVIDENCE_TOKENS = 256;
/**
 * The recap takes at most this share of the threshold; its oldest lines go first. (0.1 would cost
 * a 16k session of 300 rounds a 15th event: one per 20 rounds, the limit.)
 */
export const RECAP_SHARE = 0.05;
/** The recap budget when the window is unknown (a `/compact` by hand). */
const UNKNOWN_WINDOW_RECAP_CHARS = 8_000;

/** One compaction event: what it folded and the estimate before and after. */
export interface Compaction {
  reason: 'auto' | 'manual';
  /**
   * Payloads replaced by their summaries in place: always 0 (an event folds whole units
   * and keeps the rest byte for byte); kept in the event for the output formats that print it.
   */
  shed: number;
  /** How many whole tool rounds were folded into the recap. */
  folded: number;
  beforeTokens: number;
  afterTokens: number;
  /** Estimated tokens of the messages the event kept as they were sent, from its first change on (what an engine must find again). */
  keptTokens: number;
  /**
   * Estimated tokens of all the event's request that the engine held before it: the system prompt,
   * tools, task and the kept messages (what it need not prefill again if it finds it all).
   */
  heldTokens: number;
}

export class Compactor {
  /** Requests prepared so far. */
  private requests = 0;
  /** Where the growth since the last event is measured from. */
  private pace: { requests: number; tokens: number } | undefined;
  /** The engine moves cached chunks: it found what the last measured event kept (see {@link observe}). */
  engineReuses = false;

  constructor(private readonly parts: ContextParts) {}

  /** A request is being prepared (the pace counts them). */
  countRequest(): void {
    this.requests++;
  }

  /** A request of `tokens` went out: the first after an event is where the pace is measured from. */
  sent(tokens: number): void {
    this.pace ??= { requests: this.requests, tokens };
  }

  /**
   * One compaction event: whole units folded into the recap, oldest first, until the estimate is
   * at the target (by hand: all it can). An event that would not make the context smaller changes
   * nothing.
   */
  compact(reason: Compaction['reason']): Compaction | undefined {
    const { conversation, estimate } = this.parts;
    const beforeTokens = tokensOf(this.parts);
    const target = this.target(reason, beforeTokens);
    const threshold = this.parts.budget.threshold;
    const budget = threshold === undefined ? UNKNOWN_WINDOW_RECAP_CHARS : estimate.chars(threshold * RECAP_SHARE);
    const restore = conversation.snapshot();
    conversation.beginEvent();
    const before = this.parts.chars();
    let folded = 0;
    let changed = false;
    // In batches sized by what is still above the target; each batch is checked on the real estimate.
    for (let tokens = beforeTokens; tokens > target; tokens = tokensOf(this.parts)) {
      const rounds = conversation.foldOldest(estimate.chars(tokens - target));
      if (rounds === undefined) break;
      folded += rounds;
      changed = true;
      conversation.placeRecap(budget);
    }
    if (!changed || this.parts.chars() >= before) {
      restore();
      return undefined;
    }
    const afterTokens = tokensOf(this.parts);
    this.pace = { requests: this.requests, tokens: afterTokens };
    return { reason, shed: 0, folded, beforeTokens, afterTokens, keptTokens: estimate.tokens(conversation.keptChars()), heldTokens: estimate.tokens(this.parts.fixedChars() - conversation.render(conversation.entries[0]!).size + conversation.sentChars()) };
  }

  /**
   * The engine's figures for the request that followed `event`: whether its cache covered at least
   * half of what the event kept beyond the part that stayed in place (the engine moved cached
   * chunks), or it prefilled the kept part again. `scale` is the engine's count of that request
   * over the estimate's (the event's figures are estimates, and the estimate errs high). An event
   * that kept too little to tell leaves the judgement as it was.
   */
  observe(event: Compaction, cachedTokens: number, scale: number): void {
    const kept = event.keptTokens * scale;
    if (kept < EVIDENCE_TOKENS) return;
    const inPlace = (event.heldTokens - event.keptTokens) * scale;
    this.engineReuses = cachedTokens - inPlace >= 0.5 * kept;
  }

  /** The estimate an automatic event goes down to (0 by hand: all it can). */
  private target(reason: Compaction['reason'], now: number): number {
    const threshold = this.parts.budget.threshold;
    if (reason === 'manual' || threshold === undefined) return 0;
    const { conversation, estimate } = this.parts;
    const task = conversation.taskIndex();
    const fixed = estimate.tokens(this.parts.fixedChars() + (task > 0 ? conversation.render(conversation.entries[task]!).size : 0));
    if (!this.engineReuses) {
      // What stays anyway (the active round, the recap at its budget), then the newest rounds within the share.
      let active = 0;
      for (let i = Math.max(1, conversation.protectedFrom()); i < conversation.entries.length; i++) if (i !== task) active += conversation.render(conversation.entries[i]!).size + 1;
      return Math.floor(fixed + estimate.tokens(active) + RECAP_SHARE * threshold + KEEP_SHARE_PREFIX * Math.max(0, threshold - fixed));
    }
    const floor = fixed + KEEP_SHARE * Math.max(0, threshold - fixed);
    const pace = this.pace ? Math.max(0, now - this.pace.tokens) / Math.max(1, this.requests - this.pace.requests) : 0;
    return Math.floor(Math.min(COMPACT_TO * threshold, Math.max(floor, threshold - ROOM_REQUESTS * pace)));
  }
}
