import test from 'ava';
import type { AgentEvent } from '../../../actors/agent/events.js';
import type { ToolCallState } from '../../../actors/agent/tool-call-state.js';
import { dispatch, harness, toolMessages, toolResults } from './harness.js';

const TREE = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/c.ts': 'export const c = 3;\n',
  'src/d.ts': 'export const d = 4;\n',
  'src/e.ts': 'export const e = 5;\n',
  'src/f.ts': 'export const f = 6;\n',
};
const LETTERS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Each subagent reads the file its task names, then reports on it. */
function explorer(task: string, round: number, latencyMs: number) {
  const letter = /src\/(\w)\.ts/.exec(task)![1]!;
  if (round === 0) return { latencyMs, toolCalls: [{ id: `read_${letter}`, name: 'read', arguments: { path: `src/${letter}.ts` } }] };
  return { latencyMs, content: `Report ${letter.toUpperCase()}: src/${letter}.ts:1 exports ${letter}.` };
}

/**
 * Holds each request that arrives until `size` are waiting together, then lets them all go: if
 * they do come together, they ran in parallel, however slow the machine. Should they never (a
 * wave run one after another), it opens after a generous bound so the test fails on its count
 * instead of hanging.
 */
function meetingPoint(size: number): { arrive(): Promise<void>; most(): number } {
  let waiting: Array<() => void> = [];
  let most = 0;
  const open = () => {
    for (const go of waiting) go();
    waiting = [];
  };
  return {
    arrive() {
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        most = Math.max(most, waiting.length);
        if (waiting.length === size) open();
        else setTimeout(open, 20_000).unref();
      });
    },
    most: () => most,
  };
}

function finals(events: AgentEvent[]): Array<Extract<ToolCallState, { result: unknown }>> {
  return events.flatMap((e) => (e.type === 'tool-call' && 'result' in e.state ? [e.state] : []));
}

test('a wave of four runs its members in parallel, in about the time of its slowest member', async (t) => {
  const latency = 300;
  const together = meetingPoint(4);
  const h = await harness(t, TREE, async ({ task, round }) => {
    if (task && round === 0) await together.arrive();
    if (task) return explorer(task, round, latency);
    return round === 0 ? dispatch(LETTERS.slice(0, 4).map((l) => `Find what src/${l}.ts exports.`)) : { content: 'All four reported.' };
  });
  const started = new Map<string, number>();
  const ended = new Map<string, number>();
  const { result, events } = await h.turn('survey the sources', {
    onEvent: (event) => {
      if (event.type !== 'tool-call' || event.state.call.name !== 'subagent') return;
      if (event.state.status === 'running') started.set(event.state.call.id, performance.now());
      if (event.state.status === 'done') ended.set(event.state.call.id, performance.now());
    },
  });
  t.is(result.status, 'answered');
  t.is(ended.size, 4);
  const durations = [...ended].map(([id, end]) => end - started.get(id)!);
  const wall = Math.max(...ended.values()) - Math.min(...started.values());
  const sum = durations.reduce((a, b) => a + b, 0);
  // The timing is for the record (bench/subagent.bench.ts measures it); the proof of parallelism
  // is that all four first requests were in flight together.
  t.log(`wave ${wall.toFixed(0)} ms, slowest ${Math.max(...durations).toFixed(0)} ms, sum ${sum.toFixed(0)} ms`);
  t.is(together.most(), 4, 'the four members had their first requests in flight together');
  // Each report reached the parent as the result of its own call.
  const last = h.server.chatRequests().filter((r) => r.json.messages[0].content !== 'You are a reika subagent of a test.').at(-1)!;
  const results = [...toolMessages(last).values()];
  for (const letter of ['A', 'B', 'C', 'D']) t.true(results.some((text) => text.includes(`Report ${letter}: src/${letter.toLowerCase()}.ts:1`)), letter);
  t.deepEqual(finals(events).map((s) => s.status), ['done', 'done', 'done', 'done']);
  t.deepEqual(h.spawned.filter((name) => h.supervisor.has(name)), [], 'every subagent actor was stopped');
});

