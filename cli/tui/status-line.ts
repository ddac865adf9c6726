import type { Style } from './style.js';
import { truncate } from './text-width.js';

/** What the status line shows; every figure comes from the session. */
export interface StatusFacts {
  model: string;
  profile?: string;
  mode: string;
  approvals: string;
  /** Estimated tokens the next request carries. */
  contextTokens: number;
  contextWindow?: number;
  /** Sums over the session's requests, from the server's usage reports. */
  promptTokens: number;
  cachedTokens: number;
  /** The last request's real figures: prompt tokens the engine prefilled, and whether that was more than was appended. */
  lastRequest?: { prefilledTokens: number; reprefill?: unknown };
}

/** `1234` → `1.2k`, `32768` → `33k`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Prefix-cache hit rate: cached prompt tokens over all prompt tokens, or undefined before any usage. */
export function cacheHitRate(facts: Pick<StatusFacts, 'promptTokens' | 'cachedTokens'>): number | undefined {
  return facts.promptTokens > 0 ? facts.cachedTokens / facts.promptTokens : undefined;
}

export function contextShare(facts: Pick<StatusFacts, 'contextTokens' | 'contextWindow'>): number | undefined {
  return facts.contextWindow ? facts.contextTokens / facts.contextWindow : undefined;
}

/**
 * One line, cut to the terminal width:
 * `qwen3-coder · agent · approvals safe · ctx 12k/32k (38%) · cache 91% · prefill 120`: the
 * session's hit rate, then what the engine prefilled for the last request (`!` when it was more
 * than the request appended: `/tokens` says why).
 */
export function statusLine(facts: StatusFacts, columns: number, style: Style): string {
  const share = contextShare(facts);
  const hit = cacheHitRate(facts);
  const context = facts.contextWindow
    ? `ctx ${formatTokens(facts.contextTokens)}/${formatTokens(facts.contextWindow)} (${Math.round((share ?? 0) * 100)}%)`
    : `ctx ${formatTokens(facts.contextTokens)}`;
  const model = facts.profile && facts.profile !== 'default' ? `${facts.model || '?'} [${facts.profile}]` : facts.model || 'model ?';
  const parts = [model, facts.mode, `approvals ${facts.approvals}`, context, `cache ${hit === undefined ? '–' : `${Math.round(hit * 100)}%`}`];
  // The last request's prefill when it fits; always when it re-prefilled more than it appended.
  const last = facts.lastRequest;
  if (last) {
    const prefill = `prefill ${formatTokens(last.prefilledTokens)}${last.reprefill ? '!' : ''}`;
    if (last.reprefill || [...parts, prefill].join(' · ').length <= columns - 1) parts.push(prefill);
  }
  return style.dim(truncate(parts.join(' · '), columns - 1));
}
