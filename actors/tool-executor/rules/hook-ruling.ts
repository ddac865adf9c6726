import type { ToolContext } from '../protocol.js';
import type { RuleMatch } from './permission-rules.js';

// A PreToolUse hook's answer weighed with the permission rules (SPEC §17). The hook has run before
// the call reached the executor (a hook's deny never gets here: the call was not sent); its allow
// or ask travels in the call's context and is decided here as a rule of that effect would be.

/** The name a hook's answer goes by where a rule's would (the approval question, a decline). */
export const HOOK_RULE = 'PreToolUse hook';

/**
 * What decides a call, strongest first: a deny rule, a hook's ask, an ask rule, an allow rule, a
 * hook's allow; undefined leaves it to the approvals mode. A hook may make a person confirm what
 * an allow rule or the mode would run, but not run what a deny or ask rule holds back.
 */
export function withHookAnswer(rule: RuleMatch | undefined, context: Pick<ToolContext, 'hookApproved' | 'hookAsked'>): RuleMatch | undefined {
  if (rule?.effect === 'deny') return rule;
  if (context.hookAsked !== undefined) return hookRule('ask', context.hookAsked);
  return rule ?? (context.hookApproved !== undefined ? hookRule('allow', context.hookApproved) : undefined);
}

/** True when the hook, not a rule of the settings, decided. */
export function isHookRule(rule: Pick<RuleMatch, 'rule'>): boolean {
  return rule.rule === HOOK_RULE;
}

/** The hook's reason stands where a rule's file would. */
function hookRule(effect: 'allow' | 'ask', reason: string): RuleMatch {
  return { effect, rule: HOOK_RULE, source: { scope: 'user', file: reason } };
}
