import type { Usage } from '../model-io/protocol.js';
import type { UsageTotals } from './events.js';

/** A ledger as plain data: what a transcript stores and {@link UsageLedger.restore} takes back. */
export interface UsageLedgerState {
  totals: UsageTotals;
  /** Chat requests of the session (`/new` and `/cd` keep counting, as they keep the sums). */
  requests: number;
  /** The usage of the conversation's last request that reported any. */
  last?: Usage;
}

/**
 * The one place where usage is summed: a session keeps one for its whole life (the status line
 * and `/tokens` read it while a turn runs), a turn keeps one for its result. Nobody else adds
 * token counts.
 */
export class UsageLedger {
  private readonly sums: UsageTotals = emptyTotals();
  private requestCount = 0;
  private lastUsage: Usage | undefined;

  static restore(state: UsageLedgerState): UsageLedger {
    const ledger = new UsageLedger();
    Object.assign(ledger.sums, state.totals);
    ledger.requestCount = state.requests;
    ledger.lastUsage = state.last ? { ...state.last } : undefined;
    return ledger;
  }

  /** A chat request went out. */
  countRequest(): void {
    this.requestCount++;
  }

  /** The server's usage for one reply. */
  record(usage: Usage): void {
    this.sums.promptTokens += usage.promptTokens;
    this.sums.completionTokens += usage.completionTokens;
    this.sums.cachedTokens += usage.cachedTokens;
    this.sums.reported++;
    this.lastUsage = usage;
  }

  /** A copy of the sums. */
  get totals(): UsageTotals {
    return { ...this.sums };
  }

  get requests(): number {
    return this.requestCount;
  }

  get last(): Usage | undefined {
    return this.lastUsage;
  }

  /** Cached / prompt tokens (0 when nothing was reported). */
  get cacheHitRate(): number {
    return this.sums.promptTokens > 0 ? this.sums.cachedTokens / this.sums.promptTokens : 0;
  }

  /**
   * A new conversation (`/new`, `/cd`): its last usage goes; the request count and the sums stay,
   * so `/tokens`, `/doctor` and the exit line count the same requests.
   */
  newConversation(): void {
    this.lastUsage = undefined;
  }

  snapshot(): UsageLedgerState {
    return { totals: this.totals, requests: this.requestCount, ...(this.lastUsage ? { last: { ...this.lastUsage } } : {}) };
  }
}

export function emptyTotals(): UsageTotals {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reported: 0 };
}
