import type { ConversationState } from './conversation.js';

/**
 * A context manager between turns as plain data (JSON-safe): what a transcript stores so that a
 * resumed session sends the same bytes it sent before (the engine's prefix cache still matches)
 * and compacts at the same points. See `ContextManager.snapshot` and `ContextManager.restore`.
 */
export interface ContextSnapshot {
  conversation: ConversationState;
  /** The token estimate's calibration from the server's counts. */
  estimate: { factor: number; samples: number };
  /** Requests prepared so far. */
  requests: number;
  /** Serialised size of the last prepared request (what the next count calibrates). */
  lastChars: number;
  /** Completion tokens of the last few replies; null for a reply cut by max_tokens. */
  replies: (number | null)[];
  /** Where the growth since the last compaction event is measured from. */
  pace?: { requests: number; tokens: number };
  /** The engine facts the conversation was sent with (system placement, reasoning), when not the defaults. */
  engine?: { systemPlacement: 'system' | 'first-user'; reasoningHistory: boolean };
}