test('six calls in one response: four run at once, never more, the extra two are refused with a way forward', async (t) => {
  const together = meetingPoint(4);
  const h = await harness(t, TREE, async ({ task, round }) => {
    if (!task) return round === 0 ? dispatch(LETTERS.map((l) => `Find what src/${l}.ts exports.`)) : { content: 'ok' };
    if (round === 0) await together.arrive();
    return explorer(task, round, 0);
  });
  const { result, events } = await h.turn('survey all six');
  t.is(result.status, 'answered');
  t.is(together.most(), 4, 'four subagents had requests in flight together');
  t.is(h.spawned.length, 4, 'only four subagent actors were started, never more');
  const states = finals(events).filter((s) => s.call.name === 'subagent');
  t.deepEqual(states.map((s) => s.status).sort(), ['done', 'done', 'done', 'done', 'error', 'error']);
  const refused = states.filter((s) => s.status === 'error');
  for (const state of refused) {
    t.is(state.result.errorCode, 'SUBAGENT_WAVE_FULL');
    t.regex(state.result.summary, /at most 4 subagents run in one wave and this response asked for 6\. Dispatch this one \(task: "Find what src\/[ef]\.ts exports\."\) in your next response/);
  }
  t.deepEqual(refused.map((s) => s.call.arguments.task), ['Find what src/e.ts exports.', 'Find what src/f.ts exports.'], 'the calls past the fourth are the ones refused');
});

test('sibling read calls of a wave run after it, and results keep the order of the calls', async (t) => {
  const order: string[] = [];
  const h = await harness(t, TREE, ({ task, round }) => {
    if (task) return explorer(task, round, 100);
    return round === 0 ? dispatch(['Find what src/a.ts exports.', 'Find what src/b.ts exports.'], [{ id: 'sibling', name: 'read', arguments: { path: 'src/c.ts' } }]) : { content: 'ok' };
  });
  const { result } = await h.turn('mixed', {
    onEvent: (event) => {
      if (event.type === 'tool-call' && event.state.status !== 'pending') order.push(`${event.state.call.name}:${event.state.status}`);
    },
  });
  t.is(result.status, 'answered');
  t.deepEqual(order.slice(-2), ['read:running', 'read:done'], 'the read ran once both subagents were done');
  const last = h.server.chatRequests().at(-1)!;
  t.deepEqual(toolResults(last).map((result) => result.name), ['subagent', 'subagent', 'read']);
});

test('a fourth wave in one turn is refused; three waves ran', async (t) => {
  const h = await harness(t, TREE, ({ task, round }) => {
    if (task) return explorer(task, round, 0);
    return round < 4 ? dispatch([`Find what src/${LETTERS[round]}.ts exports.`]) : { content: 'done' };
  });
  const { result, events, waves } = await h.turn('four waves');
  t.is(result.status, 'answered');
  t.is(waves.count, 4);
  t.is(h.spawned.length, 3);
  const states = finals(events).filter((s) => s.call.name === 'subagent');
  t.deepEqual(states.map((s) => s.status), ['done', 'done', 'done', 'error']);
  t.is(states[3]!.result.errorCode, 'SUBAGENT_WAVE_LIMIT');
  t.regex(states[3]!.result.summary, /at most 3 subagent waves run per turn .* read the remaining files yourself/);
  t.false(h.server.chatRequests().some((r) => JSON.stringify(r.json.messages).includes('src/d.ts exports') && r.json.messages[0].content.includes('subagent')), 'the fourth subagent never asked the model');
});

test('bad arguments are refused without taking a place in the wave', async (t) => {
  const h = await harness(t, TREE, ({ task, round }) => {
    if (task) return explorer(task, round, 0);
    if (round > 0) return { content: 'ok' };
    const reply = dispatch(LETTERS.slice(0, 4).map((l) => `Find what src/${l}.ts exports.`));
    reply.toolCalls!.push({ id: 'bad_1', name: 'subagent', arguments: { files: ['src/a.ts'] } }, { id: 'bad_2', name: 'subagent', arguments: { task: 'x', files: 'src/a.ts' } });
    return reply;
  });
  const { events } = await h.turn('bad args');
  const states = finals(events).filter((s) => s.call.name === 'subagent');
  t.is(states.filter((s) => s.status === 'done').length, 4);
  const bad = states.filter((s) => s.status === 'error').map((s) => s.result.summary);
  t.deepEqual(bad.sort(), ['not run: subagent "files" must be an array of path strings.', 'not run: subagent needs a non-empty string "task" saying what to find out.']);
});

test('a subagent cannot spawn subagents: a subagent call inside one is an error result, no actor starts', async (t) => {
  const h = await harness(t, TREE, ({ request, task, round }) => {
    if (!task) return round === 0 ? dispatch(['Find what src/a.ts exports.']) : { content: 'ok' };
    if (round === 0) return { toolCalls: [{ id: 'nested', name: 'subagent', arguments: { task: 'Find what src/b.ts exports.' } }] };
    const nested = toolResults(request).find((result) => result.name === 'subagent')?.content ?? '';
    return { content: `nested said: ${nested.split('\n')[0]}` };
  });
  const { result, events } = await h.turn('nest');
  t.is(result.status, 'answered');
  t.deepEqual(h.spawned, ['subagent/1']);
  const [state] = finals(events);
  t.regex(state!.result.summary, /nested said: .*no tool named "subagent"/);
  t.notRegex(state!.result.summary, /nested said: subagent report/);
});
