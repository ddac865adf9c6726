import type { Conversation } from './conversation.js';
import type { TokenEstimate } from './token-estimate.js';
import type { WindowBudget } from './window-budget.js';

/** What the context manager's policies (compaction, cuts of new payloads) work on; the manager owns each. */
export interface ContextParts {
  readonly conversation: Conversation;
  readonly estimate: TokenEstimate;
  readonly budget: WindowBudget;
  /** Serialised size of the messages and the tools array: what the estimate counts. */
  chars(): number;
  /** Of that, the system prompt and the tools array (what no compaction can shrink). */
  fixedChars(): number;
  /** The whole request's estimate in tokens (anchored on the server's last count while it can be). */
  tokens(): number;
}

/** The estimate of the whole request, in tokens. */
export function tokensOf(parts: ContextParts): number {
  return parts.tokens();
}
