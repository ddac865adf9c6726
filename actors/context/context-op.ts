import type { ToolCall, ToolSchema, Usage } from '../model-io/protocol.js';
import type { ToolResultInput } from './context-manager.js';

/**
 * Every change made to a {@link ContextManager}, as plain data, in the order it was made. The
 * session transcript stores them; replaying them into a new manager rebuilds its state exactly —
 * entries, what was sent, shed and cut, the recap, the estimate's calibration, the reply reserve —
 * so a resumed session's next request begins with the bytes of the last one sent before.
 * Everything the manager decides by itself (compaction, cuts) follows from these inputs; the one
 * thing it chooses at random, a call's history id, is recorded with the call (`ids`).
 */
export type ContextOp =
  /** The manager was created (the session's frozen system prompt and tools array). */
  | { op: 'init'; system: string; tools: ToolSchema[]; window?: number; maxTokens?: number }
  | { op: 'user'; text: string }
  /** A user message with images sent natively: only their notes are kept (the bytes went once). */
  | { op: 'user-images'; text: string; notes: string[] }
  | { op: 'end-turn'; status: 'answered' | 'unanswered' }
  | { op: 'nudge'; text: string }
  /** The model's reply; `ids` are the calls' ids in the history, in order. */
  | { op: 'assistant'; text: string; calls: ToolCall[]; ids: string[]; /** Sent back as reasoning_content (REIKA_REASONING_HISTORY). */ reasoning?: string }
  | { op: 'tool-result'; result: ToolResultInput }
  /** A request was built (and sent): payloads cut, maybe one compaction event, everything marked sent. */
  | { op: 'prepare' }
  | { op: 'compact' }
  | { op: 'usage'; usage: Usage | null; finishReason?: string }
  /** A new system prompt and tools array (mode switch, `/mcp reload`). */
  | { op: 'rebase'; system: string; tools: ToolSchema[] }
  /** The window changed (its owner found or switched it) before the next change. */
  | { op: 'window'; window?: number };
