import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadNodeLlamaCpp } from '../../../actors/model-io/embedded/load.js';
import { MODEL_IO, type ChatMessage, type ChatReply, type Endpoint, type ModelEvent, type ModelIoProtocol, type ModelIoRequest, type ToolSchema } from '../../../actors/model-io/protocol.js';
import { builtinTools } from '../../../actors/tool-executor/registry.js';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { actorAddress, client, defineActor } from '../../../runtime/actor.js';
import { ReikaError, Supervisor } from '../../../runtime/index.js';
import { embeddedUnavailable, tinyModel } from '../../helpers/embedded.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * The embedded engine in a real model-io thread, on a tiny random-weight llama model written by
 * test/helpers/gguf-model.ts. Its text is noise; the tests look at what does not depend on the
 * weights: the KV cache counters (llama.cpp's own decode meter), grammar-constrained calls,
 * sequences per caller, abort, and the errors a user can hit.
 */

const actorModule = new URL('../../../actors/model-io/actor.js', import.meta.url);
const unavailable = await embeddedUnavailable();
const serial = unavailable ? test.skip : test.serial;
if (unavailable) test.skip(`embedded engine tests skipped: node-llama-cpp cannot load here (${unavailable})`, () => {});

const model = unavailable ? '' : tinyModel();
const tools: ToolSchema[] = builtinTools.toolsArray('agent');

function endpointFor(path: string, contextWindow = 8192): Endpoint {
  return { baseUrl: 'embedded', model: path, requestTimeoutMs: 0, engine: 'embedded', embedded: { threads: 1, contextWindow } };
}

/** A model-io thread, optionally with a REIKA_EMBEDDED_SCRIPT (the thread reads its environment at spawn). */
async function modelIo(script?: unknown[]): Promise<Supervisor> {
  const supervisor = new Supervisor();
  if (script) {
    const path = join(tempDir(), 'script.json');
    writeFileSync(path, JSON.stringify(script));
    process.env.REIKA_EMBEDDED_SCRIPT = path;
  }
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
  } finally {
    delete process.env.REIKA_EMBEDDED_SCRIPT;
  }
  return supervisor;
}

function chat(supervisor: Supervisor, endpoint: Endpoint, messages: ChatMessage[], extra: Partial<Extract<ModelIoRequest, { type: 'chat' }>> = {}, options: { to?: string; scope?: string; onDelta?: (event: ModelEvent) => void } = {}): Promise<ChatReply> {
  const body: ModelIoRequest = { type: 'chat', endpoint, messages, tools, maxTokens: 12, ...extra };
  const to = options.to ? actorAddress<ModelIoProtocol>(options.to) : MODEL_IO;
  return client(supervisor, to).request(body, { ...(options.scope ? { scope: options.scope } : {}), ...(options.onDelta ? { onDelta: options.onDelta } : {}) }) as Promise<ChatReply>;
}

/** The messages the agent loop sends next: the reply as an assistant message, its calls answered. */
function followUp(messages: ChatMessage[], reply: ChatReply, next: string): ChatMessage[] {
  const out = [...messages];
  out.push({
    role: 'assistant',
    content: reply.text,
    ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) } : {}),
  });
  for (const call of reply.toolCalls) out.push({ role: 'tool', tool_call_id: call.id, content: `${call.name}: 3 lines\n1 | alpha\n2 | beta` });
  if (reply.toolCalls.length === 0) out.push({ role: 'user', content: next });
  return out;
}

const start: ChatMessage[] = [
  { role: 'system', content: 'You are reika, a coding agent. Use the tools.' },
  { role: 'user', content: 'Read notes.txt and tell me what it says.' },
];

serial('discover loads the GGUF and reports the engine: model, window, threads, backend', async (t) => {
  const supervisor = await modelIo();
  try {
    const reply = await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint: endpointFor(model, 4096) } satisfies ModelIoRequest);
    t.deepEqual(reply.models, [model]);
    t.true(reply.contextWindow! >= 4096 && reply.contextWindow! < 4096 + 256, String(reply.contextWindow));
    const engine = reply.engine!;
    t.like(engine, { kind: 'embedded', model, architecture: 'llama', name: 'reika-tiny-test', trainedWindow: 32_768, windowSource: 'configured', threads: 1, backend: 'cpu', gpuLayers: 0, chatTemplate: 'JinjaTemplate', toolCalls: 'template' });
    t.is(reply.contextWindow, engine.window);
    t.true(engine.modelBytes > 100_000);
    t.regex(engine.nodeLlamaCpp, /^3\.21\.1/);
    const trained = await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint: { ...endpointFor(model), embedded: { threads: 1 } } } satisfies ModelIoRequest);
    t.is(trained.engine!.windowSource, 'trained');
    t.is(trained.contextWindow, 32_768);
  } finally {
    await supervisor.close();
  }
});

