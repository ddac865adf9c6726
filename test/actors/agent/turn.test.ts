import test from 'ava';
import { runTurn, type TurnOptions } from '../../../actors/agent/turn.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { MODEL_IO, type ChatMessage, type ModelIoProtocol, type ToolCall } from '../../../actors/model-io/protocol.js';
import { TOOL_EXECUTOR, type ToolDelta, type ToolExecutorProtocol, type ToolExecutorRequest, type ToolResult } from '../../../actors/tool-executor/protocol.js';
import { defineActor, Supervisor } from '../../../runtime/index.js';
import { ReikaError } from '../../../runtime/errors.js';
import { toolSettings } from '../../helpers/tool-settings.js';
import { onAbort } from '../../../runtime/abort.js';

type Step = { text?: string; calls?: Array<Omit<ToolCall, 'source'>> };

/** A fake model that plays `steps` in order (the last one forever) and records each request. */
function fakeModel(steps: Step[], seen: ChatMessage[][]) {
  return defineActor<ModelIoProtocol>({
    handle(request, context) {
      if (request.type !== 'chat') throw new Error('unexpected');
      seen.push(request.messages);
      const step = steps[Math.min(seen.length - 1, steps.length - 1)]!;
      if (step.text) context.emit({ type: 'text-delta', text: step.text });
      const toolCalls = (step.calls ?? []).map((call) => ({ ...call, source: 'native' as const }));
      return { text: step.text ?? '', reasoning: '', toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 60 }, notices: [] };
    },
  });
}

/** A fake executor: `run(request, signal)` decides the result. */
function fakeExecutor(run: (request: ToolExecutorRequest, signal: AbortSignal, emit: (d: ToolDelta) => void) => Promise<ToolResult> | ToolResult) {
  return defineActor<ToolExecutorProtocol>({
    handle: (request, context) => run(request, context.signal, (d) => context.emit(d)),
  });
}

function done(request: ToolExecutorRequest, summary: string, payload = ''): ToolResult {
  return { callId: request.callId, name: request.name, status: 'done', summary, payload };
}

async function setup(t: { teardown(fn: () => Promise<void>): void }, model: ReturnType<typeof fakeModel>, executor: ReturnType<typeof fakeExecutor>) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.register(MODEL_IO, model);
  await supervisor.register(TOOL_EXECUTOR, executor);
  const events: AgentEvent[] = [];
  const controller = new AbortController();
  const options: TurnOptions = {
    router: supervisor,
    turn: 't1',
    scope: 'turn-1',
    signal: controller.signal,
    endpoint: { baseUrl: 'http://x/v1', model: 'm', requestTimeoutMs: 0 },
    tools: [],
    toolContext: { root: '/tmp', approvals: 'safe', mode: 'agent', settings: toolSettings('/tmp') },
    context: new ContextManager({ system: 'sys', tools: [] }),
    maxRequests: 200,
    emit: (event) => events.push(event),
  };
  return { supervisor, events, controller, options };
}

test('a turn runs read, edit and bash through the executor and ends with the answer', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel(
    [
      { calls: [{ id: 'c1', name: 'read', arguments: { path: 'a.ts' } }] },
      { text: 'Fixing.', calls: [{ id: 'c2', name: 'edit', arguments: { path: 'a.ts', old_string: '1', new_string: '2' } }] },
      { calls: [{ id: 'c3', name: 'bash', arguments: { command: 'npm test' } }] },
      { text: 'Done: a.ts now returns 2.' },
    ],
    seen,
  );
  const ran: string[] = [];
  const executor = fakeExecutor((request, _signal, emit) => {
    ran.push(request.name);
    if (request.name === 'bash') emit({ type: 'output', stream: 'stdout', text: 'ok\n' });
    return done(request, `${request.name} ok`, `${request.name} payload`);
  });
  const { events, options } = await setup(t, model, executor);
  const result = await runTurn('fix a.ts', options);
  t.is(result.status, 'answered');
  t.is(result.answer, 'Done: a.ts now returns 2.');
  t.is(result.requests, 4);
  t.deepEqual(ran, ['read', 'edit', 'bash']);
  t.deepEqual(result.toolCalls.map((c) => [c.name, c.status]), [['read', 'done'], ['edit', 'done'], ['bash', 'done']]);
  t.deepEqual(result.usage, { promptTokens: 400, completionTokens: 40, cachedTokens: 240, reported: 4 });
  // The last request holds the whole story, tool results answering their calls.
  const last = seen[3]!;
  t.deepEqual(last.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
  t.deepEqual(last[7], { role: 'tool', tool_call_id: (last[6] as { tool_calls: Array<{ id: string }> }).tool_calls[0]!.id, content: 'bash ok\n\nbash payload' });
  t.regex((last[5] as { content: string }).content, /^edit ok\n\[output dropped/, 'window unknown: older payloads go as summaries');
  t.true(events.some((e) => e.type === 'tool-output' && e.text === 'ok\n'));
  const states = events.filter((e) => e.type === 'tool-call' && e.state.call.id === 'c1').map((e) => (e as { state: { status: string } }).state.status);
  t.deepEqual(states, ['pending', 'running', 'done']);
  t.is(events.at(-1)!.type, 'turn-end');
});

test('a model repeating the same call is told so, then stopped', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ calls: [{ id: 'x', name: 'read', arguments: { path: 'same.ts' } }] }], seen);
  const executor = fakeExecutor((request) => done(request, 'read same.ts', 'same content'));
  const { events, options } = await setup(t, model, executor);
  const result = await runTurn('loop please', options);
  t.is(result.status, 'loop');
  t.true(result.requests <= 15);
  t.regex(result.error!.message, /repeated the same read call/);
  const nudges = events.filter((e) => e.type === 'nudge');
  t.true(nudges.length >= 2, 'a note before the stop');
  t.regex((seen[2]!.at(-1)!.content as string), /already made this exact read call/);
});

