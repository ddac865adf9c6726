import type { ToolCall } from '../model-io/protocol.js';
import type { ToolResult } from '../tool-executor/protocol.js';

/**
 * A tool call's life: `pending → running ⇄ awaiting-approval → done | error | cancelled`.
 * Every change goes through {@link transition}; an impossible change is a bug and throws.
 * A declined action ends `error` (its result's status says `declined`).
 */
export type ToolCallState =
  | { status: 'pending'; call: ToolCall }
  | { status: 'running'; call: ToolCall }
  | { status: 'awaiting-approval'; call: ToolCall }
  | { status: 'done'; call: ToolCall; result: ToolResult }
  | { status: 'error'; call: ToolCall; result: ToolResult }
  | { status: 'cancelled'; call: ToolCall; result: ToolResult };

export type ToolCallStatus = ToolCallState['status'];

/** What can happen to a call. */
export type ToolCallChange =
  | { type: 'start' }
  | { type: 'ask-approval' }
  | { type: 'approval-answered' }
  /** The executor's result (or one made for a call that never ran). */
  | { type: 'finish'; result: ToolResult };

const FINAL: readonly ToolCallStatus[] = ['done', 'error', 'cancelled'];

export function isFinal(state: ToolCallState): state is Extract<ToolCallState, { result: ToolResult }> {
  return FINAL.includes(state.status);
}

export function pendingCall(call: ToolCall): ToolCallState {
  return { status: 'pending', call };
}

/** The one place where a call's state changes. */
export function transition(state: ToolCallState, change: ToolCallChange): ToolCallState {
  const { call } = state;
  switch (change.type) {
    case 'start':
      if (state.status === 'pending') return { status: 'running', call };
      break;
    case 'ask-approval':
      if (state.status === 'running') return { status: 'awaiting-approval', call };
      break;
    case 'approval-answered':
      if (state.status === 'awaiting-approval') return { status: 'running', call };
      break;
    case 'finish':
      if (!isFinal(state)) return { status: finalStatus(change.result), call, result: change.result };
      break;
  }
  throw new Error(`tool call ${call.id}: cannot ${change.type} when ${state.status}`);
}

function finalStatus(result: ToolResult): 'done' | 'error' | 'cancelled' {
  if (result.status === 'done') return 'done';
  if (result.status === 'cancelled') return 'cancelled';
  return 'error';
}