serial('each request of a conversation evaluates only what was appended: the cache holds the last prompt and everything generated', async (t) => {
  const supervisor = await modelIo();
  try {
    const endpoint = endpointFor(model);
    let messages = start;
    const usages = [];
    for (let round = 0; round < 4; round++) {
      const reply = await chat(supervisor, endpoint, messages, { toolChoice: round % 2 ? 'none' : undefined });
      t.not(reply.finishReason, 'aborted');
      usages.push(reply.usage!);
      messages = followUp(messages, reply, `Round ${round + 2}: go on.`);
    }
    t.is(usages[0]!.cachedTokens, 0);
    t.is(usages[0]!.prefilledTokens, usages[0]!.promptTokens);
    for (let n = 1; n < usages.length; n++) {
      const previous = usages[n - 1]!;
      const usage = usages[n]!;
      // Everything the last request left in the cache is reused…
      t.is(usage.cachedTokens, previous.promptTokens + previous.completionTokens, `request ${n + 1}`);
      // …and llama.cpp's own meter counted only the appended tokens.
      t.is(usage.prefilledTokens, usage.promptTokens - usage.cachedTokens, `request ${n + 1}`);
      t.true(usage.prefilledTokens! < usage.promptTokens / 5, `request ${n + 1} evaluated ${usage.prefilledTokens} of ${usage.promptTokens}`);
    }
  } finally {
    await supervisor.close();
  }
});

serial('a changed earlier message (a compaction) re-evaluates from the first token that differs, not from the start', async (t) => {
  const supervisor = await modelIo();
  try {
    const endpoint = endpointFor(model);
    const first = await chat(supervisor, endpoint, start, { toolChoice: 'none' });
    const second = followUp(start, first, 'Now list the files.');
    await chat(supervisor, endpoint, second, { toolChoice: 'none' });
    // The context manager replaced the first reply by a summary: the prompt changes there.
    const compacted = [...second];
    compacted[2] = { role: 'assistant', content: '[summary of an earlier answer]' };
    const after = await chat(supervisor, endpoint, compacted, { toolChoice: 'none' });
    const usage = after.usage!;
    t.true(usage.cachedTokens > 1000, `kept ${usage.cachedTokens} tokens of the system prompt and first message`);
    t.true(usage.cachedTokens < usage.promptTokens);
    t.is(usage.prefilledTokens, usage.promptTokens - usage.cachedTokens);
  } finally {
    await supervisor.close();
  }
});

serial('forced calls come out in the template\'s syntax, valid for their schemas, and a literal answer ends the turn', async (t) => {
  const supervisor = await modelIo([
    { call: 'read', arguments: { path: 'notes.txt' } },
    { call: 'grep', arguments: { pattern: 'TODO' } },
    { answer: 'notes.txt says alpha, beta.' },
  ]);
  try {
    const endpoint = endpointFor(model);
    const events: ModelEvent[] = [];
    const read = await chat(supervisor, endpoint, start, { maxTokens: 200 }, { onDelta: (e) => events.push(e) });
    t.is(read.finishReason, 'tool_calls');
    t.is(read.toolCalls.length, 1);
    t.like(read.toolCalls[0], { name: 'read', arguments: { path: 'notes.txt' }, source: 'native' });
    t.deepEqual(events.filter((e) => e.type === 'tool-call').map((e) => (e as { call: { id: string } }).call.id), [read.toolCalls[0]!.id]);
    const second = followUp(start, read, '');
    const grep = await chat(supervisor, endpoint, second, { maxTokens: 200 });
    // Optional arguments the step left out were sampled as null and dropped.
    t.deepEqual(grep.toolCalls.map((c) => [c.name, c.arguments]), [['grep', { pattern: 'TODO' }]]);
    t.is(grep.usage!.cachedTokens, read.usage!.promptTokens + read.usage!.completionTokens);
    const answer = await chat(supervisor, endpoint, followUp(second, grep, ''), { maxTokens: 200 });
    t.is(answer.text, 'notes.txt says alpha, beta.');
    t.is(answer.finishReason, 'stop');
    t.deepEqual(answer.toolCalls, []);
  } finally {
    await supervisor.close();
  }
});

