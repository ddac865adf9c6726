import test from 'ava';
import { readFileSync } from 'node:fs';
import { ContextManager, type PreparedRequest } from '../../../actors/context/context-manager.js';
import { renderChatTemplate } from '../../../actors/model-io/engine/chat-template.js';
import type { ChatMessage, ToolCall, ToolSchema } from '../../../actors/model-io/protocol.js';
import { LLAMA_CPP_VARIABLES, probeTemplate, rewriteFor } from '../../../actors/model-io/template-check/probe.js';
import { TEMPLATE_DIR, templateFixtures } from '../../helpers/chat-templates.js';
import { orderProblem } from './message-order.js';

/**
 * The layout a compaction event leaves (issue 33): what it keeps verbatim is the previous request's
 * newest messages, byte for byte, in one piece right after the task (itself untouched), and the
 * recap comes after them, in the newest message. An engine that held the previous prompt then
 * keeps the system prompt, tools and task as its cached prefix, and one that moves cached chunks
 * (llama.cpp `--cache-reuse`) finds the kept part in what it holds. And what a model needs
 * survives every event: the task verbatim, each file read or changed with the last call on it,
 * the task list, the last rounds verbatim.
 */

const tools: ToolSchema[] = ['read', 'edit', 'grep', 'todo'].map((name) => ({ type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: { path: { type: 'string' } } } } }));
const SYSTEM = `You are reika, a coding agent.\n# Repo map\n${Array.from({ length: 80 }, (_, i) => `src/m${i}.ts: load${i}, parse${i}`).join('\n')}`;
const TASK = 'Fix the parser in src/: read each module, mark the slots done in src/changes.ts, and keep a task list.';

interface Step {
  call: Omit<ToolCall, 'id' | 'source'>;
  summary: string;
  payload: string;
}

function lines(n: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `${n + i}\t  const value${i} = parse${n % 24}(input[${i}]) ?? defaults.value${i};`).join('\n');
}

/** Round n: mostly reads of 40 lines, an edit every 7th, a task list every 15th. */
function step(n: number): Step {
  const file = `src/m${n % 30}.ts`;
  if (n % 15 === 4) {
    const list = Array.from({ length: 4 }, (_, i) => `${i * 15 + 4 < n ? '[x]' : i * 15 + 4 === n ? '[>]' : '[ ]'} part ${i + 1} of the parser (round ${n})`).join('\n');
    return { call: { name: 'todo', arguments: { todos: [] } }, summary: `list set at round ${n}`, payload: list };
  }
  if (n % 7 === 3) return { call: { name: 'edit', arguments: { path: 'src/changes.ts', old_string: `// slot ${n}: todo`, new_string: `// slot ${n}: done` } }, summary: `src/changes.ts: replaced 1 occurrence (slot ${n})`, payload: `@@ -${n},1 +${n},1 @@\n-// slot ${n}: todo\n+// slot ${n}: done` };
  return { call: { name: 'read', arguments: { path: file, offset: n, limit: 40 } }, summary: `${file}: lines ${n}-${n + 39}`, payload: lines(n, 40) };
}

interface Event {
  n: number;
  previous: PreparedRequest;
  request: PreparedRequest;
}

/**
 * Drives `rounds` rounds of one task at `window`, the engine counting ~3.3 characters a token and
 * reporting its cache: `prefix` finds only the unchanged start of an event's request in it (a
 * plain prefix cache), `reuse` finds the kept history too (llama.cpp --cache-reuse). Returns every
 * request and the events.
 */
function drive(window: number, rounds: number, engine: 'prefix' | 'reuse'): { requests: PreparedRequest[]; events: Event[]; steps: Step[] } {
  const context = new ContextManager({ system: SYSTEM, tools, window });
  context.addUser(TASK);
  const requests: PreparedRequest[] = [];
  const events: Event[] = [];
  const steps: Step[] = [];
  for (let n = 1; ; n++) {
    const request = context.prepare();
    if (request.compaction) events.push({ n, previous: requests.at(-1)!, request });
    const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 3.3);
    const event = request.compaction;
    const cachedTokens = event ? event.heldTokens - (engine === 'reuse' ? 0 : event.keptTokens) : Math.ceil(JSON.stringify(requests.at(-1)?.messages ?? []).length / 3.3);
    requests.push(request);
    context.recordUsage({ promptTokens, completionTokens: 30, cachedTokens, prefilledTokens: promptTokens - cachedTokens, cacheFrom: 'timings' }, 'tool_calls');
    if (n > rounds) return { requests, events, steps };
    const s = step(n);
    steps.push(s);
    const id = `call_${n}`;
    context.addAssistant(n % 4 === 0 ? `Round ${n}: the next module.` : '', [{ ...s.call, id, source: 'native' }]);
    context.addToolResult({ callId: id, name: s.call.name, summary: s.summary, payload: s.payload, status: 'done' });
  }
}

