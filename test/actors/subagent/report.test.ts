import test from 'ava';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { REPORT_NOW } from '../../../actors/subagent/actor.js';
import { KEPT_CHARS } from '../../../actors/subagent/report.js';
import type { ToolResult } from '../../../actors/tool-executor/protocol.js';
import { dispatch, harness, SUBAGENT_SYSTEM } from './harness.js';

const TREE = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/c.ts': 'export const c = 3;\n',
  'docs/guide.md': '# Guide\n',
};

function subagentResults(events: AgentEvent[]): ToolResult[] {
  return events.flatMap((e) => (e.type === 'tool-call' && e.state.call.name === 'subagent' && 'result' in e.state ? [e.state.result] : []));
}

test('a subagent at its budget is forced to report: tools withheld by tool_choice, the tools array unchanged', async (t) => {
  let n = 0;
  const h = await harness(t, TREE, ({ request, task, round }) => {
    if (!task) return round === 0 ? dispatch(['Explore the whole project and report what it exports.']) : { content: 'ok' };
    if (request.json.tool_choice === 'none') return { content: 'Forced report: src/a.ts exports a; src/b.ts exports b.' };
    // A subagent that would never stop on its own.
    return { toolCalls: [{ id: `r${++n}`, name: 'read', arguments: { path: ['src/a.ts', 'src/b.ts', 'src/c.ts'][round % 3]! } }] };
  });
  const { result, events } = await h.turn('explore', { maxTurns: 3 });
  t.is(result.status, 'answered');
  const sub = h.server.chatRequests().filter((r) => r.json.messages[0].content === SUBAGENT_SYSTEM);
  t.is(sub.length, 3, 'REIKA_SUBAGENT_MAX_TURNS requests, no more');
  t.deepEqual(sub.map((r) => r.json.tool_choice), [undefined, undefined, 'none']);
  t.is(JSON.stringify(sub[2]!.json.tools), JSON.stringify(sub[0]!.json.tools), 'the same tools bytes: the prefix cache holds');
  t.deepEqual(sub[0]!.json.tools.map((tool: { function: { name: string } }) => tool.function.name), ['read', 'list', 'glob', 'grep'], 'read-only tools, no subagent tool');
  t.is(sub[2]!.json.messages.at(-1).role, 'tool', 'the note rides in the newest tool result');
  t.true(sub[2]!.json.messages.at(-1).content.endsWith(`\n\n${REPORT_NOW}`));
  const [report] = subagentResults(events);
  t.is(report!.status, 'done');
  t.regex(report!.summary, /^subagent report \(done; 2 files read\):\nForced report: src\/a\.ts exports a/);
  t.regex(report!.summary, /Not covered: none \(the task named no files\)\.$/);
});

test('a subagent that ignores the forced round still returns what it found, marked as stopped at its budget', async (t) => {
  let n = 0;
  const h = await harness(t, TREE, ({ task, round }) => {
    if (!task) return round === 0 ? dispatch([{ task: 'Summarise src/a.ts and src/b.ts.' }]) : { content: 'ok' };
    return { toolCalls: [{ id: `r${++n}`, name: 'read', arguments: { path: 'src/a.ts', offset: round + 1 } }] };
  });
  const { events } = await h.turn('explore', { maxTurns: 2 });
  const [report] = subagentResults(events);
  t.is(report!.errorCode, 'REIKA_ERR_MAX_TURNS');
  t.regex(report!.summary, /^subagent report \(stopped at its budget; 1 file read; not covered: src\/b\.ts\):/);
  t.regex(report!.summary, /\[the subagent stopped before its report: it used its budget of 2 requests; what it found so far follows\]/);
  t.regex(report!.summary, /Tool calls it made:\n- read src\/a\.ts — /);
  t.regex(report!.summary, /Not covered \(named in the task but not read; hand them to another subagent\):\n- src\/b\.ts$/);
});

test('the Not-covered list names the files of the task and of `files` that were never read', async (t) => {
  const h = await harness(t, TREE, ({ task, round }) => {
    if (!task) return round === 0 ? dispatch([{ task: 'Compare src/a.ts with src/b.ts, and check e.g. the config.', files: ['docs/guide.md', 'src/missing.ts', 'src/a.ts'] }]) : { content: 'ok' };
    if (round === 0) return { toolCalls: [{ id: 'r1', name: 'read', arguments: { path: './src/a.ts' } }] };
    return { content: 'src/a.ts:1 exports a = 1.' };
  });
  const { events } = await h.turn('compare');
  const [report] = subagentResults(events);
  t.is(report!.status, 'done');
  t.is(report!.errorCode, undefined);
  const list = report!.summary.slice(report!.summary.indexOf('Not covered'));
  t.is(list, ['Not covered (named in the task but not read; hand them to another subagent):', '- docs/guide.md', '- src/missing.ts (not found)', '- src/b.ts'].join('\n'));
  t.regex(report!.summary.split('\n')[0]!, /not covered: docs\/guide\.md, src\/missing\.ts \(not found\), src\/b\.ts/);
  const firstAsk = h.server.chatRequests().find((r) => r.json.messages[0].content === SUBAGENT_SYSTEM)!;
  t.regex(firstAsk.json.messages[1].content, /Files to read for this task:\n- docs\/guide\.md\n- src\/missing\.ts\n- src\/a\.ts$/);
});

test('a long report keeps its first 2,400 characters in the summary and the rest in the payload', async (t) => {
  const line = (i: number) => `- finding ${String(i).padStart(3, '0')}: ${'x'.repeat(60)}`;
  const long = Array.from({ length: 80 }, (_, i) => line(i)).join('\n');
  const h = await harness(t, TREE, ({ task, round }) => {
    if (!task) return round === 0 ? dispatch(['Report at length.']) : { content: 'ok' };
    return { content: long };
  });
  const { events } = await h.turn('long');
  const [report] = subagentResults(events);
  const head = report!.summary.slice(report!.summary.indexOf('\n') + 1);
  t.true(head.length <= KEPT_CHARS && head.length > KEPT_CHARS * 0.75, `${head.length}`);
  t.true(long.startsWith(head), 'the summary is the report\'s beginning');
  t.true(`${head}\n${report!.payload}`.startsWith(long), 'summary and payload together are the whole report');
  t.regex(report!.payload, /Not covered: none/);
});

test('a subagent whose server fails returns what it found so far', async (t) => {
  const h = await harness(t, TREE, ({ task, round }) => {
    if (!task) return round === 0 ? dispatch([{ task: 'Read src/a.ts and src/c.ts.' }]) : { content: 'ok' };
    if (round === 0) return { toolCalls: [{ id: 'r1', name: 'read', arguments: { path: 'src/a.ts' } }] };
    return { fault: { type: 'status', status: 401, message: 'bad key' } };
  });
  const { result, events } = await h.turn('fails');
  t.is(result.status, 'answered', 'the parent goes on');
  const [report] = subagentResults(events);
  t.is(report!.status, 'error');
  t.regex(report!.summary, /^subagent report \(error; 1 file read; not covered: src\/c\.ts\):/);
  t.regex(report!.summary, /stopped before its report: .*401|bad key/);
  t.regex(report!.summary, /- read src\/a\.ts — /);
  t.deepEqual(h.spawned.filter((name) => h.supervisor.has(name)), []);
});
