import { cancelledError, isCancelled, ReikaError } from '../../runtime/errors.js';
import type { PreparedCall } from './prepared.js';
import type { ApprovalMode, ApprovalReply, ApprovalRequest } from './protocol.js';

/**
 * The approval decision for one prepared action (SPEC §4). `safe` asks only when the action has
 * reasons (dangerous command, write outside the project), `off` asks for every action, `bypass`
 * never asks. Asking is a request to the approver actor; "always" is remembered there, not here.
 */
export type Verdict = { approved: true } | { approved: false; note: string };

export type Ask = (request: ApprovalRequest) => Promise<ApprovalReply>;

export async function decide(action: NonNullable<PreparedCall['action']>, mode: ApprovalMode, ask: Ask, signal?: AbortSignal): Promise<Verdict> {
  if (mode === 'bypass') return { approved: true };
  if (mode === 'safe' && action.reasons.length === 0) return { approved: true };
  const reason = action.reasons.length > 0 ? action.reasons.join('; ') : `approvals are off: every ${action.tool} is confirmed`;
  const request: ApprovalRequest = {
    type: 'approve',
    tool: action.tool,
    reason,
    ...(action.command !== undefined ? { command: action.command } : {}),
    ...(action.path !== undefined ? { path: action.path } : {}),
    ...(action.diff !== undefined ? { diff: action.diff } : {}),
  };
  let reply: ApprovalReply;
  try {
    reply = await untilAborted(ask(request), signal);
  } catch (error) {
    if (isCancelled(error)) throw error;
    if (ReikaError.isInstance(error) && error.code === 'REIKA_ERR_NO_SUCH_ACTOR') {
      return { approved: false, note: `it needs approval (${reason}) and no one is there to approve it` };
    }
    return { approved: false, note: `asking for approval failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (reply.decision === 'approve' || reply.decision === 'always') return { approved: true };
  return { approved: false, note: reply.note?.trim() || `the user declined (${reason})` };
}

/** An abort ends the wait at once: the prompt may stay open, the call is cancelled now. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelledError('cancelled while waiting for approval'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError('cancelled while waiting for approval'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