test('the same failing edit is stopped after a note', async (t) => {
  const seen: ChatMessage[][] = [];
  let n = 0;
  const model = fakeModel([{ calls: [{ id: 'e', name: 'edit', arguments: { path: 'a.ts', old_string: 'nope', new_string: 'x' } }] }], seen);
  const executor = fakeExecutor((request) => ({ callId: request.callId, name: 'edit', status: 'error', summary: `edit a.ts: old_string not found (${++n})`, payload: '', errorCode: 'EDIT_NO_MATCH' }));
  const { options } = await setup(t, model, executor);
  const result = await runTurn('edit', options);
  t.is(result.status, 'loop');
  t.is(result.requests, 3);
  t.regex(seen[2]!.at(-1)!.content as string, /failed again the same way/);
});

test('a tool executor that will not come back (crash loop) ends the turn with its one-line error, the calls told as failed', async (t) => {
  // Found by the issue 21 soak: after the executor's 5th death in 10 s every call failed at once,
  // and the model went on calling tools until the loop guard stopped it as a repeated failing edit.
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ calls: [{ id: 'e1', name: 'edit', arguments: { path: 'a.ts', old_string: '1', new_string: '2' } }, { id: 'e2', name: 'read', arguments: { path: 'b.ts' } }] }], seen);
  const down = 'the process that runs the tools crashed 5 times within 10 s; it is not restarted again';
  const executor = fakeExecutor(() => {
    throw new ReikaError('REIKA_ERR_ACTOR_FAILED', down);
  });
  const { options } = await setup(t, model, executor);
  const result = await runTurn('fix a.ts', options);
  t.is(result.status, 'error');
  t.deepEqual(result.error, { code: 'REIKA_ERR_ACTOR_FAILED', message: down });
  t.is(result.requests, 1, 'no request is made only to fail the next calls the same way');
  t.deepEqual(result.toolCalls.map((c) => [c.name, c.status]), [['edit', 'error'], ['read', 'error']]);
});

test('a crash-looping MCP server does not end the turn: the other tools still work', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ calls: [{ id: 'm1', name: 'mcp__db__query', arguments: {} }] }, { text: 'Answered without the database.' }], seen);
  const { supervisor, options } = await setup(t, model, fakeExecutor((request) => done(request, 'ok')));
  await supervisor.register(
    'mcp/db' as never,
    fakeExecutor(() => {
      throw new ReikaError('REIKA_ERR_ACTOR_FAILED', 'the MCP server db crashed 5 times within 10 s; it is not restarted again');
    }),
  );
  const result = await runTurn('query', { ...options, route: (name) => (name.startsWith('mcp__') ? ('mcp/db' as never) : undefined) });
  t.is(result.status, 'answered');
  t.deepEqual(result.toolCalls.map((c) => c.status), ['error']);
});

test('the request budget ends a turn that never answers', async (t) => {
  const seen: ChatMessage[][] = [];
  let n = 0;
  const model = defineActor<ModelIoProtocol>({
    handle(request) {
      if (request.type === 'chat') seen.push(request.messages);
      const id = `c${++n}`;
      return { text: '', reasoning: '', toolCalls: [{ id, name: 'read', arguments: { path: `${id}.ts` }, source: 'native' }], finishReason: 'tool_calls', usage: null, notices: [] };
    },
  });
  const executor = fakeExecutor((request) => done(request, `read ${String(request.args.path)}`, String(Math.random())));
  const { options } = await setup(t, model as never, executor);
  const result = await runTurn('go', { ...options, maxRequests: 5, lastRequestNote: 'Report now.' });
  t.is(result.status, 'max-turns');
  t.is(result.requests, 5);
  t.is(result.error!.code, 'REIKA_ERR_MAX_TURNS');
  const last = seen[4]!.at(-1)!;
  t.is(last.role, 'tool', 'the note rides in the newest tool result, not a user message after it');
  t.regex(last.content as string, /\n\nReport now\.$/);
});

