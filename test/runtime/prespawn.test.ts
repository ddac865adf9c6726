import test from 'ava';
import { discardPrespawned, prespawnThread } from '../../runtime/prespawn.js';
import { client, Supervisor } from '../../runtime/index.js';
import { testActor } from '../fixtures/test-actor.js';

const actorModule = new URL('../fixtures/test-actor.js', import.meta.url);

test.after.always(() => discardPrespawned());

test('spawning an actor adopts the thread started for it beforehand; a restart starts a fresh one', async (t) => {
  const early = prespawnThread('early', actorModule);
  t.is(prespawnThread('early', actorModule), early, 'started once');
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: 'early', kind: 'thread', module: actorModule });
    const actor = client(supervisor, testActor('early'));
    // What the thread said before it was adopted (its 'ready') reached the supervisor.
    t.is(await actor.request({ type: 'thread' }), early);
    t.is(await actor.request({ type: 'echo', value: 'hi' }), 'hi');
    await t.throwsAsync(actor.request({ type: 'crash' }));
    const restarted = await actor.request({ type: 'thread' });
    t.not(restarted, early);
  } finally {
    await supervisor.close();
  }
});

test('a thread started for another module or name is not adopted', async (t) => {
  const other = prespawnThread('someone-else', actorModule);
  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: 'mine', kind: 'thread', module: actorModule });
    t.not(await client(supervisor, testActor('mine')).request({ type: 'thread' }), other);
  } finally {
    await supervisor.close();
  }
});

test('a thread that ends before it is adopted is seen to end by its owner', async (t) => {
  prespawnThread('dies-early', new URL('../fixtures/no-such-actor.js', import.meta.url));
  const supervisor = new Supervisor();
  try {
    const error = await t.throwsAsync(supervisor.spawn({ name: 'dies-early', kind: 'thread', module: new URL('../fixtures/no-such-actor.js', import.meta.url), restart: false }));
    t.truthy(error);
  } finally {
    await supervisor.close();
  }
});
