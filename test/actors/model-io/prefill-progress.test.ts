import test from 'ava';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Endpoint, ModelEvent } from '../../../actors/model-io/protocol.js';
import { streamChat, type ChatRequest } from '../../../actors/model-io/http/stream-chat.js';
import type { ReikaError } from '../../../runtime/errors.js';
import { prefillLabel } from '../../../cli/tui/spinner.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';

/**
 * Prefill progress and the idle timeout. llama-server with `return_progress: true` sends, while
 * it reads the prompt, chunks with an empty delta and `prompt_progress` {total, cache, processed,
 * time_ms} (tools/server/server-task.cpp); that counts as life. Without them, a silent stream is
 * alive as long as the server answers a health check. Time is a ManualClock: nothing here waits.
 */

const retry = { maxRetries: 0, maxConnectionRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 };

function chat(endpoint: Endpoint): ChatRequest {
  return { type: 'chat', endpoint, messages: [{ role: 'user', content: 'hi' }], tools: [] };
}

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', system_fingerprint: 'b6870-5a4ff43e' };

/** A llama.cpp progress chunk as it streams it. */
function progressChunk(processed: number, total: number, cache: number, timeMs: number): unknown {
  return { ...base, choices: [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }], prompt_progress: { total, cache, processed, time_ms: timeMs } };
}

test('return_progress chunks: sent on llama.cpp, streamed as progress, and 3 minutes of them keep a 1 s idle limit from firing', async (t) => {
  const total = 48_000;
  const steps = 400;
  const events: unknown[] = [];
  for (let i = 0; i <= steps; i++) events.push(progressChunk(Math.round((total * i) / steps), total, 0, i * 450));
  events.push({ ...base, choices: [{ finish_reason: null, index: 0, delta: { content: 'Done.' } }] });
  events.push({ ...base, choices: [{ finish_reason: 'stop', index: 0, delta: {} }], usage: { prompt_tokens: total, completion_tokens: 2, total_tokens: total + 2 }, timings: { cache_n: 0, prompt_n: total, prompt_ms: 180_000, predicted_n: 2, predicted_ms: 30 } });
  const server = await startScriptedServer([{ events }]);
  t.teardown(() => server.close());
  const clock = new ManualClock();
  const progress: ModelEvent[] = [];
  const reply = await streamChat(chat({ baseUrl: server.url, model: 'm', requestTimeoutMs: 1_000, llamaCpp: { progress: true } }), {
    signal: new AbortController().signal,
    retry,
    clock,
    emit: (event) => {
      if (event.type !== 'prefill-progress') return;
      progress.push(event);
      clock.advance(450);
    },
  });
  t.is(server.requests.find((r) => r.path === '/v1/chat/completions')!.json.return_progress, true);
  t.is(reply.text, 'Done.');
  t.is(reply.finishReason, 'stop');
  t.is(progress.length, steps + 1);
  t.true(clock.now() >= 180_000, `${clock.now()} ms of progress went by on the clock`);
  t.deepEqual(progress.at(-1), { type: 'prefill-progress', processed: total, total, cached: 0, elapsedMs: steps * 450 });
  t.is(prefillLabel({ processed: 12_300, total, elapsedMs: 41_000 }), 'reading prompt 12.3k/48.0k tokens · 41 s');
  t.like(reply.usage, { promptTokens: total, cachedTokens: 0, prefilledTokens: total, cacheFrom: 'timings' });
  t.false(server.requests.some((r) => r.path === '/health'), 'progress is life: no health check was needed');
});

