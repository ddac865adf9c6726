import { defineActor } from '../../runtime/actor.js';
import { discover } from './discover.js';
import type { ModelIoProtocol } from './protocol.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { streamChat } from './stream-chat.js';

/** Spawn options: tests shorten the backoff; production uses the defaults. */
export interface ModelIoOptions {
  retry?: Partial<RetryPolicy>;
}

let retry: RetryPolicy = DEFAULT_RETRY_POLICY;

/**
 * The model-IO actor. Runs in a worker thread:
 * `supervisor.spawn({ name: 'model-io', kind: 'thread', module: new URL('../actors/model-io/actor.js', import.meta.url) })`.
 * `chat` streams {@link ModelEvent} deltas and ends with a `ChatReply` (`finishReason: 'aborted'`
 * when the request's signal fired); `discover` answers a `DiscoverReply`.
 */
export default defineActor<ModelIoProtocol, ModelIoOptions | undefined>({
  setup({ options }) {
    retry = { ...DEFAULT_RETRY_POLICY, ...(options?.retry ?? {}) };
  },
  handle(request, context) {
    switch (request.type) {
      case 'chat':
        return streamChat(request, { signal: context.signal, emit: (event) => context.emit(event), retry });
      case 'discover':
        return discover(request.endpoint, request.contextWindow, context.signal);
      default:
        throw new Error(`model-io: unknown request type ${(request as { type?: unknown }).type}`);
    }
  },
});
