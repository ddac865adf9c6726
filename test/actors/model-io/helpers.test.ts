import test from 'ava';
import { canonicalCall, repeatedCallNotices } from '../../../actors/model-io/calls/canonical-call.js';
import { mapChunk } from '../../../actors/model-io/calls/map-chunk.js';
import { parseArguments } from '../../../actors/model-io/calls/parse-arguments.js';
import type { ToolCall } from '../../../actors/model-io/protocol.js';
import { requestBody } from '../../../actors/model-io/http/request-body.js';
import { parseRetryAfter, retryDelay, DEFAULT_RETRY_POLICY } from '../../../actors/model-io/http/retry-policy.js';
import { ThinkSplitter, type Piece } from '../../../actors/model-io/calls/think-splitter.js';

test('canonicalCall ignores key order and ids, so reordered arguments are the same call', (t) => {
  t.is(canonicalCall({ name: 'read', arguments: { path: 'a', limit: 2 } }), canonicalCall({ name: 'read', arguments: { limit: 2, path: 'a' } }));
  t.not(canonicalCall({ name: 'read', arguments: { path: 'a' } }), canonicalCall({ name: 'read', arguments: { path: 'b' } }));
  t.is(canonicalCall({ name: 'x', arguments: { o: { b: [1, { d: 1, c: 2 }], a: null } } }), 'x {"o":{"a":null,"b":[1,{"c":2,"d":1}]}}');
});

test('three identical calls in a row raise one loop notice; interleaved calls do not', (t) => {
  const c = (path: string, id: string): ToolCall => ({ id, name: 'read', arguments: { path }, source: 'native' });
  t.is(repeatedCallNotices([c('a', '1'), c('a', '2'), c('a', '3')]).length, 1);
  t.is(repeatedCallNotices([c('a', '1'), c('b', '2'), c('a', '3'), c('a', '4')]).length, 0);
  t.regex(repeatedCallNotices([c('a', '1'), c('a', '2'), c('a', '3'), c('a', '4')])[0]!, /4 times/);
});

test('arguments parse from objects, JSON text, double-encoded JSON and nothing', (t) => {
  t.deepEqual(parseArguments('{"a":1}'), { ok: true, value: { a: 1 } });
  t.deepEqual(parseArguments('"{\\"a\\":1}"'), { ok: true, value: { a: 1 } });
  t.deepEqual(parseArguments(''), { ok: true, value: {} });
  t.deepEqual(parseArguments({ b: 2 }), { ok: true, value: { b: 2 } });
  t.false(parseArguments('{"a":').ok);
  t.false(parseArguments('[1]').ok);
  t.false(parseArguments('7').ok);
});

test('the request body keeps messages and tools byte for byte and asks for usage', (t) => {
  const messages = [{ role: 'system' as const, content: 'S' }, { role: 'user' as const, content: 'héllo' }];
  const tools = [{ type: 'function' as const, function: { name: 'read', description: 'd', parameters: { type: 'object', properties: {} } } }];
  const body = requestBody({ type: 'chat', endpoint: { baseUrl: 'http://x/v1', model: 'm', requestTimeoutMs: 0 }, messages, tools, maxTokens: 100 });
  t.true(body.startsWith(`{"messages":${JSON.stringify(messages)},"tools":${JSON.stringify(tools)},`));
  t.deepEqual(JSON.parse(body).stream_options, { include_usage: true });
  t.is(JSON.parse(body).stream, true);
  t.is(JSON.parse(body).max_tokens, 100);
  const again = requestBody({ type: 'chat', endpoint: { baseUrl: 'http://x/v1', model: 'm', requestTimeoutMs: 0 }, messages: [...messages, { role: 'user', content: 'more' }], tools, maxTokens: 100 });
  t.true(again.startsWith(`{"messages":${JSON.stringify(messages).slice(0, -1)}`), 'an appended message keeps the earlier bytes');
});

test('Retry-After is read as seconds or as an HTTP date, and a too-long wait is not waited', (t) => {
  t.is(parseRetryAfter('2'), 2000);
  t.is(parseRetryAfter(new Date(Date.now() + 3000).toUTCString(), Date.now()) !== undefined, true);
  t.is(parseRetryAfter('soon'), undefined);
  t.is(retryDelay(DEFAULT_RETRY_POLICY, 1, 1500), 1500);
  t.is(retryDelay(DEFAULT_RETRY_POLICY, 1, 3_600_000), undefined);
  t.is(retryDelay(DEFAULT_RETRY_POLICY, DEFAULT_RETRY_POLICY.maxRetries + 1), undefined);
  const d = retryDelay(DEFAULT_RETRY_POLICY, 3, undefined, () => 0.5)!;
  t.is(d, DEFAULT_RETRY_POLICY.baseDelayMs * 4);
});

