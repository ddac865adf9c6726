import type { ToolOutcome } from './tool-env.js';

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
    diff?: string;
    /** Why safe mode must ask (dangerous command, write outside the project); empty = no need. */
    reasons: string[];
  };
  run(): Promise<ToolOutcome>;
}
