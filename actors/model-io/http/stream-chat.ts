import { setTimeout as sleep } from 'node:timers/promises';
import { onAbort } from '../../../runtime/abort.js';
import { systemClock, type Clock } from '../../../runtime/clock.js';
import { mintCallId } from '../calls/call-id.js';
import { connectionFailure, statusFailure, type Failure } from './classify-failure.js';
import { originOf } from '../engine/detect-engine.js';
import { listModels } from '../engine/discover.js';
import { deadServerError, timeoutError } from '../errors.js';
import { openHttp, readText } from './http-request.js';
import { IdleWatch } from './idle-watch.js';
import type { ChatReply, Endpoint, ModelEvent, ModelIoRequest } from '../protocol.js';
import { AttemptFailed, readAnswer } from './read-answer.js';
import { endpointUrl, requestBody } from './request-body.js';
import { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from './retry-policy.js';
import { toolIndex, type ToolIndex } from '../calls/tool-index.js';
import { TurnAssembler } from '../calls/turn-assembler.js';

export type ChatRequest = Extract<ModelIoRequest, { type: 'chat' }>;

export interface ChatContext {
  /** Closes the HTTP stream at once; the reply then ends `aborted` with what arrived. */
  signal: AbortSignal;
  emit(event: ModelEvent): void;
  retry?: RetryPolicy;
  /** The idle timeout's clock (tests pass a hand-advanced one). */
  clock?: Clock;
  /** Tests: how each health check of a silent stream ended (see idle-watch.ts). */
  onProbe?(alive: boolean): void;
  /** Asked before a retry goes out (model-io: the main thread's clearance); false ends the reply `aborted`. */
  clear?(): Promise<boolean>;
}

export function authHeaders(endpoint: Endpoint): Record<string, string> {
  return endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};
}

/**
 * One `chat` request: POST `{base}/chat/completions` with `stream: true`, decoded into
 * {@link ModelEvent}s, retried on 429/5xx/connection loss as the policy allows. Throws a
 * ReikaError with a one-sentence message when it cannot succeed; an abort is a reply, not an error.
 */
export async function streamChat(request: ChatRequest, context: ChatContext): Promise<ChatReply> {
  const policy = context.retry ?? DEFAULT_RETRY_POLICY;
  const tools = toolIndex(request.tools);
  const body = requestBody(request);
  const url = endpointUrl(request.endpoint.baseUrl, 'chat/completions');
  let statusRetries = 0;
  let connectionRetries = 0;
  let quickRetries = 0;
  for (let attempt = 1; ; attempt++) {
    const turn = new TurnAssembler(tools, context.emit, mintCallId);
    let failure: Failure;
    try {
      return await attemptOnce(request, body, url, tools, turn, context);
    } catch (error) {
      if (context.signal.aborted) return turn.finish(true);
      if (!(error instanceof AttemptFailed)) throw error;
      failure = error.failure;
    }
    let delay: number | undefined;
    if (failure.retry === 'status') delay = retryDelay(policy, ++statusRetries, failure.retryAfterMs);
    else if (failure.retry === 'connection') delay = retryDelay({ ...policy, maxRetries: policy.maxConnectionRetries }, ++connectionRetries);
    else if (failure.retry === 'once') delay = retryDelay({ ...policy, maxRetries: Math.min(1, policy.maxRetries) }, ++quickRetries);
    if (delay === undefined) throw failure.error;
    context.emit({ type: 'retry', attempt, delayMs: delay, reason: failure.error.message });
    try {
      await sleep(delay, undefined, { signal: context.signal });
    } catch {
      return new TurnAssembler(tools, context.emit, mintCallId).finish(true);
    }
    if (context.clear && !(await context.clear())) return new TurnAssembler(tools, context.emit, mintCallId).finish(true);
  }
}

async function attemptOnce(request: ChatRequest, body: string, url: string, tools: ToolIndex, turn: TurnAssembler, context: ChatContext): Promise<ChatReply> {
  const { endpoint } = request;
  const { signal } = context;
  // The attempt's own signal: the caller's abort, or the idle watch giving up on a dead server.
  const attempt = new AbortController();
  const removeAbort = onAbort(signal, () => attempt.abort());
  let expired = false;
  let checked = false;
  let healthStatus: number | undefined;
  const watch = new IdleWatch({
    limitMs: endpoint.requestTimeoutMs,
    clock: context.clock ?? systemClock,
    origin: originOf(endpoint.baseUrl),
    headers: authHeaders(endpoint),
    onExpire: (healthChecked, status) => {
      expired = true;
      checked = healthChecked;
      healthStatus = status;
      attempt.abort();
    },
    ...(context.onProbe ? { onProbe: context.onProbe } : {}),
  });
  // Silent in the prefill and deaf to the health check: dead; silent mid-answer: stalled.
  const dead = () => new AttemptFailed({ error: checked ? deadServerError(endpoint.baseUrl, endpoint.requestTimeoutMs, healthStatus) : timeoutError(endpoint.requestTimeoutMs), retry: 'no' });
  let exchange;
  try {
    try {
      exchange = await openHttp(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...authHeaders(endpoint) },
        body,
        signal: attempt.signal,
        idleTimeoutMs: 0,
      });
    } catch (error) {
      if (signal.aborted) return turn.finish(true);
      if (expired) throw dead();
      throw new AttemptFailed(connectionFailure(error, endpoint.baseUrl, false, endpoint.urlVariable));
    }
    watch.alive();
    const { response } = exchange;
    const status = response.statusCode ?? 0;
    try {
      if (status < 200 || status >= 300) {
        const text = await readText(response, 64 * 1024).catch(() => '');
        throw new AttemptFailed(
          await statusFailure({ status, headers: response.headers, body: text, url, baseUrl: endpoint.baseUrl, model: endpoint.model, keyVariable: endpoint.keyVariable, urlVariable: endpoint.urlVariable, modelVariable: endpoint.modelVariable, listModels: () => listModels(endpoint) }),
        );
      }
      const reply = await readAnswer(response, turn, { signal: attempt.signal, status, urlVariable: endpoint.urlVariable, onLife: () => watch.alive(), onGenerated: () => watch.generating() });
      if (expired) throw dead();
      return reply;
    } catch (error) {
      if (signal.aborted) return turn.finish(true);
      if (expired) throw dead();
      if (error instanceof AttemptFailed) throw error;
      // The answer had begun (headers arrived), so this is a stream lost midway.
      throw new AttemptFailed(connectionFailure(error, endpoint.baseUrl, true, endpoint.urlVariable));
    } finally {
      // A finished response leaves its socket to the keep-alive pool; anything else is closed now.
      if (!response.complete) exchange.destroy();
    }
  } finally {
    watch.stop();
    removeAbort();
  }
}