test('usage maps prompt, completion and cached tokens from usage or from llama.cpp timings', (t) => {
  t.deepEqual(mapChunk({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 8 } } }), [{ kind: 'usage', usage: { promptTokens: 10, completionTokens: 3, cachedTokens: 8, prefilledTokens: 2, cacheFrom: 'usage' } }]);
  t.deepEqual(mapChunk({ choices: [{ delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 3 }, timings: { cache_n: 6, prompt_n: 4 } }), [
    { kind: 'finish', reason: 'stop' },
    { kind: 'usage', usage: { promptTokens: 10, completionTokens: 3, cachedTokens: 6, prefilledTokens: 4, cacheFrom: 'timings' } },
  ]);
  t.deepEqual(mapChunk({ choices: [{ delta: {}, finish_reason: 'stop' }], timings: { cache_n: 6, prompt_n: 4, predicted_n: 2 } })[1], { kind: 'usage', usage: { promptTokens: 10, completionTokens: 2, cachedTokens: 6, prefilledTokens: 4, cacheFrom: 'timings' } });
  // llama.cpp with return_progress: an empty delta and the prompt's progress.
  t.deepEqual(mapChunk({ choices: [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }], prompt_progress: { total: 48000, cache: 1000, processed: 12300, time_ms: 41000 } }), [
    { kind: 'progress', progress: { processed: 12300, total: 48000, cached: 1000, elapsedMs: 41000 } },
  ]);
  t.deepEqual(mapChunk({ choices: [{ delta: { reasoning: 'r' } }] }), [{ kind: 'reasoning', text: 'r' }]);
  t.deepEqual(mapChunk({ error: { message: 'boom', code: 503 } }), [{ kind: 'error', status: 503, message: 'boom' }]);
});

function split(input: string, size: number): Piece[] {
  const splitter = new ThinkSplitter();
  const out: Piece[] = [];
  for (let i = 0; i < input.length; i += size) out.push(...splitter.push(input.slice(i, i + size)));
  out.push(...splitter.end());
  const merged: Piece[] = [];
  for (const p of out) {
    const last = merged.at(-1);
    if (last && last.channel === p.channel) last.text += p.text;
    else merged.push({ ...p });
  }
  return merged;
}

test('a leading <think> block goes to reasoning, in pieces of any size', (t) => {
  const input = '\n<think>\nI should read a.ts.\n</think>\n\nHere is the answer with <think> inside.';
  const want: Piece[] = [
    { channel: 'reasoning', text: 'I should read a.ts.\n' },
    { channel: 'text', text: 'Here is the answer with <think> inside.' },
  ];
  for (const size of [1, 2, 3, 5, 8, 1000]) t.deepEqual(split(input, size), want, `size ${size}`);
  t.deepEqual(split('No thinking <think>here</think>', 1), [{ channel: 'text', text: 'No thinking <think>here</think>' }]);
  t.deepEqual(split('<think>cut off', 1), [{ channel: 'reasoning', text: 'cut off' }]);
  t.deepEqual(split('<thin', 1), [{ channel: 'text', text: '<thin' }]);
});

test('a reply opening with a long run of white space costs each delta its own size, and keeps that white space as before', (t) => {
  // 200,000 newline deltas before the text (each trimmed the whole run again: 100,000 took 32 s).
  t.deepEqual(split(`${'\n'.repeat(200_000)}hello`, 1), [{ channel: 'text', text: `${'\n'.repeat(200_000)}hello` }]);
  t.deepEqual(split(`${' \n'.repeat(50_000)}<think>a</think>b`, 2), [{ channel: 'reasoning', text: 'a' }, { channel: 'text', text: 'b' }]);
});

test('a bare </think> (the template opened the block) is dropped once, in pieces of any size, and only when no <think> came first', (t) => {
  // A template that opens the thinking block in the generation prompt leaves only its end in the
  // reply when the engine runs no reasoning parser (issue 34: DSML after a bare </think>).
  const call = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>';
  for (const size of [1, 2, 3, 7, 1000]) {
    t.deepEqual(split(`</think>\n\n${call}`, size), [{ channel: 'text', text: call }], `size ${size}`);
    t.deepEqual(split(`I will read it.</think>\n${call}`, size), [{ channel: 'text', text: `I will read it.${call}` }], `size ${size}`);
    t.deepEqual(split('a </think> b </think> c', size), [{ channel: 'text', text: 'a b </think> c' }], `size ${size}`);
    t.deepEqual(split('No thinking <think>here</think>', size), [{ channel: 'text', text: 'No thinking <think>here</think>' }], `size ${size}`);
  }
  t.deepEqual(split('ends with </thi', 1), [{ channel: 'text', text: 'ends with </thi' }]);
});
