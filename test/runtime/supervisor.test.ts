import test from 'ava';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { ABORT_GRACE_MS, client, ReikaError, Supervisor, type ActorExitEvent, type Client, type Envelope, type SupervisorOptions } from '../../runtime/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { testActor, type TestProtocol, type TestRequest } from '../fixtures/test-actor.js';

const actorModule = new URL('../fixtures/test-actor.js', import.meta.url);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The test actor spawned under `name`, as a typed client. */
const to = (supervisor: Supervisor, name: string): Client<TestProtocol> => client(supervisor, testActor(name));

async function withSupervisor(run: (supervisor: Supervisor) => Promise<void>, options?: SupervisorOptions | ManualClock): Promise<void> {
  const supervisor = new Supervisor(options instanceof ManualClock ? { clock: options } : options);
  try {
    await run(supervisor);
  } finally {
    await supervisor.close();
  }
}

test('a thread actor and a process actor reach each other by name', async (t) => {
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'thread', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule });
    const viaProcess = await to(supervisor, 'proc').request({ type: 'forward', to: 'thread', body: { type: 'echo', value: { n: 1, s: 'é' } } });
    t.deepEqual(viaProcess, { via: 'supervisor', reply: { n: 1, s: 'é' } });
    const viaThread = await to(supervisor, 'thread').request({ type: 'forward', to: 'proc', body: { type: 'pid' } });
    t.is(viaThread.reply, supervisor.pidOf('proc')!);
  });
});

test('a request streams its deltas before the final reply, on both transports', async (t) => {
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'thread', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule });
    for (const name of ['thread', 'proc']) {
      const deltas: number[] = [];
      const reply = await to(supervisor, name).request({ type: 'count', n: 50 }, { onDelta: (d) => deltas.push(d) });
      t.is(reply, 50);
      t.deepEqual(deltas, Array.from({ length: 50 }, (_, i) => i + 1));
    }
  });
});

test('a handler error reaches the caller as a typed error', async (t) => {
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule });
    const error = await t.throwsAsync(to(supervisor, 'proc').request({ type: 'throw', message: 'boom' }));
    t.true(ReikaError.isInstance(error));
    t.is((error as ReikaError).message, 'boom');
    const missing = await t.throwsAsync(to(supervisor, 'nobody').request({ type: 'echo', value: 1 }));
    t.is((missing as ReikaError).code, 'REIKA_ERR_NO_SUCH_ACTOR');
  });
});

test('a request sent right after an actor said it is leaving goes to its next incarnation, once', async (t) => {
  // Found by the issue 21 soak: an MCP server that crashed failed the call it held, and the call
  // the model made at once after reading that failure reached the actor on its way out, failing too.
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule });
    const firstPid = supervisor.pidOf('proc')!;
    const next = to(supervisor, 'proc')
      .request({ type: 'leave' })
      .catch((error: Error) => ({ failed: error.message, then: to(supervisor, 'proc').request({ type: 'pid' }) }));
    const { failed, then } = (await next) as { failed: string; then: Promise<number> };
    t.is(failed, 'what this actor fronts is gone');
    const pid = await then;
    t.not(pid, firstPid, 'answered by the next incarnation');
    t.is(supervisor.pidOf('proc'), pid);
  });
});

test('a process actor killed with SIGKILL mid-request fails the request fast and is restarted', async (t) => {
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule });
    const firstPid = supervisor.pidOf('proc')!;
    const pending = to(supervisor, 'proc').request({ type: 'wait' });
    // The request is in flight once the actor has answered a later one (same pipe, in order).
    await to(supervisor, 'proc').request({ type: 'echo', value: 1 });
    process.kill(firstPid, 'SIGKILL');
    const error = (await t.throwsAsync(pending)) as ReikaError;
    t.is(error.code, 'REIKA_ERR_ACTOR_CRASHED');
    t.true(error.retryable);
    t.regex(error.message, /SIGKILL/);
    t.is(await to(supervisor, 'proc').request({ type: 'echo', value: 'again' }), 'again');
    t.not(supervisor.pidOf('proc'), firstPid);
  });
});

test('a thread actor that exits mid-request fails the request and comes back', async (t) => {
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'thread', kind: 'thread', module: actorModule });
    const error = (await t.throwsAsync(to(supervisor, 'thread').request({ type: 'crash' }))) as ReikaError;
    t.is(error.code, 'REIKA_ERR_ACTOR_CRASHED');
    t.is(await to(supervisor, 'thread').request({ type: 'echo', value: 2 }), 2);
  });
});

