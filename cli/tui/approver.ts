import { defineActor, type ActorDefinition } from '../../runtime/actor.js';
import type { ApprovalReply, ApprovalRequest, ApproverProtocol } from '../../actors/tool-executor/protocol.js';
import { approvalKey } from './approval-prompt.js';

/** Asks the person at the terminal; resolves with their answer, or `decline` when `signal` aborts. */
export type AskPerson = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply>;

/**
 * The interactive `APPROVER` actor (runs in the main thread, registered by the interactive
 * command). The tool-executor asks it when an action needs a person's yes; an `always` answer is
 * remembered for the rest of the session, keyed by the exact command (or tool + path), and
 * answered without asking next time.
 */
export function interactiveApprover(ask: AskPerson): { definition: ActorDefinition<ApproverProtocol>; forget(): void; remembered(): number } {
  const always = new Set<string>();
  const definition = defineActor<ApproverProtocol>({
    async handle(request, context) {
      const key = approvalKey(request);
      if (always.has(key)) return { decision: 'approve', note: 'approved for this session' };
      if (context.signal.aborted) return { decision: 'decline', note: 'the turn was interrupted' };
      const reply = await ask(request, context.signal);
      if (reply.decision === 'always') always.add(key);
      return reply;
    },
  });
  return { definition, forget: () => always.clear(), remembered: () => always.size };
}
