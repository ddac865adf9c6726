import type { ChatMessage } from '../../../actors/model-io/protocol.js';

/**
 * What the strictest real chat templates demand of a conversation (Mistral's and Gemma's raise on
 * anything else): a system message, then a user message; never two user messages in a row; no user
 * message right after tool results; every tool result answers a call of the assistant message
 * before it, and every call is answered before anything else follows. Returns the first problem.
 */
export function orderProblem(messages: readonly ChatMessage[]): string | undefined {
  if (messages[0]?.role !== 'system') return 'the first message is not the system prompt';
  if (messages[1]?.role !== 'user') return `the message after the system prompt is ${messages[1]?.role ?? 'missing'}, not user`;
  let open: Set<string> | undefined;
  for (let i = 1; i < messages.length; i++) {
    const message = messages[i]!;
    const previous = messages[i - 1]!;
    if (message.role === 'tool') {
      if (!open?.has(message.tool_call_id)) return `message ${i}: a tool result for ${message.tool_call_id}, which the assistant before did not call`;
      open.delete(message.tool_call_id);
      continue;
    }
    if (open && open.size > 0) return `message ${i} (${message.role}) follows unanswered calls ${[...open].join(', ')}`;
    open = undefined;
    if (message.role === 'user' && previous.role === 'user') return `message ${i}: two user messages in a row`;
    if (message.role === 'user' && previous.role === 'tool') return `message ${i}: a user message right after tool results`;
    if (message.role === 'system') return `message ${i}: a second system message`;
    if (message.role === 'assistant' && message.tool_calls?.length) open = new Set(message.tool_calls.map((call) => call.id));
  }
  if (open && open.size > 0) return `the last calls are unanswered: ${[...open].join(', ')}`;
  return undefined;
}

/** True when `next` is `previous` plus new messages, byte for byte (the prefix cache survives). */
export function appendOnly(previous: readonly ChatMessage[], next: readonly ChatMessage[]): boolean {
  return JSON.stringify(next).startsWith(JSON.stringify(previous).slice(0, -1));
}
