import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';

/** The note the model gets when headless reika declines an action that needs approval. */
export const HEADLESS_DECLINE_NOTE =
  'declined: reika runs headless, so nobody can approve this action. Do not retry it; find a way that needs no approval, or finish and tell the user what to run.';

/** Headless: everything that would ask a person is declined, and the model is told why. */
export function declineHeadless(_request: ApprovalRequest): ApprovalReply {
  return { decision: 'decline', note: HEADLESS_DECLINE_NOTE, unattended: true };
}
