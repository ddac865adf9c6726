import test from 'ava';
import { runTurn } from '../../../actors/agent/turn.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { MODEL_IO, type ChatMessage, type ModelIoProtocol } from '../../../actors/model-io/protocol.js';
import { TOOL_EXECUTOR, type ToolExecutorProtocol } from '../../../actors/tool-executor/protocol.js';
import { defineActor, Supervisor } from '../../../runtime/index.js';
import { tempDir } from '../../helpers/temp.js';
import { toolSettings } from '../../helpers/tool-settings.js';

// A secret of the environment, as reika knows it; the tool's output carries it three ways.
const secret = 'sk-fake-turn-redaction-2718281828';
process.env.TURN_REDACTION_API_KEY = secret;
const base64 = Buffer.from(`OPENAI_API_KEY=${secret}\n`).toString('base64');
const reversed = [...secret].reverse().join('');

test('a tool result and its live output reach the model, the events and the screen with secrets redacted', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = defineActor<ModelIoProtocol>({
    handle(request) {
      if (request.type !== 'chat') throw new Error('unexpected');
      seen.push(request.messages);
      const calls = seen.length === 1 ? [{ id: 'c1', name: 'bash', arguments: { command: 'env' }, source: 'native' as const }] : [];
      return { text: calls.length ? '' : 'done', reasoning: '', toolCalls: calls, finishReason: calls.length ? 'tool_calls' : 'stop', usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0 }, notices: [] };
    },
  });
  const executor = defineActor<ToolExecutorProtocol>({
    handle(request, context) {
      // Cut inside the secret, as a pipe may cut it.
      context.emit({ type: 'output', stream: 'stdout', text: `KEY=${secret.slice(0, 9)}` });
      context.emit({ type: 'output', stream: 'stdout', text: `${secret.slice(9)}\n${base64}\n${reversed}\n` });
      return { callId: request.callId, name: request.name, status: 'done', summary: `printed ${secret}`, payload: `KEY=${secret}\n${base64}\n${reversed}\n`, meta: { diff: `+${secret}` } };
    },
  });
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.register(MODEL_IO, model);
  await supervisor.register(TOOL_EXECUTOR, executor);
  const events: AgentEvent[] = [];
  const root = tempDir();
  const result = await runTurn('print the environment', {
    router: supervisor,
    turn: 't1',
    scope: 'turn-1',
    signal: new AbortController().signal,
    endpoint: { baseUrl: 'http://x/v1', model: 'm', requestTimeoutMs: 0 },
    tools: [],
    toolContext: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) },
    context: new ContextManager({ system: 'sys', tools: [] }),
    maxRequests: 10,
    emit: (event) => events.push(event),
  });
  t.is(result.status, 'answered');
  const leaks = (text: string) => [secret, base64, reversed, secret.slice(4, -4)].some((form) => text.includes(form));
  const sent = JSON.stringify(seen);
  t.false(leaks(sent), 'the model saw a secret');
  t.true(sent.includes('[redacted]'));
  const shown = events.filter((e) => e.type === 'tool-output').map((e) => (e as { text: string }).text).join('');
  t.false(leaks(shown), `the screen saw a secret: ${shown}`);
  t.is(shown.split('\n')[0], 'KEY=[redacted]');
  t.false(leaks(JSON.stringify(events)), 'an event carried a secret');
});
