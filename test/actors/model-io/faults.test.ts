import test, { type ExecutionContext } from 'ava';
import { createServer } from 'node:net';
import type { ModelEvent } from '../../../actors/model-io/protocol.js';
import type { RetryPolicy } from '../../../actors/model-io/http/retry-policy.js';
import { streamChat } from '../../../actors/model-io/http/stream-chat.js';
import type { ReikaError, ReikaErrorCode } from '../../../runtime/errors.js';
import { startScriptedServer, type ScriptedReply } from '../../helpers/scripted-server.js';

const fast: RetryPolicy = { maxRetries: 3, maxConnectionRetries: 2, baseDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 5_000 };

async function attempt(script: ScriptedReply[], options: { baseUrl?: (url: string) => string; model?: string; timeoutMs?: number; models?: string[] } = {}) {
  const server = await startScriptedServer(script, { models: options.models });
  const events: ModelEvent[] = [];
  const started = Date.now();
  try {
    const endpoint = { baseUrl: options.baseUrl ? options.baseUrl(server.url) : server.url, model: options.model ?? 'scripted-model', requestTimeoutMs: options.timeoutMs ?? 5_000 };
    const result = await streamChat({ type: 'chat', endpoint, messages: [{ role: 'user', content: 'hi' }], tools: [] }, { signal: new AbortController().signal, emit: (e) => events.push(e), retry: fast }).then(
      (reply) => ({ reply, error: undefined }),
      (error: ReikaError) => ({ reply: undefined, error }),
    );
    return { ...result, events, server, ms: Date.now() - started, retries: events.filter((e) => e.type === 'retry') };
  } finally {
    await server.close();
  }
}

function oneLine(t: ExecutionContext, error: ReikaError | undefined, code: ReikaErrorCode, setting?: RegExp) {
  t.truthy(error, 'the request failed');
  t.is(error!.code, code);
  t.false(error!.message.includes('\n'), 'one line');
  t.false(/\n\s+at /.test(error!.message), 'no stack trace');
  if (setting) t.regex(error!.message, setting);
}

test('429 with Retry-After is waited out and retried, then succeeds', async (t) => {
  const { reply, retries, ms, server } = await attempt([{ fault: { type: 'status', status: 429, retryAfter: 1 } }, { content: 'ok' }]);
  t.is(reply?.text, 'ok');
  t.is(retries.length, 1);
  t.is((retries[0] as { delayMs: number }).delayMs, 1000, 'the server’s Retry-After wins over the backoff');
  // It waited (a lower bound only: a loaded machine makes everything later, never sooner).
  t.true(ms >= 950, `took ${ms} ms`);
  t.is(server.chatRequests().length, 2);
});

test('a 500 is retried with backoff and then succeeds', async (t) => {
  const { reply, retries } = await attempt([{ fault: { type: 'status', status: 500 } }, { fault: { type: 'status', status: 503 } }, { content: 'fine' }]);
  t.is(reply?.text, 'fine');
  t.is(retries.length, 2);
});

test('a server that keeps failing with 5xx is reported after the bounded retries', async (t) => {
  const status = { fault: { type: 'status', status: 502, message: 'upstream\nbroke' } } as ScriptedReply;
  const { error, server } = await attempt([status, status, status, status, status, status]);
  oneLine(t, error, 'REIKA_ERR_HTTP', /HTTP 502: upstream broke/);
  t.is(server.chatRequests().length, fast.maxRetries + 1);
});

test('a Retry-After longer than the policy allows is reported at once', async (t) => {
  const { error, server } = await attempt([{ fault: { type: 'status', status: 429, retryAfter: 3600 } }]);
  oneLine(t, error, 'REIKA_ERR_HTTP', /429/);
  t.is(server.chatRequests().length, 1);
});

test('a connection dropped mid-stream is retried, and only the retry’s output is kept', async (t) => {
  const { reply, events, retries } = await attempt([{ content: 'first attempt text', fault: { type: 'drop', afterBytes: 700 } }, { content: 'second' }]);
  t.is(reply?.text, 'second');
  t.is(retries.length, 1);
  const afterRetry = events.slice(events.indexOf(retries[0]!) + 1).filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('');
  t.is(afterRetry, 'second');
  t.true(events.slice(0, events.indexOf(retries[0]!)).some((e) => e.type === 'text-delta'), 'the lost attempt had streamed some text');
});

test('a connection that keeps dropping is reported after the bounded retries', async (t) => {
  const drop: ScriptedReply = { content: 'abc def ghi', fault: { type: 'drop', afterBytes: 300 } };
  const { error, server } = await attempt([drop, drop, drop, drop, drop]);
  oneLine(t, error, 'REIKA_ERR_STREAM', /lost mid-stream/);
  t.is(server.chatRequests().length, fast.maxConnectionRetries + 1);
});

test('a garbage line in the stream is skipped with a notice and the turn completes', async (t) => {
  const { reply } = await attempt([{ content: 'still fine', fault: { type: 'garbage', atEvent: 2 } }]);
  t.is(reply?.text, 'still fine');
  t.is(reply?.notices.length, 1);
  t.regex(reply!.notices[0]!, /malformed line/);
});

