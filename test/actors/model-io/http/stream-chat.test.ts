import test, { type ExecutionContext } from 'ava';
import { createServer } from 'node:http';
import type { ChatReply, Endpoint, ModelEvent, ToolSchema } from '../../../../actors/model-io/protocol.js';
import { streamChat, type ChatRequest } from '../../../../actors/model-io/http/stream-chat.js';
import { estimateTokens, promptText, startScriptedServer, type ScriptedReply } from '../../../helpers/scripted-server.js';

const tools: ToolSchema[] = ['read', 'grep'].map((name) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: { path: { type: 'string' }, pattern: { type: 'string' } } } },
}));

function chat(endpoint: Endpoint, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { type: 'chat', endpoint, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Look at a.ts' }], tools, ...extra };
}

async function run(reply: ScriptedReply | ScriptedReply[], request: Partial<ChatRequest> = {}, signal = new AbortController().signal) {
  const server = await startScriptedServer(Array.isArray(reply) ? reply : [reply]);
  const events: ModelEvent[] = [];
  try {
    const endpoint = { baseUrl: server.url, model: 'scripted-model', requestTimeoutMs: 5_000 };
    const result = await streamChat(chat(endpoint, request), { signal, emit: (e) => events.push(e), retry: { maxRetries: 3, maxConnectionRetries: 2, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 5_000 } });
    return { reply: result, events, server };
  } finally {
    await server.close();
  }
}

const full: ScriptedReply = {
  reasoning: 'The user wants a.ts — let me read it. 日本語も。',
  content: 'Reading the file now. ✓',
  toolCalls: [
    { name: 'read', arguments: { path: 'a.ts' }, idLate: true, fragments: 5 },
    { name: 'grep', arguments: { pattern: 'export' }, id: null },
  ],
};

function expectFull(t: ExecutionContext, reply: ChatReply, events: ModelEvent[]) {
  t.is<string | undefined, string | undefined>(reply.reasoning, full.reasoning);
  t.is<string | undefined, string | undefined>(reply.text, full.content);
  t.deepEqual(reply.toolCalls.map((c) => [c.name, c.arguments, c.source]), [
    ['read', { path: 'a.ts' }, 'native'],
    ['grep', { pattern: 'export' }, 'native'],
  ]);
  t.is(reply.toolCalls[0]!.id, 'call_0', 'a late id is still used');
  t.regex(reply.toolCalls[1]!.id, /^[A-Za-z0-9]{9}$/, 'a missing id is minted: 9 letters and digits, as Mistral templates require');
  t.is(reply.finishReason, 'tool_calls');
  t.truthy(reply.usage);
  const text = events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('');
  const reasoning = events.filter((e) => e.type === 'reasoning-delta').map((e) => (e as { text: string }).text).join('');
  t.is<string | undefined, string | undefined>(text, full.content);
  t.is<string | undefined, string | undefined>(reasoning, full.reasoning);
  const order = events.map((e) => e.type).filter((type, i, all) => type !== all[i - 1]);
  t.deepEqual(order, ['reasoning-delta', 'text-delta', 'tool-call', 'finish']);
}

test('reasoning, then content, then native tool calls, with usage in the last chunk, survive random byte splits', async (t) => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const { reply, events, server } = await run({ ...full, split: { mode: 'random', seed, max: 9 } });
    expectFull(t, reply, events);
    const body = server.requests[0]!.json;
    t.is(reply.usage!.promptTokens, estimateTokens(promptText(body)));
    t.is(events.at(-1)!.type, 'finish');
  }
});

test('one byte at a time, CRLF line endings and keep-alive comments give the same turn', async (t) => {
  const { reply, events } = await run({ ...full, split: { mode: 'byte' }, lineEnding: '\r\n', keepAlive: true });
  expectFull(t, reply, events);
});

test('usage inside the finish chunk with llama.cpp timings reports cached prompt tokens', async (t) => {
  const { reply } = await run({ content: 'hi', usageIn: 'finish', usage: { prompt_tokens: 120, completion_tokens: 2, cached_tokens: 100 } });
  t.deepEqual(reply.usage, { promptTokens: 120, completionTokens: 2, cachedTokens: 100, prefilledTokens: 20, cacheFrom: 'timings' });
});

