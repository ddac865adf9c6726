import test from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INDEXER } from '../../actors/indexer/protocol.js';
import { TOOL_EXECUTOR, type ToolExecutorRequest } from '../../actors/tool-executor/protocol.js';
import { client } from '../../runtime/actor.js';
import type { ReikaError } from '../../runtime/errors.js';
import { HANG_AFTER_MS, HEARTBEAT_MS, startRuntime } from '../../cli/start-runtime.js';
import { startupThread, startupThreadsEnded } from '../../actors/indexer/startup-thread.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { tempDir } from '../helpers/temp.js';
import { toolSettings } from '../helpers/tool-settings.js';

function grep(root: string, pattern: string): ToolExecutorRequest {
  return { type: 'run', callId: 'c1', name: 'grep', args: { pattern }, context: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) } };
}

test('a catastrophic grep pattern no longer stalls the tool executor: it answers at once and is not restarted', async (t) => {
  // grep runs RE2 (linear time); the heartbeat's kill-and-restart path is the next test.
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), `${'a'.repeat(40)}!\nplain line\naaaa\n`);
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  t.teardown(() => runtime.close());
  runtime.prewarm();
  await runtime.ready;
  const pid = runtime.supervisor.pidOf(TOOL_EXECUTOR);
  const result = await client(runtime.supervisor, TOOL_EXECUTOR).request(grep(root, '^(a+)+$'));
  t.is(result.status, 'done');
  t.is(result.payload, 'a.txt:3: aaaa');
  t.is(runtime.supervisor.pidOf(TOOL_EXECUTOR), pid, 'the same executor answered');
});

test('a tool executor that stops answering misses its heartbeats, is restarted, and the call fails in one sentence', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), 'plain line\n');
  // Time moves only when the test advances it, so the verdict never depends on a loaded machine.
  const clock = new ManualClock();
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root, supervisor: { clock } });
  t.teardown(() => runtime.close());
  runtime.prewarm();
  await runtime.ready;
  const executor = client(runtime.supervisor, TOOL_EXECUTOR);
  const pid = runtime.supervisor.pidOf(TOOL_EXECUTOR)!;
  // A hang that is certain: the process is stopped, its event loop answers nothing.
  process.kill(pid, 'SIGSTOP');
  const stuck = executor.request(grep(root, 'plain'));
  clock.advance(HANG_AFTER_MS + HEARTBEAT_MS);
  const error = (await t.throwsAsync(stuck)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_ACTOR_CRASHED');
  t.is(error.message, `the process that runs the tools stopped answering for ${(HANG_AFTER_MS / 1000).toFixed(1)} s and was restarted`);
  const next = await executor.request(grep(root, 'plain'));
  t.is(next.status, 'done');
  t.regex(next.payload, /a\.txt:1/);
  t.not(runtime.supervisor.pidOf(TOOL_EXECUTOR), pid);
});

test('prewarm({ now: true }) starts the tool executor at once: a tool call routed right after it is queued, not refused', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), 'plain line\n');
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  t.teardown(() => runtime.close());
  // The deferred prewarm (a headless session's first request) has not spawned it yet; the first tool call may come first.
  runtime.prewarm();
  runtime.prewarm({ now: true });
  t.true(runtime.supervisor.has(TOOL_EXECUTOR));
  const result = await client(runtime.supervisor, TOOL_EXECUTOR).request(grep(root, 'plain'));
  t.is(result.status, 'done');
  t.regex(result.payload, /a\.txt:1/);
});

test('the deferred prewarm starts the tool executor only once the startup indexer thread has ended', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), 'plain line\n');
  const scan = startupThread({ root, caps: { indexPaths: 100 } });
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  t.teardown(() => runtime.close());
  let ended = false;
  const threadEnded = startupThreadsEnded().then(() => (ended = true));
  runtime.prewarm();
  await runtime.ready;
  t.true(ended, 'the executor was up only after the startup thread had ended');
  await threadEnded;
  t.deepEqual(await scan.ranked, [], 'a.txt is no source file: nothing to rank');
});

test('two runtimes in one process each own their indexer: closing one leaves the other scanning', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, 'a.txt'), 'a\n');
  const first = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  await first.indexerReady;
  const second = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  t.teardown(() => second.close());
  await second.indexerReady;
  await first.close();
  const index = await client(second.supervisor, INDEXER).request({ type: 'scan', root });
  t.deepEqual(index.paths, ['a.txt']);
});

test('an interrupted run starts no tool executor: a prewarm after the signal spawns nothing', async (t) => {
  const root = tempDir();
  const interrupt = new AbortController();
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root, signal: interrupt.signal });
  t.teardown(() => runtime.close());
  interrupt.abort('SIGINT');
  runtime.prewarm();
  const error = (await t.throwsAsync(runtime.ready)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CLOSED');
  t.is(runtime.supervisor.pidOf(TOOL_EXECUTOR), undefined);
});

test('a command whose executor was killed does not outlive the runtime when no executor comes after it', async (t) => {
  // Found by the issue 21 soak: the executor killed during `sleep 30`, then crash-looping (or the
  // run ending before a new one was up), left the sleep running; only a next executor reaped it.
  const root = tempDir();
  // Without a sandbox (none on this system, or REIKA_SANDBOX=off): bubblewrap's --die-with-parent would take it down.
  writeFileSync(join(root, '.env'), 'REIKA_SANDBOX=off\n');
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  runtime.prewarm();
  await runtime.ready;
  // A duration no other process here sleeps for names it in /proc.
  const marker = `sleep 30.${String(process.pid).padStart(7, '0')}`;
  const call = client(runtime.supervisor, TOOL_EXECUTOR).request({ type: 'run', callId: 'c1', name: 'bash', args: { command: marker }, context: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) } });
  call.catch(() => {});
  const sleepers = () => readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && cmdline(pid).trim() === marker);
  while (sleepers().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const executor = runtime.supervisor.pidOf(TOOL_EXECUTOR)!;
  process.kill(executor, 'SIGKILL');
  await runtime.close();
  t.deepEqual(sleepers().filter((pid) => !zombie(pid)), [], 'the sleep is gone');
});

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function zombie(pid: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
  } catch {
    return true;
  }
}

test('toolsDone() before the deferred prewarm has spawned the tool executor: it is never started', async (t) => {
  const root = tempDir();
  const scan = startupThread({ root, caps: { indexPaths: 100 } });
  const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
  t.teardown(() => runtime.close());
  // The prewarm waits for the startup thread; the run's turn ends before that.
  runtime.prewarm();
  await runtime.toolsDone();
  await scan.ranked.catch(() => {});
  await startupThreadsEnded();
  const error = (await t.throwsAsync(runtime.ready)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CLOSED');
  t.false(runtime.supervisor.has(TOOL_EXECUTOR), 'no executor was spawned');
  t.is(runtime.supervisor.pidOf(TOOL_EXECUTOR), undefined);
});

test('toolsDone() stops a tool executor that is booting or up: its process is gone before close', async (t) => {
  const root = tempDir();
  for (const up of [false, true]) {
    const runtime = startRuntime({ approve: () => ({ decision: 'decline' }), cwd: root });
    t.teardown(() => runtime.close());
    runtime.prewarm({ now: true });
    if (up) await runtime.ready;
    const pid = runtime.supervisor.pidOf(TOOL_EXECUTOR)!;
    t.truthy(pid);
    await runtime.toolsDone();
    t.false(runtime.supervisor.has(TOOL_EXECUTOR), up ? 'stopped once up' : 'stopped while booting');
    t.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `process ${pid} is gone`);
  }
});
