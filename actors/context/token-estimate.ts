/** The uncalibrated rule of thumb. */
export const CHARS_PER_TOKEN = 4;
/** What a digit in the new part of an anchored request weighs, in characters. */
export const DIGIT_CHARS = 4;
const MIN_FACTOR = 0.5;
const MAX_FACTOR = 3;

/**
 * Token estimate: characters / 4, corrected by the prompt-token counts the server reports.
 *
 * A request that starts with the last one counted (nothing sent has changed since) is that count
 * plus an estimate of what was added: only the new part is guessed. Through a real llama-server
 * (80 rounds at 16k) the factor alone was off by up to 3% on such requests, 11% after
 * a big digit-heavy log had gone out (its count pulled the factor up, and the factor eases down
 * slowly); anchored they are within 1.1%. In the new part a digit weighs {@link DIGIT_CHARS}
 * characters, about a token: the tokenizers of most local models (Qwen, Llama 2, Mistral, Gemma)
 * give each digit its own, and a 120-line build log with timestamps made 2.3 characters a token
 * against 3.15 for code (counted as plain characters it was estimated 35% low, and the request
 * passed the window with its max_tokens). The factor itself is learnt on plain sizes: weighed
 * there, a tokenizer that groups digits pulls it down while digits are in the requests, and the
 * request after an event, with few of them, is estimated low.
 *
 * Every request's serialised size is known exactly; when the reply's usage says how many prompt
 * tokens the server counted, the ratio between the two becomes the correction factor for later
 * estimates. The factor errs high, because an estimate that is low is a request the engine
 * refuses: a report above it is taken at once, one below it only pulls it down by a quarter (the
 * mix of prose and code shifts the ratio from request to request). It is clamped so one odd
 * report cannot swing it wildly.
 */
export class TokenEstimate {
  private factorValue = 1;
  private samples = 0;
  /** The server's count of the last request, and the conversation's prefix version it was made at. */
  private anchor: { chars: number; digits: number; tokens: number; version: number } | undefined;

  /** Estimated tokens for `chars` characters of request text. */
  tokens(chars: number): number {
    return Math.ceil((chars / CHARS_PER_TOKEN) * this.factorValue);
  }

  /** Characters that fit in `tokens` tokens (the inverse of {@link tokens}). */
  chars(tokens: number): number {
    return Math.max(0, Math.floor((tokens * CHARS_PER_TOKEN) / this.factorValue));
  }

  /**
   * Estimated tokens of a whole request of `chars` characters (`digits` of them digits) made at
   * prefix version `version`: the last count plus the new part's estimate, its digits weighed
   * {@link DIGIT_CHARS}, while the request starts with the one counted.
   */
  request(chars: number, version: number, digits = 0): number {
    const anchor = this.anchor;
    if (!this.anchored(chars, version)) return this.tokens(chars);
    const newDigits = Math.max(0, Math.min(chars - anchor!.chars, digits - anchor!.digits));
    return anchor!.tokens + this.tokens(chars - anchor!.chars + (DIGIT_CHARS - 1) * newDigits);
  }

  /** Whether a request of `chars` characters made at prefix version `version` starts with the last one counted. */
  anchored(chars: number, version: number): boolean {
    const anchor = this.anchor;
    return anchor !== undefined && anchor.version === version && chars >= anchor.chars;
  }

  /**
   * The server counted `promptTokens` for the request of `chars` characters (`digits` digits)
   * made at prefix version `version`: calibrates the factor, and the count becomes the next
   * requests' anchor.
   */
  count(chars: number, promptTokens: number, version: number, digits = 0): void {
    if (!(chars > 0) || !(promptTokens > 0)) return;
    this.calibrate(chars, promptTokens);
    this.anchor = { chars, digits, tokens: promptTokens, version };
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
