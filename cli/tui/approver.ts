import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import { approvalKey } from './approval-prompt.js';

/** Asks the person at the terminal; resolves with their answer (the caller handles `signal`). */
export type AskPerson = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply>;

/**
 * The interactive approver: what the actor registered as `APPROVER` runs in interactive mode
 * (`startRuntime({ approve })` wraps it). An `always` answer is remembered for the session, keyed
 * by the exact command (or tool + path + rule), and answered without asking next time.
 */
export class SessionApprovals {
  private readonly always = new Set<string>();

  constructor(private readonly ask: AskPerson) {}

  readonly approve = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply> => {
    const key = approvalKey(request);
    if (!request.everyTime && this.always.has(key)) return { decision: 'approve', note: 'approved for this session' };
    if (signal.aborted) return { decision: 'decline', note: 'the turn was interrupted' };
    const reply = await this.ask(request, signal);
    if (reply.decision === 'always') this.always.add(key);
    return reply;
  };

  /** Forgets every `always` (a new folder starts over). */
  forget(): void {
    this.always.clear();
  }

  get remembered(): number {
    return this.always.size;
  }
}
