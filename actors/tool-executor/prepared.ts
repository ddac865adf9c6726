import type { Checkpoint } from './safety/checkpoint-store.js';
import type { ToolOutcome } from './tools/tool-env.js';

/**
 * A validated call ready to run. Tools that change things describe the action first, so the
 * wrapper can ask for approval with exactly what will happen before anything happens.
 */
export interface PreparedCall {
  /** Present for edit, write and bash: what an approver is shown. */
  action?: {
    tool: string;
    command?: string;
    path?: string;
    /** A web domain the action reads from (fetch): approval and an `always` answer cover the domain. */
    domain?: string;
    /** false: the action changes no file (a fetch), so no checkpoint is taken before it. */
    changesFiles?: false;
    diff?: string;
    /** Why safe mode must ask (dangerous command, write outside the project); empty = no need. */
    reasons: string[];
  };
  /** Runs the call; `grant` says whether a person approved the action (bash lets such a command use the network). */
  run(grant?: RunGrant): Promise<ToolOutcome>;
}

export interface RunGrant {
  /** A person said yes to this very action, or approvals are bypassed on purpose. */
  approved: boolean;
  /** The checkpoint taken just before (bash reports the files it changed against it). */
  checkpoint?: { store: { changedSince(checkpoint: Checkpoint): Promise<string[]> }; checkpoint: Checkpoint };
}
