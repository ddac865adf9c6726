import type { Usage } from '../model-io/protocol.js';

/** Prefilled tokens beyond the appended ones that are not worth a flag (a generation prompt re-rendered). */
export const REPREFILL_SLACK_TOKENS = 32;

export type ReprefillCause = 'compaction' | 'template' | 'subagent-wave' | 'engine';

/** What a compaction event's request carried that the engine held before (context manager estimates, in tokens). */
export interface CompactionFact {
  /** The messages the event kept as sent, from its first change on. */
  keptTokens: number;
  /** All the engine held of the request: system prompt, tools, task, kept messages. */
  heldTokens: number;
}

/** One request's figures. */
export interface RequestCache {
  /** 1-based over the session's main-agent requests. */
  request: number;
  promptTokens: number;
  cachedTokens: number;
  /** Tokens the engine evaluated (its own count, or prompt − cached). */
  prefilledTokens: number;
  /** Prompt tokens added since the previous request (undefined for the first). */
  appendedTokens?: number;
  /** Set when the request prefilled more than was appended. */
  reprefill?: { tokens: number; cause: ReprefillCause; detail: string };
  /**
   * The server reported no cache figures (no llama.cpp `timings`, no `cached_tokens`: common on
   * hosted APIs): `cachedTokens` is 0 for want of a number, not a miss, and nothing is flagged.
   */
  cacheUnreported?: true;
  /** A compaction event's request: the tokens it kept, and those the engine prefilled again (when it reports its cache). */
  compaction?: { keptTokens: number; reprefilledTokens?: number };
}

/** What the compaction events of a session cost the engine. */
export interface CompactionCost {
  events: number;
  /** Tokens the events kept verbatim (estimated). */
  keptTokens: number;
  /** Of the events whose engine reported its cache: how many, what they kept, and what it prefilled again. */
  measured: number;
  measuredKeptTokens: number;
  reprefilledTokens: number;
}

export interface CacheTotals {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  prefilledTokens: number;
  /** The flagged requests. */
  reprefills: RequestCache[];
  /** Requests whose server reported no cache figures. */
  unreported: number;
  compaction: CompactionCost;
}

/** What is known about the request whose usage came in. */
export interface RequestFacts {
  /** The request followed a compaction event: what it kept. */
  compaction?: CompactionFact;
  /** The template check found the rendered prompt changed at this request (its description). */
  template?: string;
  /** A subagent wave ran in the engine's only slot since the previous request. */
  sharedSlotWave?: boolean;
}

/**
 * The real prefix-cache figures of the main agent's requests, one entry per request, as the
 * engine reported them (llama.cpp `timings.cache_n`/`prompt_n`, or
 * `usage.prompt_tokens_details.cached_tokens`). The one owner of these facts: the status line,
 * `/tokens`, `--json`, `--stream` and `reika doctor` ask it.
 *
 * A request should only prefill what was appended since the previous one (the previous prompt
 * stays cached). One that prefilled more is flagged, with the cause when reika knows it: a
 * compaction event (its prefix changed on purpose), the chat template (the template check saw
 * the rendered prompt change), a subagent wave that ran in the engine's only slot, else the
 * engine dropped its cache by itself (eviction, another client, a restart).
 *
 * A compaction event's request is measured against what the engine held: the event keeps the
 * system prompt, tools, task and newest messages as they were sent, so an engine that finds them
 * again prefills only what is new (the active round, the recap). What it prefilled beyond that is
 * the event's cost: the kept history prefilled again, which llama.cpp's `--cache-reuse` avoids by
 * moving the cached chunks instead.
 */
export class CacheLedger {
  private readonly entries: RequestCache[] = [];
  private readonly facts = new Map<number, RequestFacts>();
  private previousPrompt: number | undefined;
  private requests = 0;
  /** Entries before this one belong to an earlier conversation: {@link last} does not show them. */
  private conversationStart = 0;

  /** A request goes out: returns its number (1-based over the session). */
  begin(facts: RequestFacts = {}): number {
    this.requests++;
    this.facts.set(this.requests, facts);
    return this.requests;
  }

  /** The engine's usage for request `request`; returns its figures (null usage: nothing to record). */
  record(request: number, usage: Usage | null): RequestCache | undefined {
    const facts = this.facts.get(request) ?? {};
    this.facts.delete(request);
    if (!usage) {
      this.previousPrompt = undefined;
      return undefined;
    }
    const prefilled = usage.prefilledTokens ?? Math.max(0, usage.promptTokens - usage.cachedTokens);
    const entry: RequestCache = { request, promptTokens: usage.promptTokens, cachedTokens: usage.cachedTokens, prefilledTokens: prefilled };
    const reported = usage.cacheFrom !== undefined || usage.prefilledTokens !== undefined;
    if (!reported) entry.cacheUnreported = true;
    if (facts.compaction) {
      // New to the engine: what the request has beyond what it held; anything prefilled past that is the event's cost.
      const again = reported ? Math.min(prefilled, Math.max(0, prefilled - (usage.promptTokens - facts.compaction.heldTokens))) : undefined;
      entry.compaction = { keptTokens: facts.compaction.keptTokens, ...(again !== undefined ? { reprefilledTokens: again } : {}) };
    }
    if (this.previousPrompt !== undefined && reported) {
      const appended = Math.max(0, usage.promptTokens - this.previousPrompt);
      entry.appendedTokens = appended;
      // At an event the prompt shrinks (nothing "appended"): its cost is what the engine prefilled again of what it held.
      const extra = entry.compaction?.reprefilledTokens ?? prefilled - appended;
      if (extra > REPREFILL_SLACK_TOKENS) entry.reprefill = { tokens: extra, ...causeOf(facts, entry.compaction) };
    }
    this.previousPrompt = usage.promptTokens;
    this.entries.push(entry);
    return copy(entry);
  }