test('the second request of a session reports the shared prefix as cached tokens', async (t) => {
  const server = await startScriptedServer([{ content: 'one' }, { content: 'two' }]);
  try {
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 5_000 };
    const first = await streamChat(chat(endpoint), { signal: new AbortController().signal, emit: () => {} });
    const request = chat(endpoint);
    request.messages.push({ role: 'assistant', content: 'one' }, { role: 'user', content: 'and?' });
    const second = await streamChat(request, { signal: new AbortController().signal, emit: () => {} });
    t.is(first.usage!.cachedTokens, 0);
    t.true(second.usage!.cachedTokens > 0 && second.usage!.cachedTokens < second.usage!.promptTokens);
    const [a, b] = server.chatRequests();
    t.true(b!.body.startsWith(a!.body.slice(0, a!.body.indexOf(']'))), 'the second body extends the first byte for byte');
  } finally {
    await server.close();
  }
});

test('the request carries the key, the model, stream and include_usage', async (t) => {
  const server = await startScriptedServer([{ content: 'x' }]);
  try {
    await streamChat(chat({ baseUrl: `${server.url}/`, model: 'qwen', apiKey: 'sk-test', requestTimeoutMs: 0 }, { maxTokens: 64 }), { signal: new AbortController().signal, emit: () => {} });
    const request = server.requests[0]!;
    t.is(request.path, '/v1/chat/completions');
    t.is(request.headers.authorization, 'Bearer sk-test');
    t.like(request.json, { model: 'qwen', stream: true, stream_options: { include_usage: true }, max_tokens: 64 });
  } finally {
    await server.close();
  }
});

test('a server that ignores stream and answers JSON gives the same turn', async (t) => {
  const { reply, events } = await run({ ...full, fault: { type: 'json' } });
  t.is(reply.text, full.content!);
  t.is(reply.reasoning, full.reasoning!);
  t.is(reply.toolCalls.length, 2);
  t.truthy(reply.usage);
  t.true(events.some((e) => e.type === 'text-delta'));
});

test('calls printed in the content are parsed, streamed as tool-call events and never shown as text', async (t) => {
  const content = 'Let me check.\n<tool_call>\n{"name": "read", "arguments": {"path": "b.ts"}}\n</tool_call>';
  const { reply, events } = await run({ content, split: { mode: 'byte' }, charsPerDelta: 3 });
  t.is(reply.text, 'Let me check.\n');
  t.deepEqual(reply.toolCalls.map((c) => [c.name, c.arguments, c.source]), [['read', { path: 'b.ts' }, 'text']]);
  t.is(reply.finishReason, 'tool_calls');
  t.false(events.some((e) => e.type === 'text-delta' && e.text.includes('<')));
});

test('a call leaked into the reasoning is used only when the turn has no other call', async (t) => {
  const leaked = '<tool_call>{"name": "grep", "arguments": {"pattern": "x"}}</tool_call>';
  const alone = await run({ reasoning: `I will search. ${leaked}`, content: '' });
  t.deepEqual(alone.reply.toolCalls.map((c) => [c.name, c.source]), [['grep', 'reasoning']]);
  t.is(alone.reply.reasoning, 'I will search. ');
  const both = await run({ reasoning: `Plan: ${leaked}`, toolCalls: [{ name: 'grep', arguments: { pattern: 'x' } }] });
  t.deepEqual(both.reply.toolCalls.map((c) => c.source), ['native']);
  t.true(both.reply.notices.some((n) => /reasoning/.test(n)));
  const think = await run({ content: `<think>Use ${leaked}</think>` });
  t.deepEqual(think.reply.toolCalls.map((c) => [c.name, c.source]), [['grep', 'reasoning']]);
  t.is(think.reply.text, '');
});

test('native arguments cut off by max_tokens keep their raw text and raise a notice', async (t) => {
  const { reply } = await run({ toolCalls: [{ name: 'read', arguments: '{"path": "a.t' }], finishReason: 'length' });
  t.is(reply.finishReason, 'length');
  t.is(reply.toolCalls[0]!.rawArguments, '{"path": "a.t');
  t.deepEqual(reply.toolCalls[0]!.arguments, {});
  t.is(reply.notices.length, 1);
});

test('the same call three times in one response raises a loop notice', async (t) => {
  const same = { name: 'read', arguments: { path: 'a' } };
  const { reply, events } = await run({ toolCalls: [same, same, same] });
  t.is(reply.toolCalls.length, 3);
  t.true(events.some((e) => e.type === 'notice' && /repeated the same call 3 times/.test(e.message)));
});

test('abort closes the HTTP stream at once and the reply ends aborted with what arrived', async (t) => {
  const server = await startScriptedServer([{ content: 'a'.repeat(400), charsPerDelta: 1, chunkDelayMs: 5, split: { mode: 'fixed', size: 40 } }]);
  try {
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 };
    const pending = streamChat(chat(endpoint), {
      signal: controller.signal,
      emit: (e) => {
        events.push(e);
        if (e.type === 'text-delta' && events.length === 5) controller.abort();
      },
    });
    const reply = await pending;
    t.is(reply.finishReason, 'aborted');
    t.true(reply.text.length > 0 && reply.text.length < 400);
    t.deepEqual(reply.toolCalls, []);
    t.is(await server.requests[0]!.outcome, 'client-closed');
  } finally {
    await server.close();
  }
});

