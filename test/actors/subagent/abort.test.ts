import test from 'ava';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { dispatch, harness, SUBAGENT_SYSTEM } from './harness.js';

const TREE = { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'src/c.ts': 'export const c = 3;\n', 'src/d.ts': 'export const d = 4;\n' };

/** Resolves with `promise`, or with `late` after `ms` (a generous bound, not a timing assertion). */
function within<T>(promise: Promise<T>, ms: number, late: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(late), ms).unref())]);
}

test('an abort mid-wave leaves nothing running: no subagent actor, no request in flight, partial reports kept', async (t) => {
  let arrived = 0;
  let allStuck!: () => void;
  const stuck = new Promise<void>((resolve) => (allStuck = resolve));
  const h = await harness(t, TREE, ({ task, round }) => {
    if (!task) return round === 0 ? dispatch(['a', 'b', 'c', 'd'].map((l) => `Find what src/${l}.ts exports.`)) : { content: 'never asked' };
    const letter = /src\/(\w)\.ts/.exec(task)![1]!;
    if (round === 0) return { toolCalls: [{ id: `read_${letter}`, name: 'read', arguments: { path: `src/${letter}.ts` } }] };
    // The second request of every subagent hangs until the client leaves.
    if (++arrived === 4) allStuck();
    return { content: 'Partial', fault: { type: 'stall', afterBytes: 0 } };
  });
  let abort!: () => void;
  const turn = h.turn('survey', { onEvent: (_event: AgentEvent, stop) => (abort = stop) });
  await stuck;
  abort();
  const { result, events } = await turn;
  t.is(result.status, 'aborted');
  t.is(h.spawned.length, 4);
  t.deepEqual(h.spawned.filter((name) => h.supervisor.has(name)), [], 'every subagent actor is gone when the turn returns');
  const sub = h.server.chatRequests().filter((r) => r.json.messages[0].content === SUBAGENT_SYSTEM);
  t.is(sub.length, 8);
  const outcomes = await within<string[] | 'still open'>(Promise.all(sub.map((r) => r.outcome)), 3_000, 'still open');
  t.not(outcomes, 'still open', 'no request is left in flight');
  t.deepEqual(
    (outcomes as string[]).filter((o) => o === 'client-closed').length,
    4,
    'the four hanging requests were closed by the client',
  );
  const results = events.flatMap((e) => (e.type === 'tool-call' && e.state.call.name === 'subagent' && 'result' in e.state ? [e.state.result] : []));
  t.is(results.length, 4);
  for (const r of results) {
    t.is(r.status, 'cancelled');
    t.regex(r.summary, /stopped before its report: the turn was aborted/);
    t.regex(r.summary, /- read src\/\w\.ts — /, 'what it had found so far comes back');
  }
  t.is(h.server.chatRequests().length, 9, 'the parent asked nothing after the abort');
});
