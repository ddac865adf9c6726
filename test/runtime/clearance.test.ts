import test from 'ava';
import { client, Supervisor, type ReikaError } from '../../runtime/index.js';
import { CLEARANCE, clearance } from '../../runtime/clearance.js';

async function withClearance(t: { teardown(fn: () => Promise<void>): void }) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  await supervisor.register(CLEARANCE, clearance);
  return { supervisor, clear: (scope: string) => client(supervisor, CLEARANCE).request({ type: 'clear' }, { scope }) };
}

test('the clearance is given when the scope is live', async (t) => {
  const { clear } = await withClearance(t);
  t.true(await clear('session-1'));
});

test('a signal that came before the clearance was answered (its listener aborts the scope) refuses it', async (t) => {
  const { supervisor, clear } = await withClearance(t);
  const onSignal = () => supervisor.abort('session-1', 'interrupted by SIGUSR2');
  process.on('SIGUSR2', onSignal);
  t.teardown(() => process.off('SIGUSR2', onSignal));
  const asked = clear('session-1');
  // Sent while the request is on its way: the main thread has not polled for it yet.
  process.kill(process.pid, 'SIGUSR2');
  const error = (await t.throwsAsync(asked)) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CANCELLED');
});

test('a scope aborted before is refused at once', async (t) => {
  const { supervisor, clear } = await withClearance(t);
  supervisor.abort('session-1');
  const error = (await t.throwsAsync(clear('session-1'))) as ReikaError;
  t.is(error.code, 'REIKA_ERR_CANCELLED');
  t.true(await clear('session-2'), 'another scope is cleared');
});