test('a crash loop stops the restarts and says so', async (t) => {
  // The clock stands still: however slowly the machine restarts it, all deaths fall in the window.
  await withSupervisor(async (supervisor) => {
    const exits: ActorExitEvent[] = [];
    supervisor.on('exit', (event: ActorExitEvent) => exits.push(event));
    const loop = once(supervisor, 'crash-loop');
    supervisor.spawn({ name: 'doomed', kind: 'process', module: actorModule, options: { crashOnStart: true } }).catch(() => {});
    const [name, message] = (await loop) as [string, string];
    t.is(name, 'doomed');
    t.regex(message, /crashed 5 times/);
    t.is(exits.length, 5);
    t.is(exits.at(-1)!.next, 'crash-loop');
    const error = (await t.throwsAsync(to(supervisor, 'doomed').request({ type: 'echo', value: 1 }))) as ReikaError;
    t.is(error.code, 'REIKA_ERR_ACTOR_FAILED');
  }, new ManualClock());
});

test('deaths spread wider than the crash-loop window never stop the restarts', async (t) => {
  const clock = new ManualClock();
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'thread', kind: 'thread', module: actorModule });
    const exits: ActorExitEvent[] = [];
    supervisor.on('exit', (event: ActorExitEvent) => exits.push(event));
    for (let i = 0; i < 7; i++) {
      await t.throwsAsync(to(supervisor, 'thread').request({ type: 'crash' }));
      clock.advance(3_000);
    }
    t.deepEqual(exits.map((e) => e.next), Array(7).fill('restart'), 'never 5 deaths within 10 s');
    t.is(await to(supervisor, 'thread').request({ type: 'echo', value: 'alive' }), 'alive');
  }, clock);
});

/** Records the abort and cancel messages the supervisor delivers, by actor. */
function stops() {
  const seen: string[] = [];
  const onDeliver = (to: string, message: Envelope) => {
    if (message.type === 'abort' || message.type === 'cancel') seen.push(`${message.type} → ${to}`);
  };
  return { seen, onDeliver };
}

test('one abort reaches a grandchild actor and its work ends cancelled, as data', async (t) => {
  const delivered = stops();
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'child', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'grandchild', kind: 'process', module: actorModule });
    await supervisor.spawn({ name: 'great-grandchild', kind: 'thread', module: actorModule });
    const body: TestRequest = {
      type: 'forward',
      to: 'grandchild',
      body: { type: 'forward', to: 'great-grandchild', body: { type: 'wait' } },
    };
    const turn = to(supervisor, 'child').request(body, { scope: 'turn-1' });
    // Each actor handles messages in order, so once probes sent after the turn came back through
    // every hop, the innermost request is being handled.
    await to(supervisor, 'child').request({ type: 'forward', to: 'grandchild', body: { type: 'forward', to: 'great-grandchild', body: { type: 'echo', value: 'probe' } } });
    supervisor.abort('turn-1', 'user pressed Esc');
    const reply = await turn;
    // The great-grandchild's handler saw the abort and answered with data that travelled back up.
    t.deepEqual(reply, { via: 'supervisor', reply: { via: 'child', reply: { status: 'cancelled', reason: 'user pressed Esc' } } });
    const late = (await t.throwsAsync(to(supervisor, 'child').request({ type: 'echo', value: 1 }, { scope: 'turn-1' }))) as ReikaError;
    t.is(late.code, 'REIKA_ERR_CANCELLED');
    supervisor.abort('turn-1', 'pressed again');
    t.deepEqual(delivered.seen.sort(), ['abort → child', 'abort → grandchild', 'abort → great-grandchild'], 'one abort per actor, no cancel on top');
  }, { onDeliver: delivered.onDeliver });
});

test('a request queued for an actor still starting is answered cancelled by its scope\'s abort and never runs', async (t) => {
  await withSupervisor(async (supervisor) => {
    const starting = supervisor.spawn({ name: 'thread', kind: 'thread', module: actorModule });
    // The echo would answer at once if it ran; queued, it is refused by the abort instead.
    const queued = to(supervisor, 'thread').request({ type: 'echo', value: 'late' }, { scope: 'session-1' });
    supervisor.abort('session-1', 'interrupted');
    const error = (await t.throwsAsync(queued)) as ReikaError;
    t.is(error.code, 'REIKA_ERR_CANCELLED');
    await starting;
    t.is(await to(supervisor, 'thread').request({ type: 'echo', value: 'other' }, { scope: 'session-2' }), 'other');
  }, new ManualClock());
});

