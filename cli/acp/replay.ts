import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ToolCallState } from '../../actors/agent/tool-call-state.js';
import type { ContextOp } from '../../actors/context/context-op.js';
import type { ToolCall } from '../../actors/model-io/protocol.js';
import { announceCall, callUpdate } from './tool-call-update.js';
import { planUpdate, todoItemsOf } from './plan-update.js';

/**
 * A stored conversation told again as updates (`session/load`): each user message as a
 * `user_message_chunk`, each reply's reasoning and text as thought and message chunks, each call
 * as a `tool_call` whose result ends it, as it ended then (a `todo` call's list as the `plan`). Read from the transcript's context
 * changes, the very record the resumed session replays, so the editor shows what the model saw.
 */
export function replayUpdates(ops: readonly ContextOp[], root: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, ToolCall>();
  const text = (sessionUpdate: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk', value: string) => {
    if (value !== '') updates.push({ sessionUpdate, content: { type: 'text', text: value } });
  };
  for (const op of ops) {
    switch (op.op) {
      case 'user':
      case 'user-images':
        text('user_message_chunk', op.text);
        break;
      case 'assistant':
        text('agent_thought_chunk', op.reasoning ?? '');
        text('agent_message_chunk', op.text);
        for (const call of op.calls) {
          calls.set(call.id, call);
          updates.push({ sessionUpdate: 'tool_call', ...announceCall({ status: 'pending', call }, root) });
        }
        break;
      case 'tool-result': {
        const { result } = op;
        const call = calls.get(result.callId);
        if (!call) break;
        const status = result.status ?? 'done';
        const ended = { callId: result.callId, name: result.name, status, summary: result.summary, payload: result.payload };
        const state: ToolCallState = status === 'done' ? { status: 'done', call, result: ended } : status === 'cancelled' ? { status: 'cancelled', call, result: ended } : { status: 'error', call, result: ended };
        const update = callUpdate(state, root);
        if (update) updates.push({ sessionUpdate: 'tool_call_update', ...update });
        // The task list as that call left it.
        const items = call.name === 'todo' && status === 'done' ? todoItemsOf(call.arguments) : undefined;
        if (items) updates.push(planUpdate(items));
        break;
      }
      default:
        break;
    }
  }
  return updates;
}
