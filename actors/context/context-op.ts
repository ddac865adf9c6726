import { ReikaError } from '../../runtime/errors.js';
import type { ToolCall, ToolSchema, Usage } from '../model-io/protocol.js';
import type { ContextManager } from './context-manager.js';
import type { ToolResultInput } from './tool-entry.js';

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

/** Makes one recorded change again (`ContextManager.replay`; a `window` op is read by the replay itself). */
export function applyOp(manager: ContextManager, op: ContextOp): void {
  switch (op.op) {
    case 'init':
      throw new ReikaError('REIKA_ERR_TRANSCRIPT', 'the recorded conversation starts twice');
    case 'user':
      return manager.addUser(op.text);
    case 'user-images':
      return manager.addUserImages(op.text, op.notes.map((note) => ({ url: '', note })));
    case 'end-turn':
      return manager.endTurn(op.status);
    case 'nudge':
      return manager.addNudge(op.text);
    case 'assistant':
      if (op.reasoning !== undefined) manager.keepReasoning();
      return manager.addAssistant(op.text, op.calls, op.ids, op.reasoning);
    case 'tool-result':
      return manager.addToolResult(op.result);
    case 'prepare':
      try {
        manager.prepare();
      } catch {
        // REIKA_ERR_CONTEXT_FULL: the turn ended there, as it did when it happened.
      }
      return;
    case 'compact':
      manager.compact();
      return;
    case 'usage':
      return manager.recordUsage(op.usage, op.finishReason);
    case 'rebase':
      return manager.rebase(op.system, op.tools);
    case 'window':
      return;
  }
}
