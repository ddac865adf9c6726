import { defineActor, type ActorDefinition } from '../../runtime/actor.js';
import type { ApprovalReply, ApprovalRequest, ApproverProtocol } from './protocol.js';

/** Who answers: the terminal's prompt, the editor's permission request, or headless's decline. */
export type ApproveFn = (request: ApprovalRequest, signal: AbortSignal) => ApprovalReply | Promise<ApprovalReply>;

/** Where the approver is: asked (a tool call waits on a person) or answered. */
export type ApprovalPhase = 'ask' | 'answered';

/**
 * The approver actor: hands each request to `approve` with the request's signal (an aborted turn
 * takes its question away) and tells `onPhase` when it is asked and when it answered.
 */
export function approverActor(approve: ApproveFn, onPhase: (phase: ApprovalPhase) => void = () => {}): ActorDefinition<ApproverProtocol> {
  return defineActor<ApproverProtocol>({
    async handle(request, context) {
      onPhase('ask');
      try {
        return await approve(request, context.signal);
      } finally {
        onPhase('answered');
      }
    },
  });
}