test('a request timeout fails the call and cancels the work at the callee, and the work the callee started', async (t) => {
  const delivered = stops();
  let innerEnded!: (body: unknown) => void;
  const inner = new Promise<unknown>((resolve) => (innerEnded = resolve));
  const onDeliver = (name: string, message: Envelope) => {
    delivered.onDeliver(name, message);
    // The grandchild's own reply to the child: its work ended (as data) after the cancel.
    if (name === 'child' && message.type === 'end') innerEnded(message.body);
  };
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'child', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'grandchild', kind: 'process', module: actorModule });
    const error = (await t.throwsAsync(to(supervisor, 'child').request({ type: 'forward', to: 'grandchild', body: { type: 'wait' } }, { timeoutMs: 50 }))) as ReikaError;
    t.is(error.code, 'REIKA_ERR_TIMEOUT');
    t.deepEqual(await inner, { status: 'cancelled', reason: 'cancelled by the caller' });
    t.deepEqual(delivered.seen, ['cancel → child', 'cancel → grandchild'], 'the timed-out request and the one it made');
    t.is(await to(supervisor, 'child').request({ type: 'echo', value: 'still here' }), 'still here');
  }, { onDeliver });
});

test('after an abort, a callee that never answers is given up on after the one grace, at every depth', async (t) => {
  const clock = new ManualClock();
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'child', kind: 'thread', module: actorModule });
    await supervisor.spawn({ name: 'deaf', kind: 'thread', module: actorModule });
    const turn = to(supervisor, 'child').request({ type: 'forward', to: 'deaf', body: { type: 'ignore' } }, { scope: 'turn-1' });
    await to(supervisor, 'child').request({ type: 'forward', to: 'deaf', body: { type: 'echo', value: 'probe' } });
    supervisor.abort('turn-1', 'Esc');
    clock.advance(ABORT_GRACE_MS - 1);
    const early = await Promise.race([turn.then(() => 'settled', () => 'settled'), to(supervisor, 'child').request({ type: 'echo', value: 'open' })]);
    t.is(early, 'open', 'within the grace the turn still waits for its callees');
    clock.advance(1);
    // Every request of the scope still open failed as cancelled: the turn's, and the child's own
    // request to the deaf actor (so the child is not left waiting either).
    const error = (await t.throwsAsync(turn)) as ReikaError;
    t.is(error.code, 'REIKA_ERR_CANCELLED');
  }, clock);
});

test('a hung actor misses its heartbeats, is killed and restarted, and its request fails', async (t) => {
  const clock = new ManualClock();
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'proc', kind: 'process', module: actorModule, heartbeatMs: 1_000, hangAfterMs: 15_000 });
    const firstPid = supervisor.pidOf('proc')!;
    // The hang is certain: the process is stopped and cannot answer anything.
    process.kill(firstPid, 'SIGSTOP');
    const pending = to(supervisor, 'proc').request({ type: 'echo', value: 'never' });
    clock.advance(15_000);
    t.true(alive(firstPid), 'one tick short of the limit it is still waited for');
    clock.advance(1_000);
    const error = (await t.throwsAsync(pending)) as ReikaError;
    t.is(error.code, 'REIKA_ERR_ACTOR_CRASHED');
    t.is(error.message, 'the proc actor stopped answering for 15.0 s and was restarted');
    t.is(await to(supervisor, 'proc').request({ type: 'echo', value: 'back' }), 'back');
    t.not(supervisor.pidOf('proc'), firstPid);
    t.false(alive(firstPid));
  }, clock);
});

test('a thread actor that blocks its event loop for good is killed by its heartbeat, and the error names it by its title', async (t) => {
  const clock = new ManualClock();
  await withSupervisor(async (supervisor) => {
    await supervisor.spawn({ name: 'thread', title: 'the thread that blocks', kind: 'thread', module: actorModule, heartbeatMs: 1_000, hangAfterMs: 3_000 });
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const pending = to(supervisor, 'thread').request({ type: 'hang' }, { onDelta: () => hung() });
    await hanging;
    clock.advance(4_000);
    const error = (await t.throwsAsync(pending)) as ReikaError;
    t.is(error.message, 'the thread that blocks stopped answering for 3.0 s and was restarted');
    t.is(await to(supervisor, 'thread').request({ type: 'echo', value: 'back' }), 'back');
  }, clock);
});

test('closing the supervisor leaves no thread or process behind', async (t) => {
  const supervisor = new Supervisor();
  const names = ['p1', 'p2', 'p3'];
  for (const name of names) await supervisor.spawn({ name, kind: 'process', module: actorModule });
  await supervisor.spawn({ name: 't1', kind: 'thread', module: actorModule });
  const pending = to(supervisor, 'p1').request({ type: 'wait' });
  const pids = names.map((name) => supervisor.pidOf(name)!);
  t.true(pids.every(alive));
  await supervisor.close();
  await t.throwsAsync(pending);
  t.false(pids.some(alive), 'every actor process has exited');
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0 && pids.includes(pid));
  t.deepEqual(children, []);
});