/** How many messages at the start of `after` (past the system prompt and task) are the newest messages of `before`, byte for byte. */
function keptRun(before: readonly ChatMessage[], after: readonly ChatMessage[]): number {
  const sent = new Set(before.map((message) => JSON.stringify(message)));
  let kept = 0;
  while (2 + kept < after.length && sent.has(JSON.stringify(after[2 + kept]))) kept++;
  return kept;
}

const sessions = { prefix: drive(16_384, 90, 'prefix'), reuse: drive(16_384, 90, 'reuse') };
/**
 * The rounds before the active one an event keeps verbatim at least: one with a plain prefix cache
 * (the rest would be prefilled again), three once the engine showed it finds them (from its second event on).
 */
function lastRounds(engine: string, session: { events: Event[] }, n: number): number {
  return engine === 'reuse' && session.events[0]!.n !== n ? 3 : 1;
}

test('an event keeps the system prompt and the task byte for byte, and the kept history is the previous request’s newest messages, in one piece right after the task', (t) => {
  for (const [engine, session] of Object.entries(sessions)) {
  t.true(session.events.length >= 3, `${engine}: ${session.events.length} events`);
  for (const { n, previous, request } of session.events) {
    const before = previous.messages;
    const after = request.messages;
    t.deepEqual(after[0], before[0], `request ${n}: the system prompt`);
    t.deepEqual(after[1], before[1], `request ${n}: the task message is as it was sent`);
    t.is(orderProblem(after), undefined, `request ${n}`);
    const kept = keptRun(before, after);
    t.true(kept >= 2 * lastRounds(engine, session, n), `${engine}, request ${n}: ${kept} messages kept verbatim`);
    // The kept run is the newest part of what was sent: contiguous, nothing shed or changed in it.
    t.deepEqual(after.slice(2, 2 + kept), before.slice(before.length - kept), `request ${n}: the kept messages are the previous request's newest, byte for byte`);
    // After it only what was never sent: the active round, the recap riding in its last message.
    const sent = new Set(before.map((message) => JSON.stringify(message)));
    t.true(after.slice(2 + kept).every((message) => !sent.has(JSON.stringify(message))), `request ${n}: nothing sent before comes after the new part`);
    const last = after.at(-1)!;
    t.regex(String(last.content), /\[Recap by reika: [\s\S]*\]$/, `request ${n}: the recap rides in the newest message`);
    t.false(after.slice(0, -1).some((message) => String(message.content).includes('[Recap by reika') && !sent.has(JSON.stringify(message))), `request ${n}: no other message changed to carry a recap`);
  }
  }
});

test('an engine that prefills the kept history again gets small kept parts; one that finds it, about 30% of the history', (t) => {
  const kept = (engine: keyof typeof sessions) => sessions[engine].events.slice(1).map((event) => event.request.compaction!.keptTokens);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  // The first event keeps little either way: it is where the engine shows which it is.
  t.true(mean(kept('prefix')) < 1_200, `prefix: ${kept('prefix').join(' ')}`);
  t.true(mean(kept('reuse')) > 2 * mean(kept('prefix')), `reuse ${kept('reuse').join(' ')} against prefix ${kept('prefix').join(' ')}`);
});

test('between events every request is the previous one plus new messages, byte for byte, the recap included', (t) => {
  for (const session of Object.values(sessions)) for (let i = 1; i < session.requests.length; i++) {
    const request = session.requests[i]!;
    if (request.compaction) continue;
    const before = JSON.stringify(session.requests[i - 1]!.messages);
    t.true(JSON.stringify(request.messages).startsWith(before.slice(0, -1)), `request ${i + 1}`);
  }
});