/** A server whose chat answer is held by the test; `/health` answers or hangs as asked. */
async function heldServer(health: 'answers' | 'hangs' | 404) {
  let hold!: (res: ServerResponse) => void;
  const held = new Promise<ServerResponse>((resolve) => (hold = resolve));
  let healthChecks = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/health') {
        healthChecks++;
        if (health === 'answers') res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        else if (health === 404) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      hold(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    held,
    healthChecks: () => healthChecks,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

test('a 20-minute prefill with no progress is never cut off while the server answers its health checks', async (t) => {
  const server = await heldServer('answers');
  t.teardown(() => server.close());
  const clock = new ManualClock();
  let probed!: () => void;
  let probe = new Promise<void>((resolve) => (probed = resolve));
  const replied = streamChat(chat({ baseUrl: server.url, model: 'm', requestTimeoutMs: 600_000 }), {
    signal: new AbortController().signal,
    retry,
    clock,
    emit: () => {},
    onProbe: (alive) => {
      t.true(alive);
      probed();
    },
  });
  const res = await server.held;
  for (let minute = 0; minute < 20; minute += 5) {
    clock.advance(300_000);
    await probe;
    probe = new Promise<void>((resolve) => (probed = resolve));
  }
  t.is(clock.now(), 1_200_000);
  res.end(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'Read it all.' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
  const reply = await replied;
  t.is(reply.text, 'Read it all.');
  t.is(server.healthChecks(), 4);
});

test('a server that accepted the request and then died ends it within the limit, in one sentence', async (t) => {
  const server = await heldServer('hangs');
  t.teardown(() => server.close());
  const clock = new ManualClock();
  let progressed!: () => void;
  const progress = new Promise<void>((resolve) => (progressed = resolve));
  const replied = streamChat(chat({ baseUrl: server.url, model: 'm', requestTimeoutMs: 1_000 }), { signal: new AbortController().signal, retry, clock, emit: (event) => event.type === 'prefill-progress' && progressed() });
  const res = await server.held;
  res.write(`data: ${JSON.stringify(progressChunk(100, 5000, 0, 10))}\n\n`);
  await progress;
  // The health check goes out at half the limit and gets no answer; at the limit the request ends.
  clock.advance(500);
  while (server.healthChecks() === 0) await new Promise((resolve) => setImmediate(resolve));
  clock.advance(500);
  const error = (await t.throwsAsync(replied)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_TIMEOUT');
  t.regex(error.message, /^The model server at http:\/\/127\.0\.0\.1:\d+\/v1 stopped answering: nothing on the stream and no answer to a health check for 1 s — check that it still runs \(REIKA_REQUEST_TIMEOUT_MS sets this limit; 0 waits forever\)\.$/);
  t.false(error.message.includes('\n'));
});

test('a health check answered 404 (a proxy before a dead engine) is no life: the stalled prefill ends at the limit', async (t) => {
  const server = await heldServer(404);
  t.teardown(() => server.close());
  const clock = new ManualClock();
  let probed!: (alive: boolean) => void;
  const probe = new Promise<boolean>((resolve) => (probed = resolve));
  let progressed!: () => void;
  const progress = new Promise<void>((resolve) => (progressed = resolve));
  const replied = streamChat(chat({ baseUrl: server.url, model: 'm', requestTimeoutMs: 1_000 }), {
    signal: new AbortController().signal,
    retry,
    clock,
    emit: (event) => event.type === 'prefill-progress' && progressed(),
    onProbe: (alive) => probed(alive),
  });
  const res = await server.held;
  res.write(`data: ${JSON.stringify(progressChunk(100, 5000, 0, 10))}\n\n`);
  await progress;
  clock.advance(500);
  t.false(await probe, 'a 404 is not life');
  clock.advance(500);
  const error = (await t.throwsAsync(replied)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_TIMEOUT');
  t.regex(error.message, /^The model server at http:\/\/127\.0\.0\.1:\d+\/v1 stopped answering: nothing on the stream for 1 s, and GET \/health answered 404 — check that it still runs/);
  t.is(server.healthChecks(), 1);
});

test('cache figures come from llama.cpp timings, or from usage.prompt_tokens_details', async (t) => {
  const server = await startScriptedServer([
    { content: 'a', usageIn: 'finish', usage: { prompt_tokens: 1000, cached_tokens: 900 } },
    { content: 'b', usage: { prompt_tokens: 1200, cached_tokens: 1000 } },
    { content: 'c', events: [{ ...base, choices: [{ index: 0, delta: { content: 'c' }, finish_reason: 'stop' }], usage: { prompt_tokens: 50, completion_tokens: 1, total_tokens: 51 } }] },
  ]);
  t.teardown(() => server.close());
  const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 };
  const ask = () => streamChat(chat(endpoint), { signal: new AbortController().signal, retry, emit: () => {} });
  t.like((await ask()).usage, { promptTokens: 1000, cachedTokens: 900, prefilledTokens: 100, cacheFrom: 'timings' });
  t.like((await ask()).usage, { promptTokens: 1200, cachedTokens: 1000, prefilledTokens: 200, cacheFrom: 'usage' });
  const bare = (await ask()).usage!;
  t.is(bare.cachedTokens, 0);
  t.is(bare.prefilledTokens, undefined, 'a server that says nothing of its cache leaves the prefill unknown');
});
