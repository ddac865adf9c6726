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