test('an abort during a tool call ends the turn aborted, the call cancelled as data', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ calls: [{ id: 'b', name: 'bash', arguments: { command: 'sleep 100' } }, { id: 'r', name: 'read', arguments: { path: 'x' } }] }], seen);
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const executor = fakeExecutor(
    (request, signal) =>
      new Promise<ToolResult>((resolve) => {
        started();
        onAbort(signal, () => resolve({ callId: request.callId, name: request.name, status: 'cancelled', summary: 'bash: cancelled', payload: 'partial' }));
      }),
  );
  const { supervisor, controller, options } = await setup(t, model, executor);
  const turn = runTurn('go', options);
  await running;
  supervisor.abort('turn-1', 'user pressed Esc');
  controller.abort('user pressed Esc');
  const result = await turn;
  t.is(result.status, 'aborted');
  t.deepEqual(result.toolCalls.map((c) => [c.id, c.status]), [['b', 'cancelled'], ['r', 'cancelled']]);
  const prepared = options.context.prepare().messages;
  t.deepEqual(prepared.filter((m) => m.role === 'tool').length, 2, 'every call has its result: the transcript stays valid');
});

test('a call that waits for approval passes through awaiting-approval', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ calls: [{ id: 'd', name: 'bash', arguments: { command: 'rm -rf x' } }] }, { text: 'ok' }], seen);
  const listeners = new Set<(phase: 'ask' | 'answered') => void>();
  const executor = fakeExecutor((request) => {
    for (const l of listeners) l('ask');
    for (const l of listeners) l('answered');
    return { callId: request.callId, name: 'bash', status: 'declined', summary: 'declined: reika runs headless', payload: '' };
  });
  const { events, options } = await setup(t, model, executor);
  const result = await runTurn('go', {
    ...options,
    watchApprovals: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  t.is(result.status, 'answered');
  const states = events.filter((e) => e.type === 'tool-call').map((e) => (e as { state: { status: string } }).state.status);
  t.deepEqual(states, ['pending', 'running', 'awaiting-approval', 'running', 'error']);
  t.is(result.toolCalls[0]!.status, 'declined');
});

test('a call whose arguments were broken JSON is not run; the model is told to send it again', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = defineActor<ModelIoProtocol>({
    handle(request) {
      if (request.type === 'chat') seen.push(request.messages);
      const toolCalls: ToolCall[] = seen.length === 1 ? [{ id: 'w', name: 'write', arguments: {}, rawArguments: '{"path":"a.ts","content":"cut', source: 'native' }] : [];
      return { text: seen.length === 1 ? '' : 'ok', reasoning: '', toolCalls, finishReason: 'stop', usage: null, notices: [] };
    },
  });
  const ran: string[] = [];
  const executor = fakeExecutor((request) => {
    ran.push(request.name);
    return done(request, 'ran');
  });
  const { options } = await setup(t, model as never, executor);
  const result = await runTurn('write it', options);
  t.is(result.status, 'answered');
  t.deepEqual(ran, []);
  t.is(result.toolCalls[0]!.status, 'error');
  t.regex(seen[1]!.at(-1)!.content as string, /not valid JSON .*Send the call again/s);
});

test('a reply whose call markup cannot be read gets one corrective note; a second in a row ends the turn with a clear error', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = defineActor<ModelIoProtocol>({
    handle(request) {
      if (request.type === 'chat') seen.push(request.messages);
      return { text: '<tool_call>{"name": "read", "arguments": {"path": </tool_call>', reasoning: '', toolCalls: [], finishReason: 'stop', usage: null, notices: [], dialect: 'hermes', correction: '[tool call not run: it could not be read (its JSON is unbalanced). Write each call complete]' };
    },
  });
  const executor = fakeExecutor((request) => done(request, 'never', ''));
  const { options } = await setup(t, model as never, executor);
  const result = await runTurn('go', options);
  t.is(result.status, 'error');
  t.is(result.error!.code, 'REIKA_ERR_UNREADABLE_TOOL_CALL');
  t.is(seen.length, 2, 'one retry after the note, then the turn ends');
  const note = seen[1]!.at(-1)!;
  t.is(note.role, 'user');
  t.regex(note.content as string, /^\[tool call not run/);
  t.is(seen[1]!.at(-2)!.role, 'assistant', 'the note follows the reply it corrects');
});

