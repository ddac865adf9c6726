import test from 'ava';
import { MODEL_IO, type ChatReply, type DiscoverReply, type ModelEvent, type ModelIoRequest } from '../../../actors/model-io/protocol.js';
import { client, ReikaError, Supervisor } from '../../../runtime/index.js';
import { startScriptedServer, vllmModel } from '../../helpers/scripted-server.js';

const actorModule = new URL('../../../actors/model-io/actor.js', import.meta.url);

test('the model-io actor streams a turn from a worker thread through the supervisor', async (t) => {
  const server = await startScriptedServer([{ reasoning: 'think', content: 'Hello from the thread', toolCalls: [{ name: 'read', arguments: { path: 'x' } }], split: { mode: 'random', seed: 9 } }], {
    models: [vllmModel('m', 8192)],
  });
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule, options: { retry: { baseDelayMs: 10 } } });
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 5_000 };
    const events: ModelEvent[] = [];
    const body: ModelIoRequest = {
      type: 'chat',
      endpoint,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'read', description: 'read', parameters: { type: 'object', properties: {} } } }],
    };
    const reply = (await client(supervisor, MODEL_IO).request(body, { onDelta: (e: ModelEvent) => events.push(e) })) as ChatReply;
    t.is(reply.text, 'Hello from the thread');
    t.is(reply.reasoning, 'think');
    t.deepEqual(reply.toolCalls.map((c) => c.name), ['read']);
    t.is(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join(''), 'Hello from the thread');
    t.is(events.at(-1)!.type, 'finish');
    const discovered = (await client(supervisor, MODEL_IO).request({ type: 'discover', endpoint } satisfies ModelIoRequest)) as DiscoverReply;
    t.deepEqual(discovered, { models: ['m'], contextWindow: 8192 });
  } finally {
    await supervisor.close();
    await server.close();
  }
});

test('an abort of the turn scope closes the stream in the thread and the reply ends aborted', async (t) => {
  const server = await startScriptedServer([{ content: 'x'.repeat(2000), charsPerDelta: 2, chunkDelayMs: 5, split: { mode: 'fixed', size: 64 } }]);
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
    let deltas = 0;
    const pending = client(supervisor, MODEL_IO).request({ type: 'chat', endpoint: { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 }, messages: [{ role: 'user', content: 'go' }], tools: [] } satisfies ModelIoRequest,
      { scope: 'turn-1', onDelta: () => ++deltas === 3 && supervisor.abort('turn-1', 'Esc') },
    );
    const reply = (await pending) as ChatReply;
    t.is(reply.finishReason, 'aborted');
    t.true(reply.text.length > 0 && reply.text.length < 2000);
    t.is(await server.requests[0]!.outcome, 'client-closed');
  } finally {
    await supervisor.close();
    await server.close();
  }
});

test('a bad key reaches the caller as a typed one-line error from the thread', async (t) => {
  const server = await startScriptedServer([{ fault: { type: 'status', status: 401 } }]);
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
    const error = await t.throwsAsync(client(supervisor, MODEL_IO).request({ type: 'chat', endpoint: { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 }, messages: [], tools: [] } satisfies ModelIoRequest));
    t.true(ReikaError.isInstance(error));
    t.is((error as ReikaError).code, 'REIKA_ERR_AUTH');
    t.regex((error as ReikaError).message, /REIKA_API_KEY/);
  } finally {
    await supervisor.close();
    await server.close();
  }
});

test('parallel chats through one actor keep their streams apart', async (t) => {
  const server = await startScriptedServer((request) => ({ content: `answer to ${request.json.messages[0].content}`, charsPerDelta: 1, split: { mode: 'random', seed: 4, max: 30 } }));
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: MODEL_IO, kind: 'thread', module: actorModule });
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 5_000 };
    const names = ['alpha', 'beta', 'gamma', 'delta'];
    const results = await Promise.all(
      names.map(async (name) => {
        let streamed = '';
        const reply = (await client(supervisor, MODEL_IO).request({ type: 'chat', endpoint, messages: [{ role: 'user', content: name }], tools: [] } satisfies ModelIoRequest, {
          onDelta: (e: ModelEvent) => {
            if (e.type === 'text-delta') streamed += e.text;
          },
        })) as ChatReply;
        return [reply.text, streamed];
      }),
    );
    t.deepEqual(results, names.map((name) => [`answer to ${name}`, `answer to ${name}`]));
  } finally {
    await supervisor.close();
    await server.close();
  }
});
