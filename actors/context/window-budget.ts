import { ReikaError } from '../../runtime/errors.js';
import type { Usage } from '../model-io/protocol.js';

/**
 * A request leaves room for its estimate to be this much low (the factor errs high and is
 * corrected by every count the server reports), plus {@link SLACK_TOKENS}.
 */
export const ESTIMATE_SLACK = 1.05;
/**
 * max_tokens leaves this much room when no part of the request was counted as it stands (the first
 * request after a compaction event): the one factor, learnt on whole requests, misses when their mix
 * changes (the system prompt's paths, a log's digits, code). Never below the floor.
 */
export const UNANCHORED_SLACK = 1.15;
const SLACK_TOKENS = 64;
/** max_tokens is never less than this (nor than a quarter of the window, nor than REIKA_MAX_TOKENS). */
export const MAX_TOKENS_FLOOR = 1_024;
/** Generation reserved when REIKA_MAX_TOKENS is not set: a quarter of the window, at most this… */
export const DEFAULT_RESERVE = 8_192;
/**
 * …and once replies were seen, twice the longest of the last {@link RECENT_REPLIES}, at least this:
 * the floor, so a session of short replies (tool calls) keeps for them what the floor promises
 * and no more. At 2,048 a 16k window kept 1k more than a reply of 512 tokens could use, and its
 * threshold sat 1k lower (through llama-server: one compaction event more in 80 rounds).
 */
export const MIN_RESERVE = MAX_TOKENS_FLOOR;
const RECENT_REPLIES = 8;
/** max_tokens when REIKA_MAX_TOKENS is not set (still never more than what fits). */
export const DEFAULT_MAX_OUTPUT = 16_384;

/** Where the window comes from: a fixed number (a subagent's, a test's) or a function that asks its owner. */
export type WindowSource = number | (() => number | undefined) | undefined;

/**
 * How a context window is shared between the request and the reply (SPEC §5): the reserve kept
 * for the reply, the threshold past which a compaction event happens, and the max_tokens a request
 * goes with. The window is asked of its owner each time; the reserve follows the replies seen.
 */
export class WindowBudget {
  /** The window's owner, asked each time. */
  private windowOf: () => number | undefined = () => undefined;
  /** REIKA_MAX_TOKENS, when set. */
  readonly maxTokensSetting: number | undefined;
  /** Completion tokens of the last few replies (Infinity: cut by max_tokens). */
  private readonly replies: number[] = [];

  constructor(window: WindowSource, maxTokens: number | undefined) {
    this.setWindow(window);
    this.maxTokensSetting = maxTokens && maxTokens > 0 ? maxTokens : undefined;
  }

  setWindow(window: WindowSource): void {
    this.windowOf = typeof window === 'function' ? window : () => window;
  }

  /** The window in tokens; undefined when unknown. */
  get window(): number | undefined {
    const window = this.windowOf();
    return window && window > 0 ? window : undefined;
  }

  /**
   * Tokens kept free for the reply: REIKA_MAX_TOKENS, else twice the longest of the last replies
   * (at least {@link MIN_RESERVE}), else a quarter of the window; never more than a quarter nor
   * than {@link DEFAULT_RESERVE}. Tool calls are short, so a session of them runs fuller between
   * events; a reply cut by max_tokens brings the full reserve back, and with it a compaction.
   */
  get reserve(): number {
    const window = this.window;
    if (window === undefined) return 0;
    const most = Math.min(this.maxTokensSetting ?? DEFAULT_RESERVE, Math.floor(window / 4));
    if (this.maxTokensSetting !== undefined || this.replies.length === 0) return most;
    return Math.min(most, Math.max(MIN_RESERVE, 2 * Math.max(...this.replies)));
  }

  /** The estimate past which a compaction event happens: the reply would get less than the reserve (undefined with the window unknown). */
  get threshold(): number | undefined {
    const window = this.window;
    if (window === undefined) return undefined;
    return Math.floor((window - this.reserve - SLACK_TOKENS) / ESTIMATE_SLACK);
  }

  /** The smallest max_tokens a request goes with (undefined with the window unknown). */
  get maxTokensFloor(): number | undefined {
    const window = this.window;
    if (window === undefined) return undefined;
    return Math.min(MAX_TOKENS_FLOOR, Math.floor(window / 4), this.maxTokensSetting ?? Infinity);
  }

  /** A reply's length (or a cut by max_tokens) sizes the reserve. */
  recordReply(usage: Usage | null, finishReason?: string): void {
    const need = finishReason === 'length' ? Infinity : usage?.completionTokens;
    if (need === undefined) return;
    this.replies.push(need);
    if (this.replies.length > RECENT_REPLIES) this.replies.shift();
  }

  /**
   * What is left of the window for the reply, with a margin: an estimate a little low must not
   * make the engine refuse prompt + max_tokens (vLLM does). Before the server has reported a
   * count (`calibrated` false) the estimate may be far off, so the reply gets less, though never
   * less than the floor; a request that does not start with the last one counted (`anchored`
   * false) gets {@link UNANCHORED_SLACK}.
   */
  maxTokensFor(estimateTokens: number, calibrated: boolean, anchored = true): number | undefined {
    const window = this.window;
    if (window === undefined) return this.maxTokensSetting;
    const fits = window - Math.ceil(estimateTokens * ESTIMATE_SLACK) - SLACK_TOKENS;
    const slack = !calibrated ? 1.5 : anchored ? ESTIMATE_SLACK : UNANCHORED_SLACK;
    const safe = window - Math.ceil(estimateTokens * slack) - SLACK_TOKENS;
    const floor = Math.min(this.maxTokensFloor!, fits);
    return Math.max(0, Math.min(this.maxTokensSetting ?? DEFAULT_MAX_OUTPUT, Math.max(floor, safe)));
  }

  /**
   * The error for a request that cannot leave the reply its floor even after compaction, saying
   * what fills it (`fixedTokens`: the system prompt and tools).
   */
  overflow(estimateTokens: number, fixedTokens: number): ReikaError {
    const fmt = (n: number) => n.toLocaleString('en-US');
    // Mostly system prompt (a big repo map in a small window): say which setting shrinks it.
    const why = fixedTokens * 2 > estimateTokens ? `, ${fmt(fixedTokens)} of them the system prompt and tools; a smaller REIKA_REPO_MAP_BUDGET shrinks the repo map in it` : '';
    return new ReikaError(
      'REIKA_ERR_CONTEXT_FULL',
      `the request does not fit the ${fmt(this.window!)}-token context window even after compaction (about ${fmt(estimateTokens)} tokens of system prompt, task and newest tool round${why}); use a larger window (REIKA_CONTEXT_WINDOW) or a shorter request`,
    );
  }
}