/** A SIGUSR2 listener that aborts the turn, as headless's SIGINT listener does (session.close). */
function abortOnSignal(t: { teardown(fn: () => void): void }, controller: AbortController): () => void {
  const listener = () => controller.abort('interrupted by SIGUSR2');
  process.on('SIGUSR2', listener);
  t.teardown(() => process.off('SIGUSR2', listener));
  return () => process.kill(process.pid, 'SIGUSR2');
}

test('a signal that came while the turn ran on settled promises stops it before its first request goes', async (t) => {
  const seen: ChatMessage[][] = [];
  const { options, controller } = await setup(t, fakeModel([{ text: 'hi' }], seen), fakeExecutor((r) => done(r, 'x')));
  const signal = abortOnSignal(t, controller);
  // Sent, not yet handled: the listener runs when the event loop next polls.
  signal();
  const result = await runTurn('go', options);
  t.is(result.status, 'aborted');
  t.is(seen.length, 0, 'no request went to model-io after the signal');
});

test('a signal that came with the reply stops its tool calls before any runs', async (t) => {
  const ran: string[] = [];
  const signalled: Array<() => void> = [];
  const model = defineActor<ModelIoProtocol>({
    handle() {
      signalled[0]!();
      return { text: '', reasoning: '', toolCalls: [{ id: 'c1', name: 'write', arguments: { path: 'a.txt', content: 'x' }, source: 'native' }], finishReason: 'tool_calls', usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 0 }, notices: [] };
    },
  });
  const { options, controller, events } = await setup(t, model, fakeExecutor((r) => (ran.push(r.name), done(r, 'written'))));
  signalled.push(abortOnSignal(t, controller));
  const result = await runTurn('go', options);
  t.is(result.status, 'aborted');
  t.deepEqual(ran, [], 'the write never reached the executor');
  t.true(result.toolCalls.every((call) => call.status === 'cancelled'), 'a call the turn kept ends cancelled, as data');
  t.true(events.every((e) => e.type !== 'tool-call' || e.state.status === 'pending' || e.state.status === 'cancelled'));
});

test('an empty reply after tool results is asked again as it was, byte for byte; only a second one gets the nudge, a third ends the turn', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ calls: [{ id: 'r', name: 'read', arguments: { path: 'a.ts' } }] }, {}, {}, {}, {}], seen);
  const executor = fakeExecutor((request) => done(request, 'read a.ts', 'content'));
  const { events, options } = await setup(t, model, executor);
  const result = await runTurn('read it', options);
  t.is(result.status, 'answered');
  t.is(seen.length, 4, 'the call, the same request again, the nudge; then the turn ends');
  t.deepEqual(seen[2], seen[1], 'the engine has all of it cached: nothing was added');
  t.deepEqual(seen[3]!.slice(0, seen[1]!.length), seen[1], 'the nudge is appended');
  t.deepEqual(seen[3]!.slice(seen[1]!.length).map((m) => m.role), ['assistant', 'user']);
  t.regex(seen[3]!.at(-1)!.content as string, /last reply was empty/);
  t.is(events.filter((e) => e.type === 'nudge').length, 1);
});

test('empty replies count since the last tool call: one long after a nudged one is asked again, not taken as the end', async (t) => {
  // Found by the issue 21 soak: a turn whose model once answered nothing twice (nudged) ended at
  // the next empty reply, many rounds later, as "answered" with an old text.
  const seen: ChatMessage[][] = [];
  const read = (id: string) => ({ calls: [{ id, name: 'read', arguments: { path: `${id}.ts` } }] });
  const model = fakeModel([read('a'), {}, {}, read('b'), read('c'), {}, {}, { text: 'All read.' }], seen);
  const executor = fakeExecutor((request) => done(request, `read ${String(request.args.path)}`, 'content'));
  const { events, options } = await setup(t, model, executor);
  const result = await runTurn('read them', options);
  t.is(result.status, 'answered');
  t.is(result.answer, 'All read.');
  t.is(seen.length, 8);
  t.is(events.filter((e) => e.type === 'nudge').length, 2, 'each pair of empty replies got its one nudge');
});

test('a reply of only white space is nudged at once (it is in the history, so the same request cannot be asked again)', async (t) => {
  const seen: ChatMessage[][] = [];
  const model = fakeModel([{ text: '\n' }, { text: 'done' }], seen);
  const executor = fakeExecutor((request) => done(request, 'x'));
  const { options } = await setup(t, model, executor);
  const result = await runTurn('go', options);
  t.is(result.status, 'answered');
  t.is(result.answer, 'done');
  t.is(seen.length, 2);
  t.regex(seen[1]!.at(-1)!.content as string, /last reply was empty/);
});