test('a stream that ends with a plain close and no [DONE] still finishes', async (t) => {
  const { reply } = await run({ content: 'bye', done: false, usage: false, finishReason: null });
  t.is(reply.text, 'bye');
  t.is(reply.finishReason, 'stop');
  t.is(reply.usage, null);
});

test('a JSON answer without a JSON content type is still read as JSON', async (t) => {
  const plain = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'plain json' }, finish_reason: 'stop' }] })));
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  try {
    const port = (plain.address() as { port: number }).port;
    const reply = await streamChat(chat({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', requestTimeoutMs: 2_000 }), { signal: new AbortController().signal, emit: () => {} });
    t.is(reply.text, 'plain json');
    t.is(reply.finishReason, 'stop');
  } finally {
    plain.closeAllConnections();
    await new Promise<void>((resolve) => plain.close(() => resolve()));
  }
});

/** A server that answers every chat request with `status`, `headers` and `body`, then leaves the socket as `end` says. */
async function answering(status: number, headers: Record<string, string>, body: string, end: 'close' | 'hold' = 'close') {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(status, headers);
      if (end === 'close') res.end(body);
      else res.write(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    endpoint: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', requestTimeoutMs: 0 },
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const quickRetry = { maxRetries: 2, maxConnectionRetries: 2, baseDelayMs: 10, maxDelayMs: 20, maxRetryAfterMs: 1_000 };

test('[DONE] missing: finish_reason and usage end the reply although the server keeps the stream open', async (t) => {
  const server = await startScriptedServer([{ content: 'The whole answer.', done: false, fault: { type: 'stall', afterBytes: 1e9 } }]);
  try {
    // No idle timeout: only the end of the reply itself can end this request.
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 };
    const reply = await streamChat(chat(endpoint), { signal: new AbortController().signal, emit: () => {} });
    t.is(reply.text, 'The whole answer.');
    t.is(reply.finishReason, 'stop');
    t.truthy(reply.usage, 'the usage that came after the finish chunk is kept');
    t.is(await server.requests[0]!.outcome, 'client-closed', 'reika closed the stream');
  } finally {
    await server.close();
  }
});

test('[DONE] missing with usage in the finish chunk (llama.cpp) ends the reply too', async (t) => {
  const server = await startScriptedServer([{ content: 'Done here.', usageIn: 'finish', done: false, fault: { type: 'stall', afterBytes: 1e9 } }]);
  try {
    const reply = await streamChat(chat({ baseUrl: server.url, model: 'm', requestTimeoutMs: 0 }), { signal: new AbortController().signal, emit: () => {} });
    t.is(reply.text, 'Done here.');
    t.truthy(reply.usage);
  } finally {
    await server.close();
  }
});

test('[DONE] missing and the announced usage never comes: the reply still ends, without usage', async (t) => {
  // OpenAI style: every chunk carries `usage: null` when include_usage is on; here the usage chunk never follows.
  const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], usage: null })}\n\n`;
  const server = await answering(200, { 'content-type': 'text/event-stream' }, chunk({ role: 'assistant', content: 'Almost' }, null) + chunk({ content: ' there.' }, null) + chunk({}, 'stop'), 'hold');
  try {
    const reply = await streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: () => {} });
    t.is(reply.text, 'Almost there.');
    t.is(reply.finishReason, 'stop');
    t.is(reply.usage, null);
  } finally {
    await server.close();
  }
});

test('an HTTP 200 with an HTML page is an error naming the content type, the first line and the title, and is not retried', async (t) => {
  const page = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n';
  const server = await answering(200, { 'content-type': 'text/html; charset=utf-8' }, page);
  try {
    const error = await t.throwsAsync(streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: () => {}, retry: quickRetry }));
    t.is((error as { code?: string }).code, 'REIKA_ERR_STREAM');
    t.regex(error!.message, /HTTP 200 with text\/html: "<!DOCTYPE html>" \(title "502 Bad Gateway"\), not an event stream/);
    t.regex(error!.message, /REIKA_BASE_URL/);
    t.is(server.requests(), 1);
  } finally {
    await server.close();
  }
});

test('on a profile, an answer that is not an event stream names the profile’s URL variable', async (t) => {
  const server = await answering(200, { 'content-type': 'text/html' }, '<html><head><title>Sign in</title></head></html>\n');
  try {
    const error = await t.throwsAsync(streamChat(chat({ ...server.endpoint, urlVariable: 'REIKA_CLOUD_BASE_URL' }), { signal: new AbortController().signal, emit: () => {}, retry: quickRetry }));
    t.regex(error!.message, /not an event stream — check REIKA_CLOUD_BASE_URL/);
  } finally {
    await server.close();
  }
});

test('an HTML page served as text/event-stream is named as the page it is, not as an empty body, and is not retried', async (t) => {
  // Found by the issue 21 soak: a sign-in page sent with the event-stream type read as a stream
  // of no events ("an empty body"), and was retried.
  const server = await answering(200, { 'content-type': 'text/event-stream' }, '<html><head><title>Sign in</title></head><body>login</body></html>');
  try {
    const error = await t.throwsAsync(streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: () => {}, retry: quickRetry }));
    t.regex(error!.message, /HTTP 200 with text\/event-stream: "<html><head><title>Sign in<\/title>.*", not an event stream/);
    t.is(server.requests(), 1);
  } finally {
    await server.close();
  }
});

test('an event stream cut inside its first field name ("da" + "ta: …") is still read as a stream', async (t) => {
  const body = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'split early' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
  for (const seed of [1, 2, 3]) {
    const { reply } = await run({ raw: body, split: { mode: 'byte' }, ...(seed > 1 ? { split: { mode: 'random', seed, max: 3 } } : {}) });
    t.is(reply.text, 'split early');
  }
});

test('an HTTP 200 with a text/plain error is an error quoting its first line', async (t) => {
  const server = await answering(200, { 'content-type': 'text/plain' }, 'upstream connect error or disconnect/reset before headers\nretried 3 times\n');
  try {
    const error = await t.throwsAsync(streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: () => {}, retry: quickRetry }));
    t.regex(error!.message, /HTTP 200 with text\/plain: "upstream connect error or disconnect\/reset before headers", not an event stream/);
  } finally {
    await server.close();
  }
});

test('an HTTP 200 labelled application/json with an empty body is the empty-body error after one quick retry', async (t) => {
  // Found by the issue 21 soak: the JSON label skipped the sniff, so the empty body failed JSON.parse
  // and took the 429/5xx backoff (5 requests) to end as 'the answer was not valid JSON'.
  const server = await answering(200, { 'content-type': 'application/json' }, '');
  try {
    const retries: number[] = [];
    const error = await t.throwsAsync(streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: (event) => event.type === 'retry' && retries.push(event.delayMs), retry: { ...quickRetry, maxRetries: 4 } }));
    t.regex(error!.message, /^The model server answered HTTP 200 with an empty body \(application\/json\), not an event stream/);
    t.is(server.requests(), 2);
    t.is(retries.length, 1);
  } finally {
    await server.close();
  }
});

test('an HTML page labelled application/json is named as the page it is and not retried', async (t) => {
  const server = await answering(200, { 'content-type': 'application/json; charset=utf-8' }, '<!DOCTYPE html>\n<html><head><title>Bad gateway</title></head></html>');
  try {
    const error = await t.throwsAsync(streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: () => {}, retry: quickRetry }));
    t.regex(error!.message, /HTTP 200 with application\/json: "<!DOCTYPE html>" \(title "Bad gateway"\), not an event stream/);
    t.is(server.requests(), 1);
  } finally {
    await server.close();
  }
});

test('an event stream served as text/plain is still read as a stream', async (t) => {
  const body = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'streamed' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
  const server = await answering(200, { 'content-type': 'text/plain' }, body);
  try {
    const reply = await streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: () => {} });
    t.is(reply.text, 'streamed');
  } finally {
    await server.close();
  }
});

test('an HTTP 200 with an empty body is an error after one quick retry, not an empty answer nor the 429/5xx backoff', async (t) => {
  const server = await answering(200, { 'content-type': 'text/event-stream' }, '');
  try {
    const retries: number[] = [];
    const policy = { ...quickRetry, maxRetries: 4 };
    const error = await t.throwsAsync(streamChat(chat(server.endpoint), { signal: new AbortController().signal, emit: (event) => event.type === 'retry' && retries.push(event.delayMs), retry: policy }));
    t.regex(error!.message, /^The model server answered HTTP 200 with an empty body \(text\/event-stream\), not an event stream/);
    t.false(error!.message.includes('\n'), 'one line');
    t.is(server.requests(), 2, 'an empty body may be a hiccup: asked once more, not four times');
    t.is(retries.length, 1);
    t.true(retries[0]! <= policy.baseDelayMs * 1.2, 'at the first backoff');
  } finally {
    await server.close();
  }
});
