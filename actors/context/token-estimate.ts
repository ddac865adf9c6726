/**
 * Token estimate: characters / 4, corrected by the prompt-token counts the server reports.
 *
 * Every request's serialised size is known exactly; when the reply's usage says how many prompt
 * tokens the server counted, the ratio between the two becomes the correction factor for later
 * estimates. The factor is smoothed and clamped so one odd report cannot swing it wildly.
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
    // The first report replaces the guess; later ones are averaged in, newest weighted most.
    this.factorValue = this.samples === 0 ? observed : clamp(this.factorValue * 0.5 + observed * 0.5);
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
