import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_EXECUTOR, type ToolExecutorRequest } from '../../actors/tool-executor/protocol.js';
import { startRuntime } from '../../cli/start-runtime.js';
import { tempDir } from '../helpers/temp.js';
import { client } from '../../runtime/actor.js';

function grep(root: string, pattern: string): ToolExecutorRequest {
  return { type: 'run', callId: 'c1', name: 'grep', args: { pattern }, context: { root, approvals: 'safe', mode: 'agent' } };
}

test('a catastrophic grep pattern no longer stalls the tool executor: it answers at once and is not restarted', async (t) => {
  // grep runs RE2 (linear time). The heartbeat's kill-and-restart path is covered with a busy
  // actor in test/runtime/supervisor.test.ts.
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), `${'a'.repeat(40)}!\nplain line\naaaa\n`);
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root, hangAfterMs: 600 });
  t.teardown(() => runtime.close());
  runtime.prewarm();
  await runtime.ready;
  const pid = runtime.supervisor.pidOf(TOOL_EXECUTOR);
  const result = await client(runtime.supervisor, TOOL_EXECUTOR).request(grep(root, '^(a+)+$'));
  t.is(result.status, 'done');
  t.is(result.payload, 'a.txt:3: aaaa');
  t.is(runtime.supervisor.pidOf(TOOL_EXECUTOR), pid, 'the same executor answered');
});
