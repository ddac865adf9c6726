import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { client, defineActor, ReikaError, Supervisor } from '../../../runtime/index.js';
import { TOOL_EXECUTOR, type ToolDelta, type ToolExecutorRequest } from '../../../actors/tool-executor/protocol.js';
import { APPROVER, type ApprovalRequest, type ApproverProtocol } from '../../../actors/approver/protocol.js';
import { tempDir } from '../../helpers/temp.js';
import { toolSettings } from '../../helpers/tool-settings.js';

const executorModule = new URL('../../../actors/tool-executor/actor.js', import.meta.url);
// These tests follow reika's own process-group cleanup by the pids a command prints (`$$`, `$!`):
// the executor runs commands unsandboxed here, since inside the sandbox's PID namespace those pids
// are not the ones seen out here (and the namespace would end the tree for reika).
process.env.REIKA_SANDBOX = 'off';

function run(root: string, name: string, args: Record<string, unknown>, approvals: 'safe' | 'off' | 'bypass' = 'safe'): ToolExecutorRequest {
  return { type: 'run', callId: `call_${name}`, name, args, context: { root, approvals, mode: 'agent', settings: toolSettings(root) } };
}

/** Live (non-zombie) processes, by pid, with their process group. */
function processes(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') out.set(Number(entry), Number(fields[2]));
    } catch {
      // gone
    }
  }
  return out;
}

/** Waits (by polling /proc, bounded) until none of the pids nor any process of the group lives. */
async function goneWithin(pids: number[], pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const live = processes();
    if (!pids.some((pid) => live.has(pid)) && ![...live.values()].includes(pgid)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function withExecutor(runTest: (supervisor: Supervisor) => Promise<void>): Promise<void> {
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: executorModule });
    await runTest(supervisor);
  } finally {
    await supervisor.close();
  }
}

/**
 * The pids a command printed, as seen here: inside the sandbox's PID namespace `$$` is the
 * namespace's number, the last of a process's `NSpid`. Only processes marked by this executor count.
 */
