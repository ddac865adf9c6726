import test from 'ava';
import { ContextManager } from '../../../actors/context/context-manager.js';
import type { ToolSchema } from '../../../actors/model-io/protocol.js';

const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

/** One tool round with a payload of `size` characters; the server reports a count a little above the estimate. */
function round(context: ContextManager, n: number, size: number): ReturnType<ContextManager['prepare']> {
  context.addAssistant(`looking at f${n}`, [{ id: `call${String(n).padStart(5, '0')}`, name: 'read', arguments: { path: `f${n}.ts` }, source: 'native' }]);
  context.addToolResult({ callId: `call${String(n).padStart(5, '0')}`, name: 'read', summary: `read f${n}.ts (${size} chars)`, payload: `${n}`.padEnd(size, 'é') });
  const prepared = context.prepare();
  context.recordUsage({ promptTokens: Math.ceil(prepared.chars / 3.2), completionTokens: 40 + n, cachedTokens: 0 }, n % 5 === 0 ? 'length' : 'stop');
  return prepared;
}

test('a context restored from its snapshot (through JSON) sends the same requests and compacts at the same points', (t) => {
  const original = new ContextManager({ system: 'You are a test.', tools, window: 16_000 });
  original.addUser('do the task');
  original.prepare();
  for (let n = 1; n <= 12; n++) round(original, n, 5_000);
  original.endTurn('answered');
  original.addUser('and the next one');
  t.true(original.stats().shed + original.stats().folded > 0, 'the first part compacted at least once');

  const snapshot = JSON.parse(JSON.stringify(original.snapshot()));
  const restored = ContextManager.restore(snapshot, { tools, window: 16_000 });
  t.deepEqual(restored.stats(), original.stats());
  t.is(restored.reserve, original.reserve, 'the reserve comes from the same replies (one cut by max_tokens)');
  let compactions = 0;
  for (let n = 13; n <= 30; n++) {
    const a = round(original, n, 5_000);
    const b = round(restored, n, 5_000);
    t.deepEqual(b.messages, a.messages, `request ${n} is the same`);
    t.deepEqual(b.compaction, a.compaction);
    t.is(b.maxTokens, a.maxTokens);
    if (a.compaction) compactions++;
  }
  t.true(compactions > 0, 'the continuation compacts too');
});

test('a snapshot is plain data: changing the context afterwards does not change it', (t) => {
  const context = new ContextManager({ system: 'S', tools, window: 16_000 });
  context.addUser('task');
  const snapshot = context.snapshot();
  const before = JSON.stringify(snapshot);
  context.prepare();
  round(context, 1, 100);
  t.is(JSON.stringify(snapshot), before);
  t.false(JSON.stringify(snapshot).includes('"cache"'), 'render caches are left out');
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
