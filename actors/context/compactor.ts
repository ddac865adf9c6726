import { tokensOf, type ContextParts } from './context-parts.js';
import { sized, type Entry } from './conversation.js';
import { shedOrder } from './shed-order.js';
import { renderToolEntry, shedPayload, type ToolEntry } from './tool-entry.js';

/**
 * Compaction events (SPEC §5): the oldest payloads are shed (large before small) and, if that is
 * not enough, whole old rounds are folded, oldest first, into the recap; the task and the active
 * round are protected. An event makes room for {@link ROOM_REQUESTS} more requests at the pace the
 * session has been growing: it goes down at least to {@link COMPACT_TO} of the threshold and keeps
 * at least {@link KEEP_SHARE} of the history, so events stay rare. The recap stays within
 * {@link RECAP_SHARE} of the threshold.
 */

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
 * The recap takes at most this share of the threshold; its oldest lines go first. (0.1 would cost
 * a 16k session of 300 rounds a 15th event: one per 20 rounds, the limit.)
 */
export const RECAP_SHARE = 0.05;
/** The recap budget when the window is unknown (a `/compact` by hand). */
const UNKNOWN_WINDOW_RECAP_CHARS = 8_000;

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

export class Compactor {
  /** Requests prepared so far. */
  private requests = 0;
  /** Where the growth since the last event is measured from. */
  private pace: { requests: number; tokens: number } | undefined;

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
   * One compaction event. Payloads first (oldest, large before small), then whole rounds folded
   * into the recap, oldest first, until the estimate is at the target (manual: all it can). The
   * task, the active round and what follows it are protected. An event that would not make the
   * context smaller changes nothing.
   */
  compact(reason: Compaction['reason']): Compaction | undefined {
    const { conversation, estimate } = this.parts;
    const beforeTokens = tokensOf(this.parts);
    const target = this.target(reason, beforeTokens);
    const protectedFrom = conversation.protectedFrom();
    const threshold = this.parts.budget.threshold;
    const largeChars = threshold === undefined ? 8_000 : estimate.chars(threshold / 10);
    const candidates: Array<Entry & ToolEntry> = [];
    for (let i = 1; i < protectedFrom; i++) {
      const entry = conversation.entries[i]!;
      if (entry.kind === 'tool') candidates.push(entry);
    }
    let chars = this.parts.chars();
    let shed = 0;
    for (const entry of shedOrder(candidates, largeChars)) {
      if (estimate.tokens(chars) <= target) break;
      const before = conversation.render(entry).size;
      const after = sized(renderToolEntry({ ...entry, shed: true, payload: '' }, true)).size;
      if (after >= before) continue; // a payload shorter than the note that would replace it
      shedPayload(entry);
      conversation.touch(entry);
      chars += after - before;
      shed++;
    }
    const folded = estimate.tokens(chars) > target ? this.foldRounds(target) : 0;
    if (shed === 0 && folded === 0) return undefined;
    const afterTokens = tokensOf(this.parts);
    this.pace = { requests: this.requests, tokens: afterTokens };
    return { reason, shed, folded, beforeTokens, afterTokens };
  }

  /**
   * Folds units (rounds, answers, requests of earlier turns) oldest first into the recap until the
   * estimate is at `target`; kept only if the context got smaller. Returns the rounds folded.
   */
  private foldRounds(target: number): number {
    const { conversation, estimate } = this.parts;
    const restore = conversation.snapshot();
    const before = this.parts.chars();
    const threshold = this.parts.budget.threshold;
    const budget = threshold === undefined ? UNKNOWN_WINDOW_RECAP_CHARS : estimate.chars(threshold * RECAP_SHARE);
    let rounds = 0;
    // In batches sized by what is still above the target; each batch is checked on the real estimate.
    for (let tokens = tokensOf(this.parts); tokens > target; tokens = tokensOf(this.parts)) {
      const folded = conversation.foldOldest(estimate.chars(tokens - target));
      if (folded === undefined) break;
      rounds += folded;
      conversation.recap.fit(budget);
      conversation.rehost();
    }
    if (this.parts.chars() >= before || (rounds === 0 && conversation.recap.empty)) {
      restore();
      return 0;
    }
    return rounds;
  }

  /** The estimate an automatic event goes down to (0 by hand: all it can). */
  private target(reason: Compaction['reason'], now: number): number {
    const threshold = this.parts.budget.threshold;
    if (reason === 'manual' || threshold === undefined) return 0;
    const { conversation, estimate } = this.parts;
    const task = conversation.taskIndex();
    const fixed = estimate.tokens(this.parts.fixedChars() + (task > 0 ? conversation.render(conversation.entries[task]!).size : 0));
    const floor = fixed + KEEP_SHARE * Math.max(0, threshold - fixed);
    const pace = this.pace ? Math.max(0, now - this.pace.tokens) / Math.max(1, this.requests - this.pace.requests) : 0;
    return Math.floor(Math.min(COMPACT_TO * threshold, Math.max(floor, threshold - ROOM_REQUESTS * pace)));
  }
}
