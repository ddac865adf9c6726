/**
 * Token estimate: characters / 4, corrected by the prompt-token counts the server reports.
 *
 * Every request's serialised size is known exactly; when the reply's usage says how many prompt
 * tokens the server counted, the ratio between the two becomes the correction factor for later
 * estimates. The factor errs high, because an estimate that is low is a request the engine
 * refuses: a report above it is taken at once, one below it only pulls it down by a quarter (the
 * mix of prose and code shifts the ratio from request to request). It is clamped so one odd
 * report cannot swing it wildly.
 */

/** The uncalibrated rule of thumb. */
export const CHARS_PER_TOKEN = 4;
const MIN_FACTOR = 0.5;
const MAX_FACTOR = 3;

export class TokenEstimate {
  private factorValue = 1;
  private samples = 0;

  /** Estimated tokens for `chars` characters of request text. */
  tokens(chars: number): number {
    return Math.ceil((chars / CHARS_PER_TOKEN) * this.factorValue);
  }

  /** Characters that fit in `tokens` tokens (the inverse of {@link tokens}). */
  chars(tokens: number): number {
    return Math.max(0, Math.floor((tokens * CHARS_PER_TOKEN) / this.factorValue));
  }

  /**
   * Records that a request of `chars` characters was counted as `promptTokens` by the server.
   * Ignores reports that cannot be right (zero or absent counts).
   */
  calibrate(chars: number, promptTokens: number): void {
    if (!(chars > 0) || !(promptTokens > 0)) return;
    const observed = clamp(promptTokens / (chars / CHARS_PER_TOKEN));
    // The first report replaces the guess; a higher one is taken at once, a lower one eased in.
    this.factorValue = this.samples === 0 || observed > this.factorValue ? observed : clamp(this.factorValue * 0.75 + observed * 0.25);
    this.samples++;
  }

  /** The current correction factor (1 until the server has reported). */
  get factor(): number {
    return this.factorValue;
  }

  get calibrated(): boolean {
    return this.samples > 0;
  }
}

function clamp(value: number): number {
  return Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, value));
}
