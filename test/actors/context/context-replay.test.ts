import test from 'ava';
import { ContextManager } from '../../../actors/context/context-manager.js';
import type { ContextOp } from '../../../actors/context/context-op.js';
import type { ToolSchema } from '../../../actors/model-io/protocol.js';

const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

/** A journal as the transcript keeps it: each op through JSON, as it is written and read back. */
function recorder(): { ops: ContextOp[]; journal: (op: ContextOp) => void } {
  const ops: ContextOp[] = [];
  return { ops, journal: (op) => ops.push(JSON.parse(JSON.stringify(op)) as ContextOp) };
}

/** A long session: rounds with payloads of every size, nudges, an abort, a window found late, compactions. */
function drive(context: ContextManager, rounds: number): void {
  for (let turn = 0; turn < 3; turn++) {
    context.addUser(`task ${turn}: read the files ünïcödé 🎉`);
    for (let n = 0; n < rounds; n++) {
      context.prepare();
      context.recordUsage({ promptTokens: 1000 + n * 900, completionTokens: 20 + n, cachedTokens: 900 * n }, 'tool_calls');
      // Ids the server gave in a shape templates reject: the history mints new ones at random.
      context.addAssistant(n % 3 === 0 ? 'Looking.' : '', [
        { id: `call_${n}`, name: 'read', arguments: { path: `f${n}.ts`, offset: n }, source: 'native' },
        { id: `call_${n}`, name: 'read', arguments: { path: `g${n}.ts` }, source: 'native' },
      ]);
      context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read f${n}.ts`, payload: `${n}`.padEnd(n % 5 === 0 ? 9_000 : 700, 'x') });
      context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read g${n}.ts`, payload: 'y'.repeat(300), status: n === 4 ? 'error' : 'done' });
      if (n === 2) context.addNudge('You read g2.ts twice.');
    }
    if (turn === 0) context.setWindow(24_000);
    if (turn === 1) {
      // Aborted: the reply never came.
      context.prepare();
      context.endTurn('unanswered');
      context.compact();
      continue;
    }
    context.prepare();
    context.recordUsage({ promptTokens: 9000, completionTokens: 50, cachedTokens: 8000 }, 'stop');
    context.addAssistant(`answer ${turn}`, []);
    context.endTurn('answered');
  }
}

test('replaying the journal rebuilds the context manager exactly: the next request is the same, byte for byte', (t) => {
  const { ops, journal } = recorder();
  const live = new ContextManager({ system: 'You are a test.', tools, maxTokens: 2048, journal });
  drive(live, 12);
  const replayed = ContextManager.replay(ops);
  t.deepEqual(replayed.stats(), live.stats());
  for (const context of [live, replayed]) context.addUser('and now?');
  const a = live.prepare();
  const b = replayed.prepare();
  t.is(JSON.stringify(b.messages), JSON.stringify(a.messages));
  t.is(b.maxTokens, a.maxTokens);
  t.is(b.estimateTokens, a.estimateTokens);
  t.true(ops.some((op) => op.op === 'window'), 'the late window is in the journal');
  t.true(live.stats().shed > 0 || live.stats().folded > 0, 'the session went through compactions');
});

test('a journal cut anywhere (a crash mid-turn) replays to the state at that point', (t) => {
  const { ops, journal } = recorder();
  const live = new ContextManager({ system: 's', tools, window: 16_000, journal });
  drive(live, 6);
  for (const cut of [5, 17, 40, Math.floor(ops.length / 2), ops.length - 3]) {
    const expected = ContextManager.replay(ops.slice(0, cut));
    const again = ContextManager.replay(ops.slice(0, cut));
    expected.endTurn('unanswered');
    again.endTurn('unanswered');
    expected.addUser('go on');
    again.addUser('go on');
    t.is(JSON.stringify(again.prepare().messages), JSON.stringify(expected.prepare().messages), `cut at op ${cut}`);
  }
});

test('a replayed manager goes on journaling to the new journal, not during the replay', (t) => {
  const first = recorder();
  const live = new ContextManager({ system: 's', tools, journal: first.journal });
  live.addUser('hi');
  live.prepare();
  const second = recorder();
  const replayed = ContextManager.replay(first.ops, second.journal);
  t.deepEqual(second.ops, []);
  replayed.addAssistant('hello', []);
  t.deepEqual(second.ops, [{ op: 'assistant', text: 'hello', calls: [], ids: [] }]);
  t.throws(() => ContextManager.replay([{ op: 'user', text: 'x' }]), { message: /does not start with its system prompt/ });
});

test('images sent natively are journaled as their notes only', (t) => {
  const { ops, journal } = recorder();
  const live = new ContextManager({ system: 's', tools, journal });
  live.addUserImages('look', [{ url: 'data:image/png;base64,AAAA', note: '[image: a cat]' }]);
  live.prepare();
  live.addAssistant('a cat', []);
  live.endTurn('answered');
  t.false(JSON.stringify(ops).includes('base64'));
  const replayed = ContextManager.replay(ops);
  live.addUser('more');
  replayed.addUser('more');
  t.is(JSON.stringify(replayed.prepare().messages), JSON.stringify(live.prepare().messages));
});