serial('several calls in one reply, recorded one per message by the context manager, still extend the cache exactly', async (t) => {
  const supervisor = await modelIo([
    { calls: [{ call: 'read', arguments: { path: 'a.txt' } }, { call: 'read', arguments: { path: 'b.txt' } }] },
    { answer: 'Both read.' },
  ]);
  try {
    const endpoint = endpointFor(model);
    const context = new ContextManager({ system: start[0]!.content as string, tools, window: 8192 });
    context.addUser('Read a.txt and b.txt.');
    const first = await chat(supervisor, endpoint, context.prepare().messages, { maxTokens: 300 });
    t.deepEqual(first.toolCalls.map((c) => c.arguments), [{ path: 'a.txt' }, { path: 'b.txt' }]);
    context.addAssistant(first.text, first.toolCalls);
    for (const call of first.toolCalls) context.addToolResult({ callId: call.id, name: call.name, summary: `read ${String(call.arguments.path)}`, payload: '1 | x' });
    const messages = context.prepare().messages;
    t.is(messages.filter((m) => m.role === 'assistant').length, 2, 'one call per assistant message');
    const second = await chat(supervisor, endpoint, messages, { maxTokens: 300 });
    t.is(second.text, 'Both read.');
    t.is(second.usage!.cachedTokens, first.usage!.promptTokens + first.usage!.completionTokens);
    t.is(second.usage!.prefilledTokens, second.usage!.promptTokens - second.usage!.cachedTokens);
  } finally {
    await supervisor.close();
  }
});

serial('a template without tools gets node-llama-cpp\'s generic call syntax, still grammar-constrained', async (t) => {
  const chatml = "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
  const plain = tinyModel({ chatTemplate: chatml }, 'plain.gguf');
  const supervisor = await modelIo([{ call: 'edit', arguments: { path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' } }]);
  try {
    const endpoint = endpointFor(plain);
    const discovered = await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint } satisfies ModelIoRequest);
    t.is(discovered.engine!.toolCalls, 'generic');
    const reply = await chat(supervisor, endpoint, start, { maxTokens: 200 });
    t.deepEqual(reply.toolCalls.map((c) => [c.name, c.arguments]), [['edit', { path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }]]);
  } finally {
    await supervisor.close();
  }
});

serial('subagents get sequences of their own: a wave leaves the main conversation in the cache', async (t) => {
  const supervisor = await modelIo();
  try {
    const endpoint = endpointFor(model, 4096);
    // Stand-ins for subagent threads: actors named like them, asking model-io in their own name.
    for (const name of ['subagent/1', 'subagent/2']) {
      await supervisor.register(actorAddress<ModelIoProtocol>(name), defineActor<ModelIoProtocol>({ handle: (request, context) => client(context, MODEL_IO).request(request) }));
    }
    const main = await chat(supervisor, endpoint, start, { toolChoice: 'none' });
    const brief: ChatMessage[] = [{ role: 'system', content: 'You are a reika subagent: report once.' }, { role: 'user', content: 'Find the tests.' }];
    const [a, b] = await Promise.all([chat(supervisor, endpoint, brief, { toolChoice: 'none' }, { to: 'subagent/1' }), chat(supervisor, endpoint, [...brief.slice(0, 1), { role: 'user', content: 'Find the docs.' }], { toolChoice: 'none' }, { to: 'subagent/2' })]);
    t.is(a.usage!.cachedTokens, 0);
    t.is(b.usage!.cachedTokens, 0);
    const discovered = await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint } satisfies ModelIoRequest);
    t.is(discovered.engine!.subagentSequences, 4);
    const again = await chat(supervisor, endpoint, followUp(start, main, 'And now?'), { toolChoice: 'none' });
    t.is(again.usage!.cachedTokens, main.usage!.promptTokens + main.usage!.completionTokens);
    // A subagent of the next wave reuses a sequence whose cache starts with the same brief.
    const next = await chat(supervisor, endpoint, [...brief.slice(0, 1), { role: 'user', content: 'Find the tests again.' }], { toolChoice: 'none' }, { to: 'subagent/1' });
    t.true(next.usage!.cachedTokens > 0);
  } finally {
    await supervisor.close();
  }
});

