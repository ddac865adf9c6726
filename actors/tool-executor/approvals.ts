import { untilAborted } from '../../runtime/abort.js';
import { cancelledError, isCancelled, ReikaError } from '../../runtime/errors.js';
import type { ApprovalClass } from './tools/define-tool.js';
import type { PreparedCall } from './prepared.js';
import type { ApprovalMode } from './protocol.js';
import type { ApprovalReply, ApprovalRequest } from '../approver/protocol.js';
import type { RuleMatch } from './rules/permission-rules.js';
import { asksFirst, describeRule } from './rules/describe-rule.js';
import { isHookRule } from './rules/hook-ruling.js';

/**
 * The approval decision for one prepared action (SPEC §4, §17). A permission rule that names the
 * call comes first: deny declines (under bypass too), ask asks (whatever the mode), allow approves.
 * A PreToolUse hook's ask or allow arrives as such a rule (rules/hook-ruling.ts weighs them).
 * Without one, the mode decides: `bypass` never asks; `off` asks for every action; `safe` asks for a
 * tool of class `ask` always, for one of class `flagged` only when the action has reasons
 * (dangerous command, write outside the project), and never for `never`. Asking is a request to
 * the approver actor; "always" is remembered there (a session, or a rule it writes), not here.
 */
export type Verdict =
  | { approved: true; /** a person said yes */ asked?: boolean; /** the allow rule that approved it */ rule?: RuleMatch }
  | { approved: false; note: string; /** the deny rule that refused it */ rule?: RuleMatch; /** nobody could answer (headless) */ unattended?: true };

export type Ask = (request: ApprovalRequest) => Promise<ApprovalReply>;

export async function decide(
  action: NonNullable<PreparedCall['action']>,
  approval: ApprovalClass,
  mode: ApprovalMode,
  ask: Ask,
  signal?: AbortSignal,
  rules: { match?: RuleMatch | undefined; suggest?(): string[] } = {},
): Promise<Verdict> {
  const ruled = rules.match;
  if (ruled?.effect === 'deny') return { approved: false, note: `denied by the permission rule ${describeRule(ruled)}`, rule: ruled };
  if (ruled?.effect === 'allow') return { approved: true, rule: ruled };
  if (ruled?.effect !== 'ask') {
    // A tool that changes nothing asks only for what its guard flagged (a credential path).
    if (mode === 'bypass' || (approval === 'never' && action.reasons.length === 0)) return { approved: true };
    if (mode === 'safe' && approval === 'flagged' && action.reasons.length === 0) return { approved: true };
  }
  const hookAsks = ruled?.effect === 'ask' && isHookRule(ruled);
  const reason =
    ruled?.effect === 'ask'
      ? [asksFirst(ruled), ...action.reasons].join('; ')
      : action.reasons.length > 0
        ? action.reasons.join('; ')
        : mode === 'off'
          ? `approvals are off: every ${action.tool} is confirmed`
          : `${action.tool} asks before every use`;
  const request: ApprovalRequest = {
    type: 'approve',
    tool: action.tool,
    reason,
    ...(action.command !== undefined ? { command: action.command } : {}),
    ...(action.path !== undefined ? { path: action.path } : {}),
    ...(action.domain !== undefined ? { domain: action.domain } : {}),
    ...(action.diff !== undefined ? { diff: action.diff } : {}),
    ...(hookAsks ? { everyTime: true as const } : {}),
  };
  // A hook's ask is asked again next time whatever rule "Always" wrote: it offers none.
  const suggested = hookAsks ? [] : (rules.suggest?.() ?? []);
  if (suggested.length > 0) request.rules = suggested;
  let reply: ApprovalReply;
  try {
    // An abort ends the wait at once: the prompt may stay open, the call is cancelled now.
    const asked = ask(request);
    reply = await (signal ? untilAborted(asked, signal, () => cancelledError('cancelled while waiting for approval')) : asked);
  } catch (error) {
    if (isCancelled(error)) throw error;
    if (ReikaError.isInstance(error) && error.code === 'REIKA_ERR_NO_SUCH_ACTOR') {
      return { approved: false, note: `it needs approval (${reason}) and no one is there to approve it`, unattended: true };
    }
    return { approved: false, note: `asking for approval failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (reply.decision === 'approve' || reply.decision === 'always') return { approved: true, asked: true };
  return { approved: false, note: reply.note?.trim() || `the user declined (${reason})`, ...(reply.unattended ? { unattended: true as const } : {}) };
}
