import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import { approvalKey } from '../tui/approval-prompt.js';

// Approvals in an editor (ACP `session/request_permission`): the executor's question becomes the
// editor's four choices, and its answer an {@link ApprovalReply}. "Always allow" writes the rules
// the question names (SPEC §17) to the project's `.reika/settings.local.json` as allow rules, in
// force at once; "Always reject" writes the question's rule there as a deny rule — only when it
// names one rule: a compound line's several rules name its harmless commands too, which a deny
// would refuse from then on. A question without a rule to write, or a rule that cannot be
// written, is remembered for the session instead, keyed as the terminal keys it (the exact
// command, or tool + path): the next such call is answered without asking.

export const OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject', kind: 'reject_always' },
];

/** A question whose asker remembers the answer itself (a project's MCP server), or asked every time, offers once-only choices. */
const ONCE_ONLY = OPTIONS.filter((option) => option.kind === 'allow_once' || option.kind === 'reject_once');

/** Sends one permission request to the editor (the ACP connection, for this session). */
export type AskEditor = (request: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;

export class EditorApprovals {
  private readonly remembered = new Map<string, 'approve' | 'decline'>();

  constructor(
    private readonly sessionId: string,
    private readonly ask: AskEditor,
    /** Writes allow or deny rules to the project's local settings; returns the line to log, throws one line. */
    private readonly writeRules?: (effect: 'allow' | 'deny', rules: readonly string[]) => string,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /**
   * Answers one approval request: from memory, or by asking the editor. `call` is the tool call
   * waiting for it (the editor shows the question beside it); nobody answering keeps the call
   * waiting, and the turn's abort ends the wait.
   */
  async approve(request: ApprovalRequest, call: ToolCallUpdate, signal: AbortSignal): Promise<ApprovalReply> {
    const key = approvalKey(request);
    const known = request.everyTime ? undefined : this.remembered.get(key);
    if (known === 'approve') return { decision: 'approve', note: 'allowed for this session' };
    if (known === 'decline') return { decision: 'decline', note: `the user rejected this for the session (${request.reason})` };
    if (signal.aborted) return { decision: 'decline', note: 'the turn was cancelled' };
    const options = request.remembered === undefined && !request.everyTime ? OPTIONS : ONCE_ONLY;
    const response = await this.ask({ sessionId: this.sessionId, toolCall: { ...call, content: [{ type: 'content', content: { type: 'text', text: describeRequest(request) } }] }, options: [...options] }, signal);
    const outcome = response.outcome;
    if (outcome.outcome === 'cancelled') return { decision: 'decline', note: 'the turn was cancelled' };
    switch (outcome.optionId) {
      case 'allow_once':
        return { decision: 'approve' };
      case 'allow_always':
        this.remembered.set(key, 'approve');
        if (request.rules?.length) this.write('allow', request.rules);
        return { decision: 'always' };
      case 'reject_always': {
        this.remembered.set(key, 'decline');
        const written = request.rules?.length === 1 && this.write('deny', request.rules);
        return { decision: 'decline', note: `the user rejected this and asked not to be asked again ${written ? `(a deny rule: ${request.rules![0]})` : 'this session'} (${request.reason})` };
      }
      default:
        return { decision: 'decline', note: `the user rejected it (${request.reason})` };
    }
  }

  /** Writes `rules` with `effect`; true when written (a failure is logged and the answer lasts the session). */
  private write(effect: 'allow' | 'deny', rules: readonly string[]): boolean {
    if (!this.writeRules) return false;
    try {
      this.log(`always: ${this.writeRules(effect, rules)}`);
      return true;
    } catch (error) {
      this.log(`${effect === 'allow' ? 'allowed' : 'rejected'} for this session; the rule was not written: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}

/** What the editor shows with the question: why it asks, then exactly what will run or change. */
export function describeRequest(request: ApprovalRequest): string {
  const lines = [`${request.tool} needs approval: ${request.reason}`];
  if (request.command !== undefined) lines.push('', '```sh', request.command, '```');
  else if (request.path !== undefined) lines.push('', request.path);
  if (request.diff !== undefined) lines.push('', '```diff', request.diff.replace(/\n$/, ''), '```');
  return lines.join('\n');
}
