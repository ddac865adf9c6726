import { historyCallId } from '../model-io/calls/call-id.js';
import type { ChatMessage, ToolCall } from '../model-io/protocol.js';

/**
 * The calls of the newest reply as the history holds them: one call per assistant message, each
 * followed by its result (the form every template renders; Llama 3.x templates raise on two calls
 * in one message), so all but the first wait for the previous call's result. Each call's id in the
 * history is 9 letters and digits ({@link historyCallId}; Mistral templates reject any other), its
 * result paired by the id the call came with.
 */
export class ReplyCalls {
  /** Calls still waiting for their own assistant message. */
  private queued: ToolCall[] = [];
  /** History ids by the id a call came with (a queue per id: a server may give two calls one id). */
  private historyIds = new Map<string, string[]>();

  /** A new reply's calls, with their history ids (`recorded` when replayed); the first goes in the reply's own message. */
  open(calls: readonly ToolCall[], recorded?: readonly string[]): ToolCall[] {
    this.historyIds = new Map();
    const used = new Set<string>();
    const named = calls.map((call, i) => {
      const id = recorded?.[i] ?? historyCallId(call.id, used);
      used.add(id);
      this.historyIds.set(call.id, [...(this.historyIds.get(call.id) ?? []), id]);
      return { ...call, id };
    });
    this.queued = named.slice(1);
    return named;
  }

  /** The history id a result for the call `callId` pairs with. */
  resultId(callId: string): string {
    return this.historyIds.get(callId)?.shift() ?? callId;
  }

  /** The next waiting call (its message goes after the result just added), if any. */
  next(): ToolCall | undefined {
    return this.queued.shift();
  }

  /** The turn ended: calls that never ran get no message. */
  drop(): void {
    this.queued = [];
  }
}

/** An assistant message with one call; content "" and not null (templates concatenate or test it as a string). */
export function callMessage(text: string, call: ToolCall): ChatMessage {
  return { role: 'assistant', content: text, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] };
}
