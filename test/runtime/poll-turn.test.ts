import test from 'ava';
import { MessageChannel } from 'node:worker_threads';
import { pollTurn } from '../../runtime/poll-turn.js';

// Facts, not timings: what was sent before the call has been handled once it resolves; a chain of
// settled promises alone never lets the event loop poll (the control in each test).

test('a signal sent before pollTurn has been handled by its listener when pollTurn resolves', async (t) => {
  let seen = 0;
  const listener = () => seen++;
  process.on('SIGUSR2', listener);
  t.teardown(() => process.off('SIGUSR2', listener));
  process.kill(process.pid, 'SIGUSR2');
  await Promise.resolve();
  t.is(seen, 0, 'settled promises alone do not reach the poll phase');
  await pollTurn();
  t.is(seen, 1);
});

test('a message posted to this thread before pollTurn has been handled when it resolves (an abort from the supervisor)', async (t) => {
  const { port1, port2 } = new MessageChannel();
  t.teardown(() => port1.close());
  const seen: unknown[] = [];
  port2.on('message', (message) => seen.push(message));
  port1.postMessage({ type: 'abort', scope: 'turn-1' });
  await Promise.resolve();
  t.deepEqual(seen, []);
  await pollTurn();
  t.deepEqual(seen, [{ type: 'abort', scope: 'turn-1' }]);
});
