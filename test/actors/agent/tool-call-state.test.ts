import test from 'ava';
import { pendingCall, transition } from '../../../actors/agent/tool-call-state.js';
import type { ToolCall } from '../../../actors/model-io/protocol.js';

const call: ToolCall = { id: 'c', name: 'read', arguments: { path: 'a' }, source: 'native' };
const result = (status: 'done' | 'error' | 'declined' | 'cancelled') => ({ callId: 'c', name: 'read', status, summary: 's', payload: '' });

test('a call goes pending, running, awaiting approval, running, done', (t) => {
  let state = pendingCall(call);
  state = transition(state, { type: 'start' });
  state = transition(state, { type: 'ask-approval' });
  t.is(state.status, 'awaiting-approval');
  state = transition(state, { type: 'approval-answered' });
  state = transition(state, { type: 'finish', result: result('done') });
  t.is(state.status, 'done');
});

test('declined ends as error and cancelled as cancelled, even before it ran', (t) => {
  t.is(transition(transition(pendingCall(call), { type: 'start' }), { type: 'finish', result: result('declined') }).status, 'error');
  t.is(transition(pendingCall(call), { type: 'finish', result: result('cancelled') }).status, 'cancelled');
});

test('impossible transitions throw', (t) => {
  t.throws(() => transition(pendingCall(call), { type: 'ask-approval' }));
  const finished = transition(pendingCall(call), { type: 'finish', result: result('done') });
  t.throws(() => transition(finished, { type: 'finish', result: result('done') }));
  t.throws(() => transition(finished, { type: 'start' }));
});
