import test from 'ava';
import { MODEL_IO, type ChatReply, type DiscoverReply, type Endpoint, type ModelEvent, type ModelIoProtocol, type ModelIoRequest } from '../../actors/model-io/protocol.js';
import { INDEXER, type FileIndex } from '../../actors/indexer/protocol.js';
import { SUBAGENTS, subagentAddress, type SubagentBrief, type SubagentReport } from '../../actors/subagent/protocol.js';
import { TOOL_EXECUTOR, type ToolDelta, type ToolResult } from '../../actors/tool-executor/protocol.js';
import { APPROVER } from '../../actors/approver/protocol.js';
import { client, defineActor, Supervisor, type Protocol, type Router } from '../../runtime/index.js';
import { toolSettings } from '../helpers/tool-settings.js';

/**
 * The actor contracts are checked by the compiler. Each `@ts-expect-error` line below is a call
 * that a stale caller or a loosened type would let through: if it ever compiles, the directive
 * itself is an error and `npm run build` fails. The function is compiled, never run.
 */
const endpoint: Endpoint = { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', requestTimeoutMs: 0 };
const brief: SubagentBrief = { root: '/tmp', system: 'S', tools: [], endpoint, discover: false, maxTurns: 1, approvals: 'safe', toolSettings: toolSettings('/tmp') };

export async function contracts(router: Router): Promise<void> {
  const modelIo = client(router, MODEL_IO);
  // Each request answers its own reply.
  const chat: ChatReply = await modelIo.request({ type: 'chat', endpoint, messages: [], tools: [] });
  const discovered: DiscoverReply = await modelIo.request({ type: 'discover', endpoint });
  const index: FileIndex = await client(router, INDEXER).request({ type: 'scan', root: '/tmp' });
  const result: ToolResult = await client(router, SUBAGENTS).request({ type: 'run', callId: 'c', task: 't', files: [], brief });
  const report: SubagentReport = await client(router, subagentAddress('subagent/', 1)).request({ type: 'run', callId: 'c', task: 't', files: [], brief });
  void [chat, discovered, index, result, report];

  // @ts-expect-error discover does not answer a ChatReply
  const wrongReply: ChatReply = await modelIo.request({ type: 'discover', endpoint });
  // @ts-expect-error model-io has no `run` request
  await modelIo.request({ type: 'run', callId: 'c', name: 'read', args: {}, context: { root: '/', approvals: 'safe', mode: 'agent' } });
  // @ts-expect-error a chat needs its messages and tools
  await modelIo.request({ type: 'chat', endpoint });
  // @ts-expect-error a misspelt field is not part of the request
  await modelIo.request({ type: 'chat', endpoint, messages: [], tools: [], maxToken: 10 });
  // @ts-expect-error the tool executor runs tools, it does not chat
  await client(router, TOOL_EXECUTOR).request({ type: 'chat', endpoint, messages: [], tools: [] });
  // @ts-expect-error the indexer's scan needs a root
  await client(router, INDEXER).request({ type: 'scan' });
  // @ts-expect-error the approver answers approvals only
  await client(router, APPROVER).request({ type: 'scan', root: '/tmp' });
  // @ts-expect-error model-io streams ModelEvents, not tool output
  await modelIo.request({ type: 'discover', endpoint }, { onDelta: (delta: ToolDelta) => void delta });
  // @ts-expect-error an actor is reached by its address, never by a bare name
  await router.request('model-io', { type: 'discover', endpoint });
  // @ts-expect-error the router checks the body against the address's protocol too
  await router.request(MODEL_IO, { type: 'scan', root: '/tmp' });
  // @ts-expect-error a bare name does not make a client either
  client(router, 'tool-executor');
  void wrongReply;

  // Deltas are typed: no annotation needed to read a model event.
  await modelIo.request({ type: 'chat', endpoint, messages: [], tools: [] }, { onDelta: (event) => void (event.type === 'text-delta' && event.text) });
  // A body known only as the union answers the union.
  const either = await modelIo.request({ type: 'discover', endpoint } as ModelIoRequest);
  // @ts-expect-error the union reply is not narrowed
  const narrowed: DiscoverReply = either;
  void narrowed;
}

// @ts-expect-error a protocol must give every request type its reply
export interface MissingReply extends Protocol<{ type: 'a' } | { type: 'b' }> {
  replies: { a: string };
}

test('a typed client narrows each reply to its request and streams typed deltas', async (t) => {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.register(
    MODEL_IO,
    defineActor<ModelIoProtocol>({
      handle(request, context) {
        if (request.type === 'discover') return { models: ['m'], contextWindow: 4096 };
        context.emit({ type: 'text-delta', text: 'hi' });
        return { text: 'hi', reasoning: '', toolCalls: [], finishReason: 'stop', usage: null, notices: [] };
      },
    }),
  );
  const modelIo = client(supervisor, MODEL_IO);
  const events: ModelEvent[] = [];
  const chat = await modelIo.request({ type: 'chat', endpoint, messages: [], tools: [] }, { onDelta: (event) => events.push(event) });
  const discovered = await modelIo.request({ type: 'discover', endpoint });
  t.is(chat.text, 'hi');
  t.deepEqual(events, [{ type: 'text-delta', text: 'hi' }]);
  t.deepEqual(discovered, { models: ['m'], contextWindow: 4096 });
  t.is(String(modelIo.address), 'model-io');
});
