import { defineActor } from '../../runtime/actor.js';
import { askClearance } from '../../runtime/clearance.js';
import { detectEngine } from './engine/detect-engine.js';
import { discover } from './engine/discover.js';
import type { ModelIoProtocol } from './protocol.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './http/retry-policy.js';
import { streamChat } from './http/stream-chat.js';

/** Spawn options: tests shorten the backoff; production uses the defaults. */
export interface ModelIoOptions {
  retry?: Partial<RetryPolicy>;
}

let retry: RetryPolicy = DEFAULT_RETRY_POLICY;

/** The embedded engine's module, loaded at the first request for an `embedded` endpoint. */
let embedded: Promise<typeof import('./embedded/index.js')> | undefined;
const loadEmbedded = () => (embedded ??= import('./embedded/index.js'));

/**
 * The model-IO actor. Runs in a worker thread:
 * `supervisor.spawn({ name: 'model-io', kind: 'thread', module: new URL('../actors/model-io/actor.js', import.meta.url) })`.
 * `chat` streams {@link ModelEvent} deltas and ends with a `ChatReply` (`finishReason: 'aborted'`
 * when the request's signal fired); `discover` answers a `DiscoverReply`, `detect` the engine's `EngineInfo`. An endpoint with
 * `engine: 'embedded'` is served by llama.cpp inside this thread (embedded/), others over HTTP.
 */
/**
 * Detection, and the template probe when asked: it runs here, in model-io's idle time at session
 * start (no request is in flight before the bootstrap ends), so no other thread has to boot beside the scan.
 */
async function detectAndProbe(endpoint: Parameters<typeof detectEngine>[0], probe: boolean, signal: AbortSignal, clear: () => Promise<boolean>) {
  const info = await detectEngine(endpoint, signal, clear);
  if (probe && info.chatTemplate && !signal.aborted) {
    const { probeTemplate } = await import('./template-check/probe.js');
    info.templateProbe = await probeTemplate({ template: info.chatTemplate, ...(info.bosToken !== undefined ? { bosToken: info.bosToken } : {}), ...(info.eosToken !== undefined ? { eosToken: info.eosToken } : {}) });
  }
  return info;
}

export default defineActor<ModelIoProtocol, ModelIoOptions | undefined>({
  setup({ options }) {
    retry = { ...DEFAULT_RETRY_POLICY, ...(options?.retry ?? {}) };
  },
  async handle(request, context) {
    switch (request.type) {
      case 'chat':
        if (request.endpoint.engine === 'embedded') return (await loadEmbedded()).embeddedChat(request, { signal: context.signal, emit: (event) => context.emit(event), from: context.from });
        return streamChat(request, { signal: context.signal, emit: (event) => context.emit(event), retry, clear: () => askClearance(context) });
      case 'discover':
        if (request.endpoint.engine === 'embedded') return (await loadEmbedded()).embeddedDiscover(request.endpoint);
        return discover(request.endpoint, request.contextWindow, context.signal, request.fresh === true);
      case 'detect':
        if (request.endpoint.engine === 'embedded') return (await (await loadEmbedded()).embeddedDiscover(request.endpoint)).engine!;
        return detectAndProbe(request.endpoint, request.probeTemplate === true, context.signal, () => askClearance(context));
      default:
        throw new Error(`model-io: unknown request type ${(request as { type?: unknown }).type}`);
    }
  },
  async dispose() {
    await embedded?.then((module) => module.disposeEmbedded());
  },
});
