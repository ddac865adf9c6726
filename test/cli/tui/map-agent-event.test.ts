import test from 'ava';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { pendingCall, transition, type ToolCallChange, type ToolCallState } from '../../../actors/agent/tool-call-state.js';
import type { ToolCall } from '../../../actors/model-io/protocol.js';
import { uiEventsOf } from '../../../cli/tui/map-agent-event.js';

const call: ToolCall = { id: 'call_0', name: 'bash', arguments: { command: 'ls' }, source: 'native' };
const result = { callId: 'call_0', name: 'bash', status: 'done' as const, summary: 'ran ls', payload: 'a\nb' };

/** The events a call's life emits, as turn.ts emits them. */
function life(changes: ToolCallChange[]): AgentEvent[] {
  let state: ToolCallState = pendingCall(call);
  const events: AgentEvent[] = [{ type: 'tool-call', turn: 't', state }];
  for (const change of changes) {
    const previous = state.status;
    state = transition(state, change);
    events.push({ type: 'tool-call', turn: 't', state, previous });
  }
  return events;
}

test('a call that waits for an approval starts once and ends once', (t) => {
  const ui = life([{ type: 'start' }, { type: 'ask-approval' }, { type: 'approval-answered' }, { type: 'finish', result }]).flatMap(uiEventsOf);
  t.deepEqual(ui, [
    { type: 'tool-start', id: 'call_0', name: 'bash', args: { command: 'ls' } },
    { type: 'tool-end', id: 'call_0', name: 'bash', status: 'done', summary: 'ran ls', meta: undefined },
  ]);
});

test('a call that never ran (the turn was aborted) still starts and ends, so the UI shows it', (t) => {
  const cancelled = { ...result, status: 'cancelled' as const, summary: 'not run: the turn was aborted', payload: '' };
  t.deepEqual(life([{ type: 'finish', result: cancelled }]).flatMap(uiEventsOf).map((event) => event.type), ['tool-start', 'tool-end']);
});

test('a server that reuses a call id in the next request gets a second start and end', (t) => {
  const twice = [...life([{ type: 'start' }, { type: 'finish', result }]), ...life([{ type: 'start' }, { type: 'finish', result }])];
  t.deepEqual(twice.flatMap(uiEventsOf).map((event) => event.type), ['tool-start', 'tool-end', 'tool-start', 'tool-end']);
});

test('events the status line reads from the session figures draw nothing', (t) => {
  t.deepEqual(uiEventsOf({ type: 'request', turn: 't', n: 1, estimateTokens: 10 }), []);
  t.deepEqual(uiEventsOf({ type: 'usage', turn: 't', n: 1, usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0 } }), [{ type: 'usage', usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0 } }]);
});
