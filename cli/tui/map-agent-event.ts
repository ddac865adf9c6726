import type { AgentEvent } from '../../actors/agent/events.js';
import { isFinal } from '../../actors/agent/tool-call-state.js';
import { describeCompaction } from '../../actors/context/describe-compaction.js';
import type { UiEvent } from './session-port.js';
import { formatTokens } from './status-line.js';

/**
 * A session event as the terminal UI draws it: none, one or two UI events. Stateless: a tool call
 * starts when it leaves `pending` and ends in a final state, as the event says. Exhaustive: a new
 * AgentEvent fails `tsc` here until it is mapped or left out on purpose.
 */
export function uiEventsOf(event: AgentEvent): UiEvent[] {
  switch (event.type) {
    case 'text-delta':
      return [{ type: 'text', text: event.text }];
    case 'reasoning-delta':
      return [{ type: 'reasoning', text: event.text }];
    case 'usage':
      return [{ type: 'usage', usage: event.usage }];
    case 'prefill':
      return [{ type: 'prefill', processed: event.processed, total: event.total, cached: event.cached, elapsedMs: event.elapsedMs }];
    case 'notice':
      return [{ type: 'notice', message: event.message }];
    case 'retry':
      return [{ type: 'retry', attempt: event.attempt, delayMs: event.delayMs, reason: event.reason }];
    case 'compaction':
      return [{ type: 'notice', message: `context compacted: ${describeCompaction(event)} (${formatTokens(event.beforeTokens)} → ${formatTokens(event.afterTokens)} tokens)` }];
    case 'tool-output':
      return [{ type: 'tool-output', id: event.callId, text: event.text }];
    case 'todo':
      return [{ type: 'todo', items: event.items }];
    case 'tool-call': {
      const { state } = event;
      const { id, name, arguments: args } = state.call;
      const out: UiEvent[] = [];
      if (event.previous === 'pending') out.push({ type: 'tool-start', id, name, args });
      if (isFinal(state)) out.push({ type: 'tool-end', id, name, status: state.result.status, summary: state.result.summary, meta: state.result.meta });
      return out;
    }
    // The status line reads these from the session's figures; the turn's outcome is runTurn's result.
    case 'bootstrap':
    case 'turn-start':
    case 'request':
    case 'nudge':
    case 'turn-end':
      return [];
    default:
      return unmapped(event);
  }
}

function unmapped(event: never): UiEvent[] {
  void event;
  return [];
}
