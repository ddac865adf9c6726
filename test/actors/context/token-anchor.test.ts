import test from 'ava';
import { ContextManager } from '../../../actors/context/context-manager.js';
import type { ContextOp } from '../../../actors/context/context-op.js';
import { CHARS_PER_TOKEN, DIGIT_CHARS, TokenEstimate } from '../../../actors/context/token-estimate.js';
import { cutPayload, type ToolEntry } from '../../../actors/context/tool-entry.js';
import type { ToolSchema } from '../../../actors/model-io/protocol.js';

/**
 * The anchored estimate (issue 21): a request that starts with the last one the server counted is
 * that count plus an estimate of what was added; anything else is the plain estimate. And what
 * keeps a request within the window where the estimate is weakest: digits, the first request
 * after an event, a cut the model must be able to read around.
 */

const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const system = `You are a test.\n${'Rules. '.repeat(200)}`;

/** The digits of a request: what it adds weighs them {@link DIGIT_CHARS} characters each. */
function digitsOf(prepared: { messages: unknown[] }): number {
  return JSON.stringify(prepared.messages).replace(/[^0-9]/g, '').length;
}

/** The estimate of what `next` adds to `last` with the factor of `estimate`. */
function addition(estimate: TokenEstimate, last: { chars: number; messages: unknown[] }, next: { chars: number; messages: unknown[] }): number {
  return estimate.tokens(next.chars - last.chars + (DIGIT_CHARS - 1) * (digitsOf(next) - digitsOf(last)));
}

function round(context: ContextManager, n: number, size: number): void {
  context.addAssistant('', [{ id: `call_${n}`, name: 'read', arguments: { path: `f${n}.ts` }, source: 'native' }]);
  context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read f${n}.ts`, payload: 'const a = b;\n'.repeat(Math.ceil(size / 13)).slice(0, size) });
}

test('an append-only request is the server’s count of the last one plus the estimate of what was added', (t) => {
  const context = new ContextManager({ system, tools, window: 32_768 });
  context.addUser('do the task');
  const first = context.prepare();
  // A count the factor alone would not give: the next estimate must carry it exactly.
  context.recordUsage({ promptTokens: 777, completionTokens: 10, cachedTokens: 0 });
  round(context, 1, 2_000);
  const second = context.prepare();
  // The factor as the manager learns it from the same reports.
  const mirror = new TokenEstimate();
  mirror.calibrate(first.chars, 777);
  t.is(second.estimateTokens, 777 + addition(mirror, first, second));
  // A lower count than the factor says eases the factor down (it errs high); the anchor takes it as it is.
  context.recordUsage({ promptTokens: 1_100, completionTokens: 10, cachedTokens: 0 });
  mirror.calibrate(second.chars, 1_100);
  round(context, 2, 3_000);
  const third = context.prepare();
  t.is(third.estimateTokens, 1_100 + addition(mirror, second, third));
});

test('a change to anything already sent falls back to the plain estimate', (t) => {
  const estimate = new TokenEstimate();
  estimate.count(40_000, 13_000, 3);
  t.is(estimate.request(44_000, 3), 13_000 + estimate.tokens(4_000), 'same prefix version: anchored');
  t.is(estimate.request(44_000, 4), estimate.tokens(44_000), 'an entry sent changed: plain');
  t.is(estimate.request(39_000, 3), estimate.tokens(39_000), 'shorter than what was counted: plain');
  t.false(estimate.anchored(44_000, 4));

  // Through the manager: a mode switch replaces the system prompt, the first thing sent.
  const context = new ContextManager({ system, tools, window: 32_768 });
  context.addUser('do the task');
  const first = context.prepare();
  context.recordUsage({ promptTokens: 3 * Math.ceil(first.chars / CHARS_PER_TOKEN), completionTokens: 10, cachedTokens: 0 });
  // A lower count: the factor eases down (it errs high) while the anchor takes the count as it is.
  const second = (round(context, 1, 1_000), context.prepare());
  context.recordUsage({ promptTokens: Math.ceil(second.chars / CHARS_PER_TOKEN), completionTokens: 10, cachedTokens: 0 });
  round(context, 2, 1_000);
  const anchored = context.stats().estimateTokens;
  context.rebase(`${system} Plan mode.`, tools);
  const plain = context.stats().estimateTokens;
  t.true(plain > anchored * 1.5, `after the system prompt changed the estimate is the factor's (${anchored} → ${plain})`);
});

test('a compaction event resets the anchor: the request it makes is estimated plain, and max_tokens leaves it a wider margin', (t) => {
  const window = 16_384;
  const context = new ContextManager({ system, tools, window });
  context.addUser('do the task');
  const mirror = new TokenEstimate();
  let compacted: ReturnType<ContextManager['prepare']> | undefined;
  for (let n = 1; n <= 60 && !compacted; n++) {
    const prepared = context.prepare();
    if (prepared.compaction) {
      compacted = prepared;
      break;
    }
    // The server counts less than the factor says from the second report on: anchored requests follow the count, plain ones the factor.
    const promptTokens = n === 1 ? Math.ceil(prepared.chars / 3) : Math.ceil(prepared.chars / 3.6);
    context.recordUsage({ promptTokens, completionTokens: 20, cachedTokens: 0 });
    mirror.calibrate(prepared.chars, promptTokens);
    round(context, n, 1_500);
  }
  t.truthy(compacted, 'the session reached an event');
  t.is(compacted!.estimateTokens, mirror.tokens(compacted!.chars), 'the event’s request: the factor times its size');
  t.is(compacted!.maxTokens, Math.max(context.maxTokensFloor!, window - Math.ceil(compacted!.estimateTokens * 1.15) - 64), 'the unanchored margin');
  // The next request extends it: anchored again once counted.
  context.recordUsage({ promptTokens: 5_000, completionTokens: 20, cachedTokens: 0 });
  mirror.calibrate(compacted!.chars, 5_000);
  round(context, 99, 500);
  const after = context.prepare();
  t.is(after.estimateTokens, 5_000 + addition(mirror, compacted!, after));
});

