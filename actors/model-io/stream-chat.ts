import { setTimeout as sleep } from 'node:timers/promises';
import { mintCallId } from './call-id.js';
import { connectionFailure, statusFailure, type Failure } from './classify-failure.js';
import { listModels } from './discover.js';
import { openHttp, readText } from './http-request.js';
import type { ChatReply, Endpoint, ModelEvent, ModelIoRequest } from './protocol.js';
import { AttemptFailed, readAnswer } from './read-answer.js';
import { endpointUrl, requestBody } from './request-body.js';
import { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from './retry-policy.js';
import { toolIndex, type ToolIndex } from './tool-index.js';
import { TurnAssembler } from './turn-assembler.js';

export type ChatRequest = Extract<ModelIoRequest, { type: 'chat' }>;

export interface ChatContext {
  /** Closes the HTTP stream at once; the reply then ends `aborted` with what arrived. */
  signal: AbortSignal;
  emit(event: ModelEvent): void;
  retry?: RetryPolicy;
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
    if (delay === undefined) throw failure.error;
    context.emit({ type: 'retry', attempt, delayMs: delay, reason: failure.error.message });
    try {
      await sleep(delay, undefined, { signal: context.signal });
    } catch {
      return new TurnAssembler(tools, context.emit, mintCallId).finish(true);
    }
  }
}

async function attemptOnce(request: ChatRequest, body: string, url: string, tools: ToolIndex, turn: TurnAssembler, context: ChatContext): Promise<ChatReply> {
  const { endpoint } = request;
  const { signal } = context;
  let exchange;
  try {
    exchange = await openHttp(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...authHeaders(endpoint) },
      body,
      signal,
      idleTimeoutMs: endpoint.requestTimeoutMs,
    });
  } catch (error) {
    if (signal.aborted) return turn.finish(true);
    throw new AttemptFailed(connectionFailure(error, endpoint.baseUrl, false));
  }
  const { response } = exchange;
  const status = response.statusCode ?? 0;
  try {
    if (status < 200 || status >= 300) {
      const text = await readText(response, 64 * 1024).catch(() => '');
      throw new AttemptFailed(
        await statusFailure({ status, headers: response.headers, body: text, url, baseUrl: endpoint.baseUrl, model: endpoint.model, listModels: () => listModels(endpoint) }),
      );
    }
    return await readAnswer(response, turn, { signal, status });
  } catch (error) {
    if (signal.aborted) return turn.finish(true);
    if (error instanceof AttemptFailed) throw error;
    // The answer had begun (headers arrived), so this is a stream lost midway.
    throw new AttemptFailed(connectionFailure(error, endpoint.baseUrl, true));
  } finally {
    // A finished response leaves its socket to the keep-alive pool; anything else is closed now.
    if (!response.complete) exchange.destroy();
  }
}
