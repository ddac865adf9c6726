/**
 * When and how long to wait before trying a failed request again. 429 and 5xx are retried with
 * exponential backoff that honours `Retry-After`; lost connections are retried a bounded number
 * of times; everything else fails at once.
 */
export interface RetryPolicy {
  /** Retries of 429/5xx answers (default 4). */
  maxRetries: number;
  /** Retries of refused or lost connections (default 2: a server that is not running is said at once). */
  maxConnectionRetries: number;
  /** First backoff, doubled on each retry (default 500 ms). */
  baseDelayMs: number;
  /** Cap for one backoff (default 8 s). */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is reported (default 60 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, maxConnectionRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** HTTP statuses worth another try: rate limits, overload and transient server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** Parses `Retry-After` (seconds, possibly fractional, or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Milliseconds to wait before retry number `attempt` (1-based), or undefined when the policy says
 * stop. `retryAfterMs` from the server wins over the backoff; jitter (±20 %) spreads retries of
 * parallel subagents so they do not hit the server in lockstep.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  if (attempt > policy.maxRetries) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs > policy.maxRetryAfterMs ? undefined : retryAfterMs;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff * (0.8 + 0.4 * random()));
}
