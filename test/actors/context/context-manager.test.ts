import test from 'ava';
import { COMPACT_TO } from '../../../actors/context/compactor.js';
import { ContextManager } from '../../../actors/context/context-manager.js';
import { SHED_NOTE } from '../../../actors/context/tool-entry.js';
import type { ChatMessage, ToolSchema } from '../../../actors/model-io/protocol.js';

const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

function prefixOf(previous: ChatMessage[], next: ChatMessage[]): boolean {
  const a = JSON.stringify(previous);
  return JSON.stringify(next).startsWith(a.slice(0, -1));
}

/** One tool round: the model calls read, the result comes back with `size` characters of payload. */
function round(context: ContextManager, n: number, size: number): void {
  context.addAssistant('', [{ id: `call_${n}`, name: 'read', arguments: { path: `f${n}.ts` }, source: 'native' }]);
  context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read f${n}.ts (${size} chars)`, payload: `${n}`.padEnd(size, 'x') });
}

function toolContents(messages: ChatMessage[]): string[] {
  return messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content);
}

test('with the window known, requests are append-only until one compaction event folds old rounds', (t) => {
  const context = new ContextManager({ system: 'You are a test.', tools, window: 16_000 });
  context.addUser('do the task');
  let previous = context.prepare().messages;
  const threshold = context.threshold!;
  let events = 0;
  for (let n = 1; n <= 15; n++) {
    round(context, n, 4_500);
    const prepared = context.prepare();
    t.true(prepared.estimateTokens <= threshold, `request ${n} stays under the threshold`);
    if (prepared.compaction) {
      events++;
      t.true(prepared.compaction.afterTokens <= COMPACT_TO * threshold + 10, 'sheds down to about 0.7 of the threshold');
      t.false(prefixOf(previous, prepared.messages));
    } else {
      t.true(prefixOf(previous, prepared.messages), `request ${n} begins with request ${n - 1}, byte for byte`);
    }
    const contents = toolContents(prepared.messages);
    t.true(contents.at(-1)!.includes(`${n}`.padEnd(4_500, 'x')), 'the active round keeps its payload');
    t.deepEqual(prepared.messages[0], { role: 'system', content: 'You are a test.' });
    previous = prepared.messages;
  }
  t.true(events >= 1 && events <= 4, `compaction events: ${events}`);
});

test('a compaction folds the oldest rounds whole and changes nothing it keeps: no payload is shed in place, large or small', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 32_000 });
  context.addUser('go');
  let previous = context.prepare();
  let prepared;
  for (let n = 1; n < 200 && !prepared?.compaction; n++) {
    round(context, n, n % 6 === 0 ? 9_500 : 200);
    if (prepared) previous = prepared;
    prepared = context.prepare();
  }
  t.truthy(prepared?.compaction, 'the session needed a compaction');
  t.is(prepared!.compaction!.shed, 0);
  t.true(prepared!.compaction!.folded > 0);
  const sent = new Set(previous.messages.map((message) => JSON.stringify(message)));
  const kept = prepared!.messages.slice(2, -2);
  t.true(kept.length > 0 && kept.every((message) => sent.has(JSON.stringify(message))), 'every kept message is as it was sent');
  t.false(JSON.stringify(prepared!.messages).includes(SHED_NOTE));
  t.true(toolContents(prepared!.messages).at(-1)!.includes('x'.repeat(150)), 'the active round is protected');
  t.false(JSON.stringify(prepared!.messages).includes('[context note'));
});

test('with the window unknown, only the newest group of tool results carries payloads', (t) => {
  const context = new ContextManager({ system: 's', tools });
  context.addUser('go');
  round(context, 1, 500);
  round(context, 2, 500);
  context.addAssistant('', [
    { id: 'a', name: 'read', arguments: { path: 'a' }, source: 'native' },
    { id: 'b', name: 'read', arguments: { path: 'b' }, source: 'native' },
  ]);
  context.addToolResult({ callId: 'a', name: 'read', summary: 'read a', payload: 'AAAA' });
  context.addToolResult({ callId: 'b', name: 'read', summary: 'read b', payload: 'BBBB' });
  const prepared = context.prepare();
  t.deepEqual(toolContents(prepared.messages), [`read f1.ts (500 chars)\n${SHED_NOTE}`, `read f2.ts (500 chars)\n${SHED_NOTE}`, 'read a\n\nAAAA', 'read b\n\nBBBB']);
  t.is(prepared.maxTokens, undefined, 'no max_tokens without a window or a setting');
});

test('a payload too large to fit is cut with a marker saying reika cut it for context', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 4_000, maxTokens: 500 });
  context.addUser('go');
  round(context, 1, 40_000);
  const prepared = context.prepare();
  t.true(prepared.cutChars > 0);
  t.true(prepared.estimateTokens <= context.threshold!);
  const content = toolContents(prepared.messages)[0]!;
  t.regex(content, /cut here by reika to fit the context window \(not by the tool\)/);
  t.true(prepared.maxTokens! <= 4_000 - prepared.estimateTokens);
  t.true(prepared.maxTokens! <= 500);
});

test('max_tokens never exceeds what is left of the window', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 10_000, maxTokens: 50_000 });
  context.addUser('x'.repeat(20_000));
  const prepared = context.prepare();
  t.true(prepared.maxTokens! + prepared.estimateTokens <= 10_000);
});

test('the estimate is calibrated by the prompt tokens the server reports', (t) => {
  const context = new ContextManager({ system: 's', tools });
  context.addUser('y'.repeat(4_000));
  const first = context.prepare();
  context.recordUsage({ promptTokens: first.estimateTokens * 2, completionTokens: 1, cachedTokens: 0 });
  const second = context.prepare();
  t.true(Math.abs(second.estimateTokens - first.estimateTokens * 2) <= 2, `${first.estimateTokens} → ${second.estimateTokens}`);
});

test('/compact never makes the context bigger: payloads shorter than the note stay, a fold that saves nothing is undone', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 100_000 });
  context.addUser('go');
  round(context, 1, 20);
  round(context, 2, 20);
  context.addAssistant('done', []);
  const before = context.prepare();
  const event = context.compact();
  if (event) t.true(event.afterTokens < event.beforeTokens, `${event.beforeTokens} → ${event.afterTokens}`);
  const after = context.prepare();
  t.true(after.chars <= before.chars, `${before.chars} → ${after.chars} characters`);
  t.true(toolContents(after.messages).every((content) => !content.includes(SHED_NOTE)), 'no 20-character payload was swapped for a longer note');
});

test('a turn that ended unanswered gets an assistant note, so two user messages never follow each other', (t) => {
  const context = new ContextManager({ system: 'sys', tools, window: 16_000 });
  context.addUser('first question');
  const first = context.prepare().messages;
  context.endTurn('unanswered');
  context.addUser('second question');
  const second = context.prepare().messages;
  t.true(prefixOf(first, second), 'still append-only');
  t.deepEqual(second.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
  // An answered turn adds nothing.
  context.addAssistant('an answer', []);
  context.endTurn('answered');
  t.is(context.prepare().messages.length, 5);
});
test('messages have the shapes every chat template accepts: "" content, one call per assistant message, nudges in tool results', (t) => {
  const context = new ContextManager({ system: 'sys', tools, window: 16_000 });
  context.addUser('go');
  context.prepare();
  context.addAssistant('', [
    { id: 'a', name: 'read', arguments: { path: 'a' }, source: 'native' },
    { id: 'b', name: 'read', arguments: { path: 'b' }, source: 'native' },
  ]);
  context.addToolResult({ callId: 'a', name: 'read', summary: 'read a', payload: 'A' });
  context.addToolResult({ callId: 'b', name: 'read', summary: 'read b', payload: 'B' });
  context.addNudge('note one');
  context.addNudge('note two');
  const first = context.prepare().messages;
  const [a, b] = first.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((call) => call.id) : []));
  t.deepEqual(first.slice(2), [
    { role: 'assistant', content: '', tool_calls: [{ id: a!, type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] },
    { role: 'tool', tool_call_id: a!, content: 'read a\n\nA' },
    { role: 'assistant', content: '', tool_calls: [{ id: b!, type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } }] },
    { role: 'tool', tool_call_id: b!, content: 'read b\n\nB\n\nnote one\n\nnote two' },
  ]);
  t.regex(a!, /^[A-Za-z0-9]{9}$/, 'ids in the history are 9 letters and digits');
  t.not(a, b);
  // After a result already sent (the model answered nothing), the nudge needs an assistant message first.
  context.addNudge('say something');
  const second = context.prepare().messages;
  t.deepEqual(second.slice(first.length), [{ role: 'assistant', content: '' }, { role: 'user', content: 'say something' }]);
  t.true(JSON.stringify(second).startsWith(JSON.stringify(first).slice(0, -1)), 'still append-only');
});

test('every call id in the history is 9 letters and digits, paired with its result, and never changes', (t) => {
  const context = new ContextManager({ system: 'sys', tools, window: 16_000 });
  context.addUser('go');
  // A server's long ids, one id given twice in a reply, and an id that already has the shape.
  context.addAssistant('', [
    { id: 'chatcmpl-tool-0f3e9a7c2b', name: 'read', arguments: { path: 'a' }, source: 'native' },
    { id: 'call_0', name: 'read', arguments: { path: 'b' }, source: 'native' },
    { id: 'call_0', name: 'read', arguments: { path: 'c' }, source: 'native' },
    { id: 'Ab3dE6gH9', name: 'read', arguments: { path: 'd' }, source: 'native' },
  ]);
  for (const [id, path] of [['chatcmpl-tool-0f3e9a7c2b', 'a'], ['call_0', 'b'], ['call_0', 'c'], ['Ab3dE6gH9', 'd']] as const) {
    context.addToolResult({ callId: id, name: 'read', summary: `read ${path}`, payload: path.toUpperCase() });
  }
  const first = context.prepare().messages;
  const pairs = first.slice(2).flatMap((m, i, all) => {
    if (m.role !== 'assistant') return [];
    const answer = all[i + 1] as { role: string; tool_call_id: string; content: string };
    return [[m.tool_calls![0]!.id, answer.tool_call_id, JSON.parse(m.tool_calls![0]!.function.arguments).path, answer.content]];
  });
  t.is(pairs.length, 4);
  for (const [callId, resultId, path, content] of pairs) {
    t.regex(callId, /^[A-Za-z0-9]{9}$/);
    t.is(resultId, callId, `the result of ${path} answers its call`);
    t.is(content, `read ${path}\n\n${path.toUpperCase()}`);
  }
  t.is(new Set(pairs.map((pair) => pair[0])).size, 4, 'two calls given one id get two ids');
  t.is(pairs[3]![0], 'Ab3dE6gH9', 'an id of the right shape is kept');
  context.addAssistant('Done.', []);
  context.addUser('more');
  t.true(JSON.stringify(context.prepare().messages).startsWith(JSON.stringify(first).slice(0, -1)), 'the ids stay the same in later requests');
});

test('a turn cut short after tool results gets an assistant note before the next user message', (t) => {
  const context = new ContextManager({ system: 'sys', tools, window: 16_000 });
  context.addUser('go');
  context.addAssistant('', [{ id: 'a', name: 'read', arguments: { path: 'a' }, source: 'native' }]);
  context.addToolResult({ callId: 'a', name: 'read', summary: 'read a', payload: 'A' });
  context.endTurn('unanswered');
  context.addUser('next');
  t.deepEqual(context.prepare().messages.slice(-3).map((m) => m.role), ['tool', 'assistant', 'user']);
});

test('a reply with several calls is one active round: all its results keep their payloads through a compaction', (t) => {
  const context = new ContextManager({ system: 's', tools, window: 8_000 });
  context.addUser('go');
  let prepared;
  for (let n = 1; n < 60 && !prepared?.compaction; n++) {
    const ids = [`a${n}`, `b${n}`, `c${n}`];
    context.addAssistant('', ids.map((id) => ({ id, name: 'read', arguments: { path: `${id}.ts` }, source: 'native' as const })));
    for (const id of ids) context.addToolResult({ callId: id, name: 'read', summary: `read ${id}.ts`, payload: `${id} `.padEnd(900, 'x') });
    prepared = context.prepare();
  }
  t.truthy(prepared?.compaction);
  const last = toolContents(prepared!.messages).slice(-3);
  t.true(last.every((content) => content.includes('x'.repeat(880))), 'the three results of the newest reply are whole');
  t.deepEqual(prepared!.messages.slice(-6).map((m) => m.role), ['assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
});

test('the window is asked of its owner each time: one found later applies to the next request', (t) => {
  let window: number | undefined;
  const context = new ContextManager({ system: 'S', tools, window: () => window });
  context.addUser('task');
  t.is(context.prepare().maxTokens, undefined);
  window = 32_000;
  t.is(context.window, 32_000);
  t.true(context.prepare().maxTokens! > 0);
});