test('a replayed manager anchors where the live one did: the same estimate and max_tokens', (t) => {
  const ops: ContextOp[] = [];
  const live = new ContextManager({ system, tools, window: 16_384, journal: (op) => ops.push(JSON.parse(JSON.stringify(op)) as ContextOp) });
  live.addUser('do the task');
  for (let n = 1; n <= 30; n++) {
    const prepared = live.prepare();
    live.recordUsage({ promptTokens: Math.ceil(prepared.chars / 3.1) - (n % 7) * 40, completionTokens: 20, cachedTokens: 0 });
    round(live, n, 700 + ((n * 377) % 2_500));
  }
  const replayed = ContextManager.replay(ops);
  const a = live.prepare();
  const b = replayed.prepare();
  t.is(b.estimateTokens, a.estimateTokens);
  t.is(b.maxTokens, a.maxTokens);
  t.is(JSON.stringify(b.messages), JSON.stringify(a.messages));
});

test('digits in what a request adds weigh about a token each: a request after a build log with timestamps stays within the window with its max_tokens', (t) => {
  // Through a real llama-server (Qwen2 tokenizer: every digit a token) a 120-line log made 2.3
  // characters a token against 3.15 for code; counted as plain characters the request after it
  // was estimated 35% low and passed the window with its max_tokens.
  const window = 16_384;
  const engine = (messages: unknown) => {
    const json = JSON.stringify(messages);
    const digits = json.replace(/[^0-9]/g, '').length;
    return Math.ceil((json.length - digits) / 3.15 + digits);
  };
  const context = new ContextManager({ system, tools, window });
  context.addUser('build it');
  const log = Array.from({ length: 120 }, (_, i) => `[${String(1000 + i).padStart(4, '0')}] info compile src/m${i % 24}.ts -> dist/m${i % 24}.js (${(i * 13) % 997} ms)`).join('\n');
  for (let n = 1; n <= 40; n++) {
    const prepared = context.prepare();
    const tokens = engine(prepared.messages);
    t.true(tokens + prepared.maxTokens! <= window, `request ${n}: ${tokens} + ${prepared.maxTokens}`);
    context.recordUsage({ promptTokens: tokens, completionTokens: 20, cachedTokens: 0 });
    if (n % 5 === 0) {
      context.addAssistant('', [{ id: `log_${n}`, name: 'read', arguments: { path: 'build.log' }, source: 'native' }]);
      context.addToolResult({ callId: `log_${n}`, name: 'read', summary: 'read build.log', payload: log });
    } else round(context, n, 1_200);
  }
});

function entryOf(payload: string): ToolEntry {
  return { kind: 'tool', callId: 'c', name: 'bash', summary: 's', payload, round: 1, shed: false, cutChars: 0 };
}

test('a cut removes whole lines and names them, so the model can read just those; a second cut keeps one range', (t) => {
  const lines = Array.from({ length: 2_000 }, (_, i) => `line ${i + 1}: ${'x'.repeat(40)}`);
  const entry = entryOf(lines.join('\n'));
  cutPayload(entry, 8_000);
  const kept = entry.payload.split('\n');
  const marker = kept.find((line) => line.startsWith('[…'))!;
  const [, from, to] = /lines (\d+)–(\d+) of 2000 of this output/.exec(marker)!.map(Number);
  t.regex(marker, new RegExp(`sed -n '${from},${to}p'`));
  t.regex(marker, /cut here by reika to fit the context window \(not by the tool\)/);
  const at = kept.indexOf(marker);
  t.is(kept[at - 1], lines[from! - 2], 'the line before the marker is the one before the range');
  t.is(kept[at + 1], lines[to!], 'the line after it is the one after the range');
  t.is(kept.length - 1, 2_000 - (to! - from! + 1), 'whole lines, nothing else gone');
  t.true(entry.payload.length <= 8_000 + marker.length + 1);

  cutPayload(entry, 3_000);
  const again = entry.payload.split('\n');
  const second = again.find((line) => line.startsWith('[…'))!;
  const [, from2, to2] = /lines (\d+)–(\d+) of 2000/.exec(second)!.map(Number);
  t.true(from2! <= from! && to2! >= to!, 'the second cut widens the same range');
  const at2 = again.indexOf(second);
  t.is(again[at2 - 1], lines[from2! - 2]);
  t.is(again[at2 + 1], lines[to2!]);
  t.is(again.filter((line) => line.startsWith('[…')).length, 1);
  t.is(entry.cutChars, lines.slice(from2! - 1, to2!).reduce((sum, line) => sum + line.length + 1, 0));
});

test('one huge line is cut by characters, the marker after it', (t) => {
  const entry = entryOf('y'.repeat(50_000));
  cutPayload(entry, 4_000);
  t.is(entry.kept, undefined);
  t.true(entry.payload.length < 4_100);
  t.is(entry.cutChars, 46_000);
});
