import type { SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../actors/agent/events.js';
import { announceCall, callUpdate, outputUpdate, toolKind, toolTitle } from './tool-call-update.js';
import { planUpdate } from './plan-update.js';

/** The tail of a running command's output shown in the editor. */
const OUTPUT_TAIL_CHARS = 16 * 1024;
/** Output updates of one call are this far apart at least (a chatty command is not a flood of updates). */
const OUTPUT_EVERY_MS = 200;

interface Output {
  text: string;
  sentAt: number;
}

/**
 * A session's events as ACP `session/update`s: the answer as `agent_message_chunk`, reasoning as
 * `agent_thought_chunk`, each tool call as `tool_call` then `tool_call_update`s (tool-call-update.ts),
 * the model's task list as `plan`.
 * A running command's output is shown as it comes, its last {@link OUTPUT_TAIL_CHARS} at most,
 * at most one update per {@link OUTPUT_EVERY_MS} (each replaces the last); the call's end carries
 * the whole result. The call waiting for approval is kept for the permission request.
 */
export class TurnUpdates {
  /** Output gathered per running call. */
  private readonly outputs = new Map<string, Output>();
  private waiting: ToolCallUpdate | undefined;

  constructor(
    private readonly send: (update: SessionUpdate) => void,
    private readonly root: () => string,
  ) {}

  /** The tool call waiting for a person's answer now, as the permission request names it. */
  get awaitingApproval(): ToolCallUpdate | undefined {
    return this.waiting;
  }

  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'text-delta':
        if (event.text !== '') this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
        return;
      case 'reasoning-delta':
        if (event.text !== '') this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } });
        return;
      case 'tool-call': {
        const { state } = event;
        const id = state.call.id;
        if (event.previous === undefined) {
          this.send({ sessionUpdate: 'tool_call', ...announceCall(state, this.root()) });
          return;
        }
        if (state.status === 'awaiting-approval') {
          const { call } = state;
          this.waiting = { toolCallId: id, title: toolTitle(call.name, call.arguments), kind: toolKind(call.name), rawInput: call.arguments };
          return;
        }
        if (this.waiting?.toolCallId === id) this.waiting = undefined;
        // Back from approval to running: the editor showed it as running all along.
        if (event.previous === 'awaiting-approval' && state.status === 'running') return;
        const update = callUpdate(state, this.root());
        if (update) this.send({ sessionUpdate: 'tool_call_update', ...update });
        if (state.status === 'done' || state.status === 'error' || state.status === 'cancelled') this.outputs.delete(id);
        return;
      }
      case 'todo':
        this.send(planUpdate(event.items));
        return;
      case 'tool-output': {
        const output = this.outputs.get(event.callId) ?? { text: '', sentAt: 0 };
        output.text = (output.text + event.text).slice(-OUTPUT_TAIL_CHARS);
        this.outputs.set(event.callId, output);
        const now = Date.now();
        if (now - output.sentAt < OUTPUT_EVERY_MS) return;
        output.sentAt = now;
        this.send({ sessionUpdate: 'tool_call_update', ...outputUpdate(event.callId, output.text) });
        return;
      }
      default:
        return;
    }
  }
}
