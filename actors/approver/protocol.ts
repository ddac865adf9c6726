import { actorAddress, type Protocol } from '../../runtime/actor.js';

// The approver's contract: the tool executor (and the MCP hub) ask it when an action needs a
// person's yes. It runs in the main thread; the CLI gives it the asking (the terminal's prompt, an
// editor's permission request, or headless's decline).

/** Sent by the executor to the approver when an action needs a person's yes. */
export interface ApprovalRequest {
  type: 'approve';
  /** The tool's name (a built-in or an MCP tool). */
  tool: string;
  /** Why it asks, one line, e.g. "rm -rf deletes files recursively" or "writes outside the project". */
  reason: string;
  /** Exactly what will run or change: the command, or the path plus a diff. */
  command?: string;
  path?: string;
  /** The web domain a fetch reads from: an `always` answer covers every page of it for the session. */
  domain?: string;
  diff?: string;
  /** The permission rules an "Always" answer writes to the settings file the person picks. */
  rules?: string[];
  /**
   * Set when the asker keeps an approval itself beyond the session, e.g. "for this project" (a
   * project's MCP server): the person is offered approve or decline, not a session-long `always`.
   */
  remembered?: string;
  /**
   * Asked every time (a PreToolUse hook wants a person's yes for this call): no "Always" is
   * offered, and no answer remembered for the session stands in for the question.
   */
  everyTime?: true;
}

export interface ApprovalReply {
  decision: 'approve' | 'decline' | 'always';
  /** Where an "Always" writes the request's rules: the project's local settings or the user's. */
  scope?: 'local' | 'user';
  /** Declined because nobody can answer (headless), not by a person. */
  unattended?: true;
  /** Shown to the model when declined, e.g. "declined: reika runs headless". */
  note?: string;
}

export interface ApproverProtocol extends Protocol<ApprovalRequest> {
  replies: { approve: ApprovalReply };
}

/** The address the executor asks for approval; `cli/start-runtime.ts` registers the actor (`actor.ts`) under it. */
export const APPROVER = actorAddress<ApproverProtocol>('approver');

