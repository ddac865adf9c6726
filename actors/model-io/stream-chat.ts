import { setTimeout as sleep } from 'node:timers/promises';
import { mintCallId } from './call-id.js';
import { connectionFailure, statusFailure, type Failure } from './classify-failure.js';
import { listModels } from './discover.js';
import { httpError } from './errors.js';
import { openHttp, readText } from './http-request.js';
import { mapChunk } from './map-chunk.js';
import type { ChatReply, Endpoint, ModelEvent, ModelIoRequest } from './protocol.js';
import { endpointUrl, requestBody } from './request-body.js';
import { DEFAULT_RETRY_POLICY, isRetryableStatus, retryDelay, type RetryPolicy } from './retry-policy.js';
import { SseDecoder, type SseEvent } from './sse-decoder.js';
import { toolIndex, type ToolIndex } from './tool-index.js';
import { TurnAssembler } from './turn-assembler.js';

export type ChatRequest = Extract<ModelIoRequest, { type: 'chat' }>;

export interface ChatContext {
  /** Closes the HTTP stream at once; the reply then ends `aborted` with what arrived. */
  signal: AbortSignal;
  emit(event: ModelEvent): void;
  retry?: RetryPolicy;
}

/** Thrown inside an attempt to hand its classified failure to the retry loop. */
class AttemptFailed {
  constructor(readonly failure: Failure) {}
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
    const type = String(response.headers['content-type'] ?? '');
    // A server that ignored `stream: true` answers one JSON object; when the content type does
    // not say, the first byte does.
    let json = type.includes('application/json');
    const held: Buffer[] = [];
    const decoder = new SseDecoder();
    let garbage = 0;
    const handle = (event: SseEvent): boolean => {
      const data = event.data;
      if (data === '[DONE]') return true;
      if (data === '') return false;
      let parsed: any;
      try {
        parsed = JSON.parse(data);
      } catch {
        if (event.event === 'error') throw new AttemptFailed(streamFailure(undefined, data));
        if (garbage++ === 0) turn.notice(`Ignored a malformed line in the model stream: ${data.length > 80 ? `${data.slice(0, 79)}…` : data}`);
        return false;
      }
      if (event.event === 'error' && !parsed?.error) parsed = { error: parsed };
      for (const delta of mapChunk(parsed)) {
        if (delta.kind === 'error') throw new AttemptFailed(streamFailure(delta.status, delta.message));
        turn.push(delta);
      }
      return false;
    };
    let done = false;
    let first = true;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (signal.aborted) break;
      if (first && !type.includes('text/event-stream')) json ||= chunk.toString('utf8', 0, 64).trimStart().startsWith('{');
      first = false;
      if (json) {
        held.push(chunk);
        continue;
      }
      for (const event of decoder.push(chunk)) if ((done = handle(event))) break;
      if (done) break;
    }
    if (signal.aborted) return turn.finish(true);
    if (json) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(held).toString('utf8'));
      } catch {
        throw new AttemptFailed({ error: httpError(status, 'the answer was not valid JSON', true), retry: 'status' });
      }
      for (const delta of mapChunk(parsed)) {
        if (delta.kind === 'error') throw new AttemptFailed(streamFailure(delta.status, delta.message));
        turn.push(delta);
      }
      return turn.finish(false);
    }
    if (!done) for (const event of decoder.end()) if (handle(event)) break;
    return turn.finish(false);
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

function streamFailure(status: number | undefined, message: string): Failure {
  const retryable = status !== undefined && isRetryableStatus(status);
  return { error: httpError(status ?? 200, message, retryable), retry: retryable ? 'status' : 'no' };
}
