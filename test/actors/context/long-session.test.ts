import test from 'ava';
import { ContextManager, type PreparedRequest } from '../../../actors/context/context-manager.js';
import { sized } from '../../../actors/context/conversation.js';
import { argumentStandIn } from '../../../actors/context/huge-arguments.js';
import type { ChatMessage, ToolSchema } from '../../../actors/model-io/protocol.js';
import { ReikaError } from '../../../runtime/errors.js';
import { seededRandom } from '../../helpers/scripted-server.js';
import { appendOnly, orderProblem } from './message-order.js';

/**
 * The context policy over long sessions (issue 21): whatever the length, no request exceeds the
 * window, max_tokens keeps its floor, events stay rare and append-only holds between them, the
 * message order stays what strict templates accept, and memory stays flat.
 */

const tools: ToolSchema[] = ['read', 'grep', 'edit', 'bash'].map((name) => ({ type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { path: { type: 'string' } } } } }));
const SYSTEM = `You are reika, a coding agent.\n${'Rules and project facts. '.repeat(200)}`;

/**
 * An engine's count for a request: its tokenizer makes ~3.3 characters a token, a character outside
 * ASCII one token, a digit `digit` tokens (1 as Qwen's, Mistral's and Gemma's tokenizers do; a
 * tokenizer that groups digits makes them cheaper); plus 6 per message (the template).
 */
function engineTokens(prepared: PreparedRequest, digit = 1): number {
  const json = JSON.stringify(prepared.messages);
  let other = 0;
  let heavy = 0;
  let digits = 0;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code > 0x7f) heavy++;
    else if (code >= 0x30 && code <= 0x39) digits++;
    else other++;
  }
  return Math.ceil(other / 3.3 + heavy + digits * digit) + 6 * prepared.messages.length;
}

interface Shape {
  kind: string;
  size: number;
}

/** The issue's session: varied reads, greps, edits and commands, and now and then a 200 KB output. */
function issueMix(random: () => number, n: number): Shape {
  if (n % 23 === 0) return { kind: 'bash', size: 200_000 };
  const pick = random();
  if (pick < 0.4) return { kind: 'read', size: 600 + Math.floor(random() * 2_400) };
  if (pick < 0.6) return { kind: 'grep', size: 200 + Math.floor(random() * 1_000) };
  if (pick < 0.8) return { kind: 'edit', size: 150 };
  return { kind: 'bash', size: 100 + Math.floor(random() * 800) };
}

