import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolExecutorRequest, ToolResult } from '../../actors/tool-executor/protocol.js';
import type { ReikaError } from '../../runtime/errors.js';
import { startRuntime } from '../../cli/start-runtime.js';
import { tempDir } from '../helpers/temp.js';

function grep(root: string, pattern: string): ToolExecutorRequest {
  return { type: 'run', callId: 'c1', name: 'grep', args: { pattern }, context: { root, approvals: 'safe', mode: 'agent' } };
}

test('a tool executor stuck in a backtracking regex misses its heartbeats, is restarted, and the call fails in one sentence', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), `${'a'.repeat(40)}!\nplain line\n`);
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root, hangAfterMs: 600 });
  t.teardown(() => runtime.close());
  runtime.prewarm();
  await runtime.ready;
  const started = Date.now();
  const error = (await t.throwsAsync(runtime.supervisor.request<ToolResult>('tool-executor', grep(root, '^(a+)+$')))) as ReikaError;
  t.is(error.code, 'REIKA_ERR_ACTOR_CRASHED');
  t.regex(error.message, /^the tool-executor actor stopped answering for \d+\.\d s and was restarted$/);
  t.true(Date.now() - started < 10_000, 'the hang is noticed in bounded time');
  const next = await runtime.supervisor.request<ToolResult>('tool-executor', grep(root, 'plain'));
  t.is(next.status, 'done');
  t.regex(next.payload, /a\.txt:2/);
});