  /** A new conversation or system prompt: the next request starts the prefix over, unflagged. */
  restart(): void {
    this.previousPrompt = undefined;
  }

  /** `/new`, `/cd`, `/resume`: the prefix starts over, and the last request is no longer this conversation's. */
  newConversation(): void {
    this.restart();
    this.conversationStart = this.entries.length;
  }

  /** Attaches the template's cause, found after the figures came in (or before: kept for them). */
  explain(request: number, template: string): void {
    const pending = this.facts.get(request);
    if (pending) pending.template ??= template;
    const entry = this.entries.find((e) => e.request === request);
    if (entry?.reprefill && entry.reprefill.cause === 'engine') entry.reprefill = { tokens: entry.reprefill.tokens, cause: 'template', detail: template };
  }

  /** The current conversation's last request (none yet after `/new`); the totals keep every request. */
  last(): RequestCache | undefined {
    const last = this.entries.length > this.conversationStart ? this.entries.at(-1) : undefined;
    return last ? copy(last) : undefined;
  }

  totals(): CacheTotals {
    const compaction: CompactionCost = { events: 0, keptTokens: 0, measured: 0, measuredKeptTokens: 0, reprefilledTokens: 0 };
    const totals: CacheTotals = { requests: this.entries.length, promptTokens: 0, cachedTokens: 0, prefilledTokens: 0, reprefills: [], unreported: 0, compaction };
    for (const entry of this.entries) {
      if (entry.cacheUnreported) totals.unreported++;
      totals.promptTokens += entry.promptTokens;
      totals.cachedTokens += entry.cachedTokens;
      totals.prefilledTokens += entry.prefilledTokens;
      if (entry.reprefill) totals.reprefills.push(copy(entry));
      if (!entry.compaction) continue;
      compaction.events++;
      compaction.keptTokens += entry.compaction.keptTokens;
      if (entry.compaction.reprefilledTokens === undefined) continue;
      compaction.measured++;
      compaction.measuredKeptTokens += entry.compaction.keptTokens;
      compaction.reprefilledTokens += entry.compaction.reprefilledTokens;
    }
    return totals;
  }
}

function copy(entry: RequestCache): RequestCache {
  return { ...entry, ...(entry.reprefill ? { reprefill: { ...entry.reprefill } } : {}), ...(entry.compaction ? { compaction: { ...entry.compaction } } : {}) };
}

/**
 * Whether llama.cpp's `--cache-reuse` would have spared this session's compaction events most of
 * their cost: the engine prefilled again at least half of what they kept, and enough for it to
 * matter (a few hundred tokens a measured event). The sentence saying so, or undefined.
 */
export function cacheReuseAdvice(cost: CompactionCost): string | undefined {
  if (cost.measured === 0 || cost.reprefilledTokens < 256 * cost.measured || cost.reprefilledTokens < 0.5 * cost.measuredKeptTokens) return undefined;
  return `at ${cost.measured} compaction event${cost.measured === 1 ? '' : 's'} the engine prefilled again ${cost.reprefilledTokens} tokens of the ${cost.measuredKeptTokens} it held and reika kept verbatim; llama-server --cache-reuse 64 moves them in its cache instead`;
}

function causeOf(facts: RequestFacts, compaction: RequestCache['compaction']): { cause: ReprefillCause; detail: string } {
  if (facts.compaction) {
    const again = compaction?.reprefilledTokens;
    const cost = again === undefined ? '' : again <= REPREFILL_SLACK_TOKENS ? ': the engine found the kept history in its cache' : `: the engine prefilled again ${again} of the ${compaction!.keptTokens} tokens kept verbatim`;
    return { cause: 'compaction', detail: `a compaction event folded old rounds into a recap (on purpose, once)${cost}` };
  }
  if (facts.template) return { cause: 'template', detail: facts.template };
  if (facts.sharedSlotWave) return { cause: 'subagent-wave', detail: 'a subagent wave ran in the engine’s only slot and evicted the main context (llama-server -np gives each its own)' };
  return { cause: 'engine', detail: 'the engine no longer had the previous prompt cached (evicted, another client, or a restart)' };
}

/** `request 5: 12k re-prefilled (compaction …)`. */
export function describeReprefill(entry: RequestCache): string {
  return `request ${entry.request} prefilled ${entry.prefilledTokens} tokens for ${entry.appendedTokens ?? 0} appended: ${entry.reprefill?.detail ?? ''}`;
}
