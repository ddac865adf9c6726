import type { ModelEvent } from '../model-io/protocol.js';
import type { AgentEvent } from './events.js';

/**
 * A model-io stream event as the session reports it, tagged with its turn (and request `n`); undefined for the
 * events the turn itself turns into data (a call is recorded and walked through its states, a
 * finish becomes the `usage` event). Exhaustive: a new ModelEvent fails `tsc` here until it is
 * mapped or dropped on purpose.
 */
export function agentEventOf(event: ModelEvent, turn: string, n: number): AgentEvent | undefined {
  switch (event.type) {
    case 'text-delta':
      return { type: 'text-delta', turn, text: event.text };
    case 'reasoning-delta':
      return { type: 'reasoning-delta', turn, text: event.text };
    case 'notice':
      return { type: 'notice', turn, message: event.message };
    case 'retry':
      return { type: 'retry', turn, attempt: event.attempt, delayMs: event.delayMs, reason: event.reason };
    case 'prefill-progress':
      return { type: 'prefill', turn, n, processed: event.processed, total: event.total, cached: event.cached, elapsedMs: event.elapsedMs };
    case 'tool-call':
    case 'finish':
      return undefined;
    default:
      return unmapped(event);
  }
}

function unmapped(event: never): undefined {
  void event;
  return undefined;
}