test('what a model needs survives every event: the task verbatim, each file read or changed with the last call on it, the newest task list, the last rounds verbatim', (t) => {
  for (const [engine, session] of Object.entries(sessions)) for (const { n, request } of session.events) {
    const text = request.messages.map((message) => `${String(message.content)}\n${JSON.stringify((message as { tool_calls?: unknown }).tool_calls ?? '')}`).join('\n');
    t.is(request.messages[1]!.content, TASK, `request ${n}: the task, verbatim`);
    const done = session.steps.slice(0, n - 1);
    // Each file: the last call on it, verbatim in the kept part, as a line of the recap, or (its line dropped) in the recap's files block.
    const lastOn = new Map<string, Step>();
    for (const s of done) {
      const path = (s.call.arguments as { path?: string }).path;
      if (path) lastOn.set(path, s);
    }
    for (const [path, s] of lastOn) t.true(text.includes(`→ ${s.summary}`) || text.includes(`${path}: ${s.call.name} → ${s.summary.replace(`${path}: `, '')}`) || text.includes(s.payload), `request ${n}: ${path}, last ${s.call.name} (${s.summary})`);
    const lastTodo = done.filter((s) => s.call.name === 'todo').at(-1);
    if (lastTodo) t.true(text.includes(lastTodo.payload), `request ${n}: the newest task list`);
    // The last rounds before the active one, their payloads whole.
    // The active round and the rounds just before it.
    for (const s of done.slice(-1 - lastRounds(engine, session, n))) t.true(text.includes(s.payload), `${engine}, request ${n}: the result of a recent round is verbatim`);
  }
});

test('rendered through real chat templates, the kept history of an event is a piece of the previous prompt as the engine holds it', async (t) => {
  t.timeout(120_000);
  const fixtures = templateFixtures().filter((fixture) => ['qwen2.5', 'llama3.1', 'granite3.3', 'gpt-oss'].includes(fixture.id));
  t.is(fixtures.length, 4);
  for (const fixture of fixtures) {
    const source = readFileSync(new URL(fixture.file, TEMPLATE_DIR), 'utf8');
    const probe = await probeTemplate({ template: source, bosToken: fixture.bos, eosToken: fixture.eos });
    t.is(probe.placement, 'system', fixture.id);
    const rewrite = rewriteFor(source);
    const render = (messages: ChatMessage[], generationPrompt: boolean) =>
      renderChatTemplate(source, { messages, tools, bosToken: fixture.bos, eosToken: fixture.eos, variables: LLAMA_CPP_VARIABLES, generationPrompt, ...(rewrite ? { rewrite } : {}) });
    for (const { n, previous, request } of [...sessions.prefix.events, ...sessions.reuse.events]) {
      const held = await render(previous.messages, true);
      const kept = keptRun(previous.messages, request.messages);
      const prefix = await render(request.messages.slice(0, 2), false);
      const throughKept = await render(request.messages.slice(0, 2 + kept), false);
      const prompt = await render(request.messages, true);
      t.true(held.startsWith(prefix), `${fixture.id}, request ${n}: the system prompt, tools and task stay the cached prefix`);
      t.true(prompt.startsWith(throughKept) && throughKept.startsWith(prefix), `${fixture.id}, request ${n}`);
      const piece = throughKept.slice(prefix.length);
      t.true(piece.length > 500 && held.includes(piece), `${fixture.id}, request ${n}: the kept history (${piece.length} characters) is in the previous prompt as one piece`);
    }
  }
});

test('/compact by hand: the recap rides with the next request of the user, after the kept answer, and the task stays as sent', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 100_000 });
  context.addUser('go');
  for (let n = 1; n <= 3; n++) {
    context.addAssistant('', [{ id: `call_${n}`, name: 'read', arguments: { path: `f${n}.ts` }, source: 'native' }]);
    context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read f${n}.ts (1000 chars)`, payload: `${n}`.padEnd(1_000, 'x') });
  }
  context.addAssistant('all read', []);
  context.endTurn();
  const before = context.prepare();
  const event = context.compact()!;
  t.is(event.reason, 'manual');
  t.is(event.folded, 2);
  t.is(event.shed, 0);
  t.true(event.afterTokens < event.beforeTokens);
  t.is(context.compact(), undefined, 'nothing more to fold');
  context.addUser('next question');
  const messages = context.prepare().messages;
  t.deepEqual(
    messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'tool', 'assistant', 'user'],
  );
  t.deepEqual(messages.slice(0, 2), before.messages.slice(0, 2), 'the system prompt and the task as sent');
  t.deepEqual(messages.slice(2, 5), before.messages.slice(-3), 'the newest round and the answer, as sent');
  const next = messages.at(-1)!.content as string;
  t.regex(next, /^\[Recap by reika: [^\n]*\n- read \{"path":"f1.ts"\} → read f1.ts \(1000 chars\)\n- read \{"path":"f2.ts"\} → read f2.ts \(1000 chars\)\n\]\n\nnext question$/);
  t.is(orderProblem(messages), undefined);
});