serial('an abort stops generation at once and leaves the engine ready for the next request', async (t) => {
  // A long pinned answer: the model is still generating when the abort comes.
  const supervisor = await modelIo([{ answer: 'A long answer that goes on. '.repeat(200) }]);
  try {
    const endpoint = endpointFor(model, 4096);
    let deltas = 0;
    let abortedAt = 0;
    const pending = chat(supervisor, endpoint, start, { toolChoice: 'none', maxTokens: 100_000 }, {
      scope: 'turn-1',
      onDelta: (event) => {
        if (event.type === 'text-delta' && ++deltas === 3) {
          abortedAt = performance.now();
          supervisor.abort('turn-1');
        }
      },
    });
    const aborted = await pending;
    t.log(`reply ${Math.round(performance.now() - abortedAt)} ms after the abort`);
    t.is(aborted.finishReason, 'aborted');
    t.true(aborted.text.length > 0);
    const reply = await chat(supervisor, endpoint, start, { toolChoice: 'none' });
    t.not(reply.finishReason, 'aborted');
    t.true(reply.usage!.cachedTokens > 1000, 'the prompt evaluated before the abort is still cached');
  } finally {
    await supervisor.close();
  }
});

serial('a request that does not fit the window fails with one sentence naming REIKA_CONTEXT_WINDOW', async (t) => {
  const supervisor = await modelIo();
  try {
    const error = await t.throwsAsync(chat(supervisor, endpointFor(model, 512), start));
    t.true(ReikaError.isInstance(error));
    t.like(error, { code: 'REIKA_ERR_CONTEXT_OVERFLOW' });
    t.regex(error!.message, /needs \d+ tokens but the embedded engine's window is \d+ — set REIKA_CONTEXT_WINDOW higher\./);
  } finally {
    await supervisor.close();
  }
});

serial('the errors a user can hit are one sentence each: file missing, not a GGUF, unknown architecture, broken file, too little memory', async (t) => {
  const dir = tempDir();
  const notGguf = join(dir, 'notes.gguf');
  writeFileSync(notGguf, 'just some text, not a model\n');
  const cases: Array<[string, Endpoint, string, RegExp]> = [
    ['missing', endpointFor(join(dir, 'nope.gguf')), 'REIKA_ERR_MODEL_FILE', /^There is no model file at .*nope\.gguf — set REIKA_MODEL to the path of a \.gguf file\.$/],
    ['not gguf', endpointFor(notGguf), 'REIKA_ERR_MODEL_FILE', /is not a GGUF model \(it does not start with "GGUF"\) — set REIKA_MODEL to a \.gguf file\.$/],
    ['architecture', endpointFor(tinyModel({ architecture: 'no-such-arch' }, 'arch.gguf')), 'REIKA_ERR_MODEL_UNSUPPORTED', /cannot load .*arch\.gguf: unknown model architecture: 'no-such-arch'\.$/],
    ['broken', endpointFor(tinyModel({ omitTensor: 'blk.1.ffn_down.weight' }, 'broken.gguf')), 'REIKA_ERR_MODEL_UNSUPPORTED', /cannot load .*broken\.gguf: missing tensor 'blk\.1\.ffn_down\.weight'\.$/],
    ['memory', endpointFor(model, 400_000_000), 'REIKA_ERR_OUT_OF_MEMORY', /^Not enough memory for a window of 400000000 tokens of .* — set REIKA_CONTEXT_WINDOW lower or use a smaller quantisation\.$/],
  ];
  const supervisor = await modelIo();
  try {
    for (const [name, endpoint, code, message] of cases) {
      const error = await t.throwsAsync(client(supervisor, MODEL_IO).request({ type: 'discover', endpoint } satisfies ModelIoRequest), undefined, name);
      t.true(ReikaError.isInstance(error), name);
      t.is<string, string>((error as ReikaError).code, code, name);
      t.regex(error!.message, message, name);
      t.false(error!.message.includes('\n'), name);
    }
    // The engine is still usable afterwards.
    const reply = await chat(supervisor, endpointFor(model, 4096), start, { toolChoice: 'none' });
    t.true(reply.usage!.promptTokens > 0);
  } finally {
    await supervisor.close();
  }
});

test('without node-llama-cpp, one sentence says how to get it', async (t) => {
  const error = await t.throwsAsync(loadNodeLlamaCpp('node-llama-cpp-that-is-not-installed'));
  t.true(ReikaError.isInstance(error));
  t.is(error!.message, 'Running a .gguf model inside reika needs its embedded engine (node-llama-cpp 3.21.1), which is not installed — run `reika engine install` (about 70 MB, this platform\'s build only), or set REIKA_BASE_URL to use a server.');
});