function payload(n: number, size: number): string {
  const line = `${n}: export function step${n}(input: string): string { return input.trim(); }\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

interface Run {
  requests: PreparedRequest[];
  events: number;
  problems: string[];
  maxEngineTokens: number;
  minMaxTokens: number;
  maxMessages: number;
}

/**
 * Drives `rounds` tool rounds of one task, checking every request as an engine would. `cache`:
 * what the engine reports of its cache, nothing, a plain prefix cache (it prefills an event's kept
 * history again) or one that finds the kept history (llama.cpp --cache-reuse).
 */
function runSession(context: ContextManager, task: string, rounds: number, seed: number, window: number, digit = 1, cache: 'none' | 'prefix' | 'reuse' = 'none'): Run {
  const random = seededRandom(seed);
  const run: Run = { requests: [], events: 0, problems: [], maxEngineTokens: 0, minMaxTokens: Infinity, maxMessages: 0 };
  context.addUser(task);
  let previous: ChatMessage[] | undefined;
  let lastResult: string | undefined;
  for (let n = 1; n <= rounds + 1; n++) {
    const prepared = context.prepare();
    const tokens = engineTokens(prepared, digit);
    run.maxEngineTokens = Math.max(run.maxEngineTokens, tokens);
    run.minMaxTokens = Math.min(run.minMaxTokens, prepared.maxTokens!);
    run.maxMessages = Math.max(run.maxMessages, prepared.messages.length);
    if (tokens + prepared.maxTokens! > window) run.problems.push(`request ${n}: ${tokens} prompt tokens + max_tokens ${prepared.maxTokens} > ${window}`);
    if (prepared.compaction) run.events++;
    else if (previous && !appendOnly(previous, prepared.messages)) run.problems.push(`request ${n} changed an earlier message without a compaction event`);
    const order = orderProblem(prepared.messages);
    if (order) run.problems.push(`request ${n}: ${order}`);
    const first = prepared.messages[1]!;
    if (typeof first.content !== 'string' || !first.content.startsWith(task)) run.problems.push(`request ${n}: the task is not intact`);
    if (lastResult !== undefined) {
      const last = prepared.messages.at(-1)!;
      if (last.role !== 'tool' || !last.content.includes(lastResult)) run.problems.push(`request ${n}: the last round is not intact`);
    }
    previous = prepared.messages;
    run.requests.push(prepared);
    // The server counts what was sent.
    const event = prepared.compaction;
    const cached = event ? event.heldTokens - (cache === 'reuse' ? 0 : event.keptTokens) : (run.requests.length > 1 ? engineTokens(run.requests.at(-2)!, digit) : 0);
    context.recordUsage(cache === 'none' ? { promptTokens: tokens, completionTokens: 30, cachedTokens: 0 } : { promptTokens: tokens, completionTokens: 30, cachedTokens: cached, prefilledTokens: tokens - cached, cacheFrom: 'timings' });
    if (n > rounds) break;
    const shape = issueMix(random, n);
    const id = `call_${seed}_${n}`;
    context.addAssistant(random() < 0.3 ? `Step ${n}: checking the next place.` : '', [{ id, name: shape.kind, arguments: { path: `src/module${n % 40}.ts` }, source: 'native' }]);
    const body = payload(n, shape.size);
    context.addToolResult({ callId: id, name: shape.kind, summary: `${shape.kind} src/module${n % 40}.ts: ${body.split('\n').length} lines`, payload: body, status: 'done' });
    lastResult = body.slice(0, 200);
  }
  return run;
}

test('300 rounds in a 16k window with large outputs: every request fits, max_tokens keeps its floor, at most one event per 20 rounds', (t) => {
  const window = 16_384;
  // Digits a token each, and as cheap as letters: the estimate weighs them high, and must still fit either way.
  for (const digit of [1, 1 / 3.3]) {
    const context = new ContextManager({ system: SYSTEM, tools, window });
    const run = runSession(context, 'Fix the failing tests in this project; read what you need first.', 300, 7, window, digit);
    t.deepEqual(run.problems, [], `digit ${digit.toFixed(2)} tokens`);
    t.true(run.minMaxTokens >= context.maxTokensFloor!, `max_tokens fell to ${run.minMaxTokens}`);
    t.true(run.events >= 5, `the session needed compactions (${run.events})`);
    t.true(run.events <= 300 / 20, `${run.events} compaction events in 300 rounds`);
    t.true(run.maxMessages < 200, `the conversation stays bounded (${run.maxMessages} messages at most)`);
    const last = run.requests.at(-1)!;
    t.true(last.messages.length < 200 && last.chars < 4 * window, 'memory stays flat: the last request is as small as the window makes it');
    t.log(`digit ${digit.toFixed(2)} tokens: events ${run.events}, largest request ${run.maxEngineTokens} engine tokens, smallest max_tokens ${run.minMaxTokens}`);
  }
});

test('an event keeps the newest rounds verbatim beside a recap of at most 5% of the threshold: a tenth of the history where the engine prefills them again, a fifth where it finds them', (t) => {
  const window = 16_384;
  for (const cache of ['prefix', 'reuse'] as const) {
    const context = new ContextManager({ system: SYSTEM, tools, window });
    const run = runSession(context, 'Fix the failing tests in this project; read what you need first.', 300, 7, window, 1, cache);
    const events = run.requests.filter((prepared) => prepared.compaction);
    t.true(events.length >= 5);
    t.true(events.length <= 300 / 20, `${cache}: ${events.length} events`);
    const shares: number[] = [];
    for (const [i, prepared] of events.entries()) {
      // Characters per token as the estimate counted this request.
      const perToken = prepared.chars / prepared.estimateTokens;
      // Sizes as the estimate weighs them (non-ASCII counts 4).
      const fixed = sized(prepared.messages[0]!).size + JSON.stringify(tools).length;
      // The recap rides in the newest message, after what the event kept (issue 33).
      const host = prepared.messages.at(-1)!.content as string;
      const recap = /\[Recap by reika[\s\S]*\]$/.exec(host)?.[0] ?? '';
      t.not(recap, '', `${cache}, event ${i + 1}: the newest message carries the recap`);
      t.true(recap.length <= 0.05 * context.threshold! * perToken + 400, `${cache}, event ${i + 1}: recap of ${recap.length} characters`);
      const task = sized(prepared.messages[1]!).size;
      const budget = context.threshold! * perToken - fixed - task;
      // The active round and what the event kept as it was sent.
      const verbatim = prepared.messages.slice(2).reduce((sum, message) => sum + sized(message).size + 1, 0) - JSON.stringify(recap).length;
      // The first event is where the engine shows whether it finds what was kept.
      if (i > 0) shares.push(verbatim / budget);
    }
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    t.log(`${cache}: ${events.length} events, kept verbatim ${shares.map((share) => `${Math.round(100 * share)}%`).join(' ')}`);
    if (cache === 'prefix') t.true(mean >= 0.05 && mean <= 0.2, `${cache}: on average ${Math.round(100 * mean)}% kept verbatim`);
    else t.true(mean >= 0.18, `${cache}: on average ${Math.round(100 * mean)}% kept verbatim`);
  }
});

test('the same holds over seeds and windows from 8k to 64k', (t) => {
  for (const window of [8_192, 16_384, 32_768, 65_536]) {
    for (const seed of [1, 2, 3]) {
      const context = new ContextManager({ system: SYSTEM, tools, window });
      const run = runSession(context, `Task ${seed}: make the build pass.`, 200, seed, window);
      t.deepEqual(run.problems, [], `window ${window}, seed ${seed}`);
      t.true(run.minMaxTokens >= context.maxTokensFloor!, `window ${window}, seed ${seed}: max_tokens ${run.minMaxTokens}`);
    }
  }
});

test('many turns with answers, interruptions, nudges and empty replies keep a valid message order and each task intact', (t) => {
  const window = 8_192;
  const random = seededRandom(11);
  const context = new ContextManager({ system: SYSTEM, tools, window });
  let previous: ChatMessage[] | undefined;
  let events = 0;
  let n = 0;
  const check = (prepared: PreparedRequest, task: string) => {
    t.is(orderProblem(prepared.messages), undefined, `request ${n}`);
    t.true(JSON.stringify(prepared.messages).includes(JSON.stringify(task).slice(1, -1)), `request ${n}: the task is in the request`);
    t.true(Math.ceil(prepared.chars / 3.3) + 6 * prepared.messages.length + prepared.maxTokens! <= window, `request ${n} fits`);
    if (prepared.compaction) events++;
    else if (previous) t.true(appendOnly(previous, prepared.messages), `request ${n} is append-only`);
    previous = prepared.messages;
    context.recordUsage({ promptTokens: Math.ceil(prepared.chars / 3.3) + 6 * prepared.messages.length, completionTokens: 10, cachedTokens: 0 });
  };
  for (let turn = 1; turn <= 40; turn++) {
    const task = `Turn ${turn}: ${'please look at the parser again. '.repeat(1 + Math.floor(random() * 4))}`;
    context.addUser(task);
    const rounds = Math.floor(random() * 10);
    let ended = false;
    for (let r = 0; r <= rounds && !ended; r++) {
      n++;
      check(context.prepare(), task);
      if (random() < 0.08) {
        // An empty reply: nothing added, then the nudge.
        context.addNudge('Your last reply was empty. Continue with the task (call a tool) or give your final answer.');
        n++;
        check(context.prepare(), task);
      }
      if (r === rounds) {
        context.addAssistant(`Answer ${turn}.`, []);
        context.endTurn('answered');
        ended = true;
        break;
      }
      // One to three calls in a reply (they go one per assistant message, each with its result).
      const ids = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, k) => `call_${turn}_${r}_${k}`);
      context.addAssistant(random() < 0.2 ? 'Looking further.' : '', ids.map((id, k) => ({ id, name: 'read', arguments: { path: `f${r}_${k}.ts` }, source: 'native' as const })));
      for (const id of ids) context.addToolResult({ callId: id, name: 'read', summary: `read ${id}`, payload: payload(r, 300 + Math.floor(random() * 2_000)), status: 'done' });
      if (random() < 0.1) context.addNudge('You called read with the same arguments again; use what you have.');
      if (random() < 0.05) {
        context.endTurn('unanswered');
        ended = true;
      }
    }
  }
  t.true(events >= 3, `compactions happened (${events})`);
});

test('a call that failed with E2BIG keeps its place but not its 2 MB argument, in this request and every later one', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 32_768 });
  context.addUser('write the fixture');
  context.prepare();
  const huge = 'y'.repeat(2 * 1024 * 1024);
  context.addAssistant('', [{ id: 'big', name: 'bash', arguments: { command: `echo ${huge} > fixture.txt` }, source: 'native' }]);
  context.addToolResult({ callId: 'big', name: 'bash', summary: 'could not start /bin/bash: spawn E2BIG', payload: '', status: 'error' });
  const next = context.prepare();
  t.true(next.chars < 20_000, `${next.chars} characters`);
  const call = next.messages.find((m): m is Extract<ChatMessage, { role: 'assistant' }> => m.role === 'assistant')!.tool_calls![0]!;
  t.regex(call.id, /^[A-Za-z0-9]{9}$/);
  t.deepEqual(JSON.parse(call.function.arguments), { command: argumentStandIn(`echo ${huge} > fixture.txt`) });
  t.regex(call.function.arguments, /2,097,171 characters, sha256 [0-9a-f]{16}/);
  context.addAssistant('It failed; writing it in parts.', []);
  const later = context.prepare();
  t.true(appendOnly(next.messages, later.messages), 'the stand-in is there from the first request on: no prefix change later');
  t.is(orderProblem(later.messages), undefined);
});

test('a huge argument of a call that succeeded stays as it was sent', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 200_000 });
  context.addUser('write it');
  const content = 'z'.repeat(20_000);
  context.addAssistant('', [{ id: 'w', name: 'write', arguments: { path: 'a.txt', content }, source: 'native' }]);
  context.addToolResult({ callId: 'w', name: 'write', summary: 'wrote a.txt', payload: '', status: 'done' });
  const call = (context.prepare().messages[2] as Extract<ChatMessage, { role: 'assistant' }>).tool_calls![0]!;
  t.is(JSON.parse(call.function.arguments).content, content);
});

test('a request that cannot fit even after compaction is refused with a clear error instead of sent', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 4_096 });
  context.addUser('x'.repeat(40_000));
  const error = t.throws(() => context.prepare());
  t.true(ReikaError.isInstance(error));
  t.is((error as ReikaError).code, 'REIKA_ERR_CONTEXT_FULL');
  t.regex(error!.message, /does not fit the 4,096-token context window/);
  t.notRegex(error!.message, /REIKA_REPO_MAP_BUDGET/, 'the request, not the system prompt, is what is too big');
});

test('a system prompt that fills a small window is named as the reason, with the setting that shrinks it', (t) => {
  const context = new ContextManager({ system: `repo map ${'symbol '.repeat(2_200)}`, tools, window: 4_096 });
  context.addUser('hi');
  const error = t.throws(() => context.prepare());
  t.regex(error!.message, /of them the system prompt and tools; a smaller REIKA_REPO_MAP_BUDGET shrinks the repo map/);
});

test('an empty reply is nudged after an empty assistant message, never as a second user message in a row', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 16_000 });
  context.addUser('hello');
  const first = context.prepare();
  context.addNudge('Your last reply was empty.');
  const second = context.prepare();
  t.true(appendOnly(first.messages, second.messages));
  t.deepEqual(
    second.messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'user'],
  );
});

test('a 10 MB reply beside its tool call is cut to fit, head and tail kept with a marker, instead of refusing the request', (t) => {
  // Found by the issue 21 soak: one 10 MB text event plus a call ended the session with "does not
  // fit even after compaction": the reply's own text was the one unsent part nothing could cut.
  for (const text of ['x'.repeat(10 * 1024 * 1024), 'line "quoted"\n'.repeat(700_000), 'é'.repeat(3 * 1024 * 1024)]) {
    const window = 16_384;
    const context = new ContextManager({ system: SYSTEM, tools, window });
    context.addUser('Do it.');
    const first = context.prepare();
    context.recordUsage({ promptTokens: Math.ceil(first.chars / 3.3), completionTokens: 10, cachedTokens: 0 });
    context.addAssistant(text, [{ id: 'c1', name: 'read', arguments: { path: 'a.ts' }, source: 'native' }]);
    context.addToolResult({ callId: 'c1', name: 'read', summary: 'read a.ts: 1 line', payload: 'const a = 1;', status: 'done' });
    const next = context.prepare();
    t.true(Math.ceil(next.chars / 3.3) + 6 * next.messages.length + next.maxTokens! <= window, 'fits');
    t.true(next.maxTokens! >= context.maxTokensFloor!);
    t.is(orderProblem(next.messages), undefined);
    const reply = next.messages[2] as Extract<ChatMessage, { role: 'assistant' }>;
    t.true(reply.content.startsWith(text.slice(0, 2_000)), 'the head is kept');
    t.true(reply.content.endsWith(text.slice(-500)), 'the tail is kept');
    t.regex(reply.content, /characters of this reply cut here by reika to fit the context window/);
    // Most of what fits is kept, not a token few hundred characters.
    t.true(next.estimateTokens >= 0.8 * context.threshold!, `${reply.content.length} characters kept (${next.estimateTokens} of ${context.threshold} tokens)`);
    t.is(next.messages.at(-1)!.role, 'tool');
    context.addAssistant('Done.', []);
    t.true(appendOnly(next.messages, context.prepare().messages), 'the cut is made once, before the reply is first sent');
  }
});