test('a stream that stalls mid-answer fails with the timeout error naming REIKA_REQUEST_TIMEOUT_MS', async (t) => {
  // 417 bytes: the role chunk and the first text delta arrived, so the prefill is over and a
  // health check no longer counts as life (see idle-watch.ts; a silent prefill is waited for).
  const { error, ms } = await attempt([{ content: 'slow and steady', fault: { type: 'stall', afterBytes: 430 } }], { timeoutMs: 300 });
  oneLine(t, error, 'REIKA_ERR_TIMEOUT', /REIKA_REQUEST_TIMEOUT_MS/);
  // It waited for the timeout (the stalled server never ends the stream itself: the test ending is the bound).
  t.true(ms >= 250, `took ${ms} ms`);
});

test('401 and 403 are reported at once, naming REIKA_API_KEY', async (t) => {
  for (const status of [401, 403]) {
    const { error, server } = await attempt([{ fault: { type: 'status', status } }]);
    oneLine(t, error, 'REIKA_ERR_AUTH', /REIKA_API_KEY/);
    t.is(server.chatRequests().length, 1);
  }
});

test('a 404 about the model names REIKA_MODEL and lists what the server offers', async (t) => {
  const { error } = await attempt([{ fault: { type: 'status', status: 404, message: 'The model `gpt-9` does not exist.' } }], { model: 'gpt-9', models: ['qwen3-coder', 'llama-3.1-8b'] });
  oneLine(t, error, 'REIKA_ERR_MODEL_NOT_FOUND', /REIKA_MODEL.*qwen3-coder, llama-3\.1-8b/);
});

test('a 404 on the path says to check REIKA_BASE_URL and /v1', async (t) => {
  const { error } = await attempt([{ content: 'never' }], { baseUrl: (url) => url.replace(/\/v1$/, '') });
  oneLine(t, error, 'REIKA_ERR_BAD_URL', /REIKA_BASE_URL.*\/v1/);
});

test('no server at the address is reported after a short bounded retry, naming REIKA_BASE_URL', async (t) => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const events: ModelEvent[] = [];
  const error = (await t.throwsAsync(
    streamChat({ type: 'chat', endpoint: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', requestTimeoutMs: 0 }, messages: [], tools: [] }, { signal: new AbortController().signal, emit: (e) => events.push(e), retry: fast }),
  )) as ReikaError;
  oneLine(t, error, 'REIKA_ERR_SERVER_UNREACHABLE', /No model server answers at http:\/\/127\.0\.0\.1:\d+\/v1.*REIKA_BASE_URL/);
  // Bounded: as many retries as the policy allows, then the error (no timing: CI shares the machine).
  t.is(events.filter((e) => e.type === 'retry').length, fast.maxConnectionRetries);
});

test('an error event inside the stream is reported in one line', async (t) => {
  const { error } = await attempt([{ events: [{ error: { message: 'the request exceeds the available context size', code: 400 } }] }]);
  oneLine(t, error, 'REIKA_ERR_HTTP', /exceeds the available context size/);
});

test('an abort during the retry wait ends the request as aborted data', async (t) => {
  const server = await startScriptedServer([{ fault: { type: 'status', status: 429, retryAfter: 4 } }]);
  try {
    const controller = new AbortController();
    const reply = await streamChat({ type: 'chat', endpoint: { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 }, messages: [], tools: [] }, {
      signal: controller.signal,
      emit: (e) => e.type === 'retry' && controller.abort(),
      retry: fast,
    });
    t.is(reply.finishReason, 'aborted');
  } finally {
    await server.close();
  }
});

test('a llama.cpp `error:` line mid-stream is reported, not swallowed', async (t) => {
  const raw = 'data: {"choices":[{"index":0,"delta":{"content":"par"}}]}\n\nerror: {"code":500,"message":"slot unavailable\\nretry later","type":"server_error"}\n\n';
  const { error, server } = await attempt([{ raw }, { raw }, { raw }, { raw }, { raw }]);
  oneLine(t, error, 'REIKA_ERR_HTTP', /slot unavailable retry later/);
  t.is(server.chatRequests().length, fast.maxRetries + 1, 'a 500 inside the stream is retried like one outside');
});

test('a retry the main thread does not clear (an interrupt it saw during the backoff) is not sent: the reply ends aborted', async (t) => {
  const server = await startScriptedServer([{ fault: { type: 'status', status: 503 } }, { content: 'never asked' }]);
  t.teardown(() => server.close());
  const endpoint = { baseUrl: server.url, model: 'scripted-model', requestTimeoutMs: 5_000 };
  const reply = await streamChat({ type: 'chat', endpoint, messages: [{ role: 'user', content: 'hi' }], tools: [] }, { signal: new AbortController().signal, emit: () => {}, retry: fast, clear: async () => false });
  t.is(reply.finishReason, 'aborted');
  t.is(server.chatRequests().length, 1, 'only the first attempt reached the server');
});