function hostPids(printed: number[], executorPid: number): number[] {
  const seen = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ids = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${entry}/status`, 'latin1'))![1]!.trim().split(/\s+/).map(Number);
      if (!printed.includes(ids.at(-1)!)) continue;
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').some((line) => line.startsWith('REIKA_TOOL_OWNER=') && line.includes(`:${executorPid}:`))) continue;
      seen.set(ids.at(-1)!, Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return printed.map((pid) => seen.get(pid) ?? pid);
}

/** Starts a bash call and resolves once its output contains `ready`, with the pids it printed. */
function startCommand(supervisor: Supervisor, root: string, command: string, scope?: string) {
  let output = '';
  let onReady!: (pids: number[]) => void;
  const ready = new Promise<number[]>((resolve) => (onReady = resolve));
  const reply = client(supervisor, TOOL_EXECUTOR).request(run(root, 'bash', { command }), {
    scope,
    onDelta: (delta: ToolDelta) => {
      output += delta.text;
      if (/^ready$/m.test(output)) onReady(hostPids([...output.matchAll(/^pid (\d+)$/gm)].map((m) => Number(m[1])), supervisor.pidOf(TOOL_EXECUTOR)!));
    },
  });
  return { ready, reply };
}

test('the executor runs in its own process and answers tool calls', async (t) => {
  await withExecutor(async (supervisor) => {
    t.not(supervisor.pidOf(TOOL_EXECUTOR), process.pid);
    const root = tempDir();
    const write = await client(supervisor, TOOL_EXECUTOR).request(run(root, 'write', { path: 'a.txt', content: 'hello\n' }));
    t.is(write.status, 'done');
    const read = await client(supervisor, TOOL_EXECUTOR).request(run(root, 'read', { path: 'a.txt' }));
    t.deepEqual([read.callId, read.name, read.status, read.payload], ['call_read', 'read', 'done', '1\thello']);
  });
});

test('an aborted bash call leaves no process of its tree once it has ended: background job, TERM-ignoring child, setsid escapee', async (t) => {
  await withExecutor(async (supervisor) => {
    const command = [
      'echo "pid $$"',
      'sleep 300 & echo "pid $!"',
      "(trap '' TERM; echo \"pid $BASHPID\"; exec sleep 300) &",
      "(trap '' TERM; echo \"pid $BASHPID\"; while :; do sleep 1; done) &",
      'setsid sleep 300 & echo "pid $!"',
      'sleep 0.2; echo ready; wait',
    ].join('\n');
    const { ready, reply } = startCommand(supervisor, tempDir(), command, 'turn-1');
    const pids = await ready;
    t.is(pids.length, 5);
    const pgid = pids[0]!;
    const live = processes();
    t.true(pids.every((pid) => live.has(pid)), 'the whole tree is running');
    const abortedAt = Date.now();
    supervisor.abort('turn-1', 'user pressed Esc');
    const result = await reply;
    // The cancelled result comes only once the tree is dead (the time is a figure, not a verdict).
    t.log(`call ended ${Date.now() - abortedAt} ms after the abort`);
    t.true(await goneWithin(pids, pgid, 0), 'nothing of the tree is left when the call has ended');
    t.is(result.status, 'cancelled');
    t.true(result.payload.includes('ready'));
  });
});

test('the executor killed mid-command fails the call clearly, the next call works, and the orphans are reaped', async (t) => {
  await withExecutor(async (supervisor) => {
    const root = tempDir();
    const firstPid = supervisor.pidOf(TOOL_EXECUTOR)!;
    const { ready, reply } = startCommand(supervisor, root, 'echo "pid $$"; sleep 300 & echo "pid $!"; echo ready; wait');
    const pids = await ready;
    process.kill(firstPid, 'SIGKILL');
    const error = (await t.throwsAsync(reply)) as ReikaError;
    t.true(ReikaError.isInstance(error));
    t.is(error.code, 'REIKA_ERR_ACTOR_CRASHED');
    t.is(error.message, 'the tool-executor actor was killed by SIGKILL');
    const next = await client(supervisor, TOOL_EXECUTOR).request(run(root, 'bash', { command: 'echo again' }));
    t.is(next.status, 'done');
    t.is(next.payload, 'again\n');
    t.not(supervisor.pidOf(TOOL_EXECUTOR), firstPid);
    t.true(await goneWithin(pids, pids[0]!, 1_000), 'the new executor killed what the dead one left running');
  });
});

test('closing the supervisor kills every running command', async (t) => {
  const supervisor = new Supervisor();
  await supervisor.spawn({ name: TOOL_EXECUTOR, kind: 'process', module: executorModule });
  const { ready, reply } = startCommand(supervisor, tempDir(), 'echo "pid $$"; sleep 300 & echo "pid $!"; echo ready; wait');
  reply.catch(() => {});
  const pids = await ready;
  await supervisor.close();
  t.true(await goneWithin(pids, pids[0]!, 1_000));
});

test('approvals go to the registered approver; a decline reaches the model with its note', async (t) => {
  await withExecutor(async (supervisor) => {
    const asked: ApprovalRequest[] = [];
    await supervisor.register(
      APPROVER,
      defineActor<ApproverProtocol>({
        handle(request) {
          asked.push(request);
          return request.command?.startsWith('rm') ? { decision: 'decline', note: 'declined: reika runs headless' } : { decision: 'always' };
        },
      }),
    );
    const root = tempDir();
    const declined = await client(supervisor, TOOL_EXECUTOR).request(run(root, 'bash', { command: 'rm -rf src' }));
    t.is(declined.status, 'declined');
    t.is(declined.summary, 'declined: reika runs headless', 'a note that already says declined is not prefixed twice');
    t.deepEqual(asked[0], { type: 'approve', tool: 'bash', reason: 'rm -rf deletes files recursively without asking', command: 'rm -rf src', rules: ['Bash(rm -rf src)'] });
    const approved = await client(supervisor, TOOL_EXECUTOR).request(run(root, 'bash', { command: 'curl --version >/dev/null; echo fine' }));
    t.is(approved.status, 'done');
    t.is(asked.length, 2);
    const ordinary = await client(supervisor, TOOL_EXECUTOR).request(run(root, 'bash', { command: 'echo plain' }));
    t.is(ordinary.status, 'done');
    t.is(asked.length, 2, 'an ordinary command does not ask');
  });
});

test('without an approver, anything that needs approval is declined and the model is told why', async (t) => {
  await withExecutor(async (supervisor) => {
    const result = await client(supervisor, TOOL_EXECUTOR).request(run(tempDir(), 'bash', { command: 'npm install left-pad' }));
    t.is(result.status, 'declined');
    t.is(result.summary, 'declined: it needs approval (npm install installs or removes packages) and no one is there to approve it');
  });
});
