import test from 'ava';
import { LoopGuard } from '../../../actors/agent/loop-guard.js';
import type { ToolCall } from '../../../actors/model-io/protocol.js';
import type { ToolResult } from '../../../actors/tool-executor/protocol.js';

/** An edit whose arguments were not JSON (cut off by max_tokens), as model-io hands it over. */
const broken = (id: string, raw: string): ToolCall => ({ id, name: 'edit', arguments: {}, rawArguments: raw, source: 'native' });
const notRun = (call: ToolCall): ToolResult => ({ callId: call.id, name: 'edit', status: 'error', summary: 'not run: the arguments were not valid JSON', payload: '' });

test('broken edit calls with different text are not "the same edit": three of them in a long turn do not stop it', (t) => {
  // Found by the issue 21 soak: three malformed edits 100 rounds apart stopped a 220-round
  // session as "the same edit of undefined failed 3 times" (no path, no old_string: one key).
  const guard = new LoopGuard();
  const verdicts = ['{"path": "a.ts", "old', '{"path": "b.ts", "old_string": "x', '{"path": broken'].map((raw, i) => guard.observe(broken(`c${i}`, raw), notRun(broken(`c${i}`, raw))));
  t.deepEqual(verdicts.map((v) => v.action), ['ok', 'ok', 'ok']);
});

test('the same broken edit call sent again gets a note, then a stop, in words that name no undefined path', (t) => {
  const guard = new LoopGuard();
  const raw = '{"path": "a.ts", "old';
  // Each result differs (so the exact-repeat rule stays out of it): only the failed-edit rule counts.
  const verdicts = [0, 1, 2].map((i) => guard.observe(broken(`c${i}`, raw), { ...notRun(broken(`c${i}`, raw)), summary: `not run (${i})` }));
  t.deepEqual(verdicts.map((v) => v.action), ['ok', 'note', 'stop']);
  for (const verdict of verdicts.slice(1)) t.false('message' in verdict && /undefined/.test(verdict.message), JSON.stringify(verdict));
  t.regex((verdicts[2] as { message: string }).message, /the same broken edit call failed 3 times/);
});

const read = (id: string): ToolCall => ({ id, name: 'read', arguments: { path: 'src/a.ts', offset: 1, limit: 20 }, source: 'native' });
const readResult = (call: ToolCall): ToolResult => ({ callId: call.id, name: 'read', status: 'done', summary: 'read src/a.ts: lines 1–20 of 90', payload: 'const a = 1;' });
const other = (n: number): ToolCall => ({ id: `o${n}`, name: 'grep', arguments: { pattern: `p${n}` }, source: 'native' });

test('the same read made again long after (a file compaction shed, read anew) is not a loop: four of them 50 calls apart pass', (t) => {
  // Found by the issue 21 soak: counts never decayed, so four identical calls 100 rounds apart in
  // a 400-round turn stopped it as a model "repeating" itself.
  const guard = new LoopGuard();
  const verdicts: string[] = [];
  for (let round = 0; round < 4; round++) {
    verdicts.push(guard.observe(read(`r${round}`), readResult(read(`r${round}`))).action);
    for (let n = 0; n < 50; n++) guard.observe(other(round * 50 + n), { callId: `o${n}`, name: 'grep', status: 'done', summary: `${n} matches`, payload: '' });
  }
  t.deepEqual(verdicts, ['ok', 'ok', 'ok', 'ok']);
});

test('the same read four times within a few rounds is still a loop: a note, then a stop', (t) => {
  const guard = new LoopGuard();
  const verdicts = [0, 1, 2, 3].map((i) => {
    guard.observe(other(i), { callId: `o${i}`, name: 'grep', status: 'done', summary: `${i} matches`, payload: '' });
    return guard.observe(read(`r${i}`), readResult(read(`r${i}`))).action;
  });
  t.deepEqual(verdicts, ['ok', 'note', 'note', 'stop']);
});

test('the same bash call whose results differ only in run time is a loop: a note, then a stop', (t) => {
  // Found by the issue 21 soak: the summary says how long the command took ("exit code 0 after
  // 0.1 s", then "… after 0.0 s"), so identical commands never counted as the same result.
  const guard = new LoopGuard();
  const bash = (id: string): ToolCall => ({ id, name: 'bash', arguments: { command: 'npm test' }, source: 'native' });
  const took = ['0.1 s', '0.0 s', '1.4 s', '2 min 5 s'];
  const verdicts = took.map((time, i) => guard.observe(bash(`b${i}`), { callId: `b${i}`, name: 'bash', status: 'done', summary: `exit code 1 after ${time}`, payload: '1 failing' }).action);
  t.deepEqual(verdicts, ['ok', 'note', 'note', 'stop']);
});

test('results that differ in more than run time are not the same result', (t) => {
  const guard = new LoopGuard();
  const bash = (id: string): ToolCall => ({ id, name: 'bash', arguments: { command: 'npm test' }, source: 'native' });
  const verdicts = [1, 2, 3, 4].map((code, i) => guard.observe(bash(`b${i}`), { callId: `b${i}`, name: 'bash', status: 'done', summary: `exit code ${code} after 0.${i} s`, payload: '' }).action);
  t.deepEqual(verdicts, ['ok', 'ok', 'ok', 'ok']);
});
