import { nanoid } from 'nanoid';
import type { Ask } from '../../../actors/tool-executor/approvals.js';
import { ProcessGroups } from '../../../actors/tool-executor/process/process-groups.js';
import type { ApprovalMode, ToolDelta, ToolResult, ToolSettings } from '../../../actors/tool-executor/protocol.js';
import type { ApprovalRequest } from '../../../actors/approver/protocol.js';
import { runTool } from '../../../actors/tool-executor/run-tool.js';
import type { RuleData } from '../../../actors/tool-executor/rules/rule.js';
import { SpillStore } from '../../../actors/tool-executor/files/spill.js';
import { toolSettings } from '../../helpers/tool-settings.js';

/** Runs one tool call in this process through the same wrapper the actor uses. */
export interface CallOptions {
  approvals?: ApprovalMode;
  mode?: 'agent' | 'plan' | 'subagent';
  signal?: AbortSignal;
  /** Answers approval requests; by default every request is approved and recorded. */
  ask?: Ask;
  deltas?: ToolDelta[];
  onDelta?: (delta: ToolDelta) => void;
  /** The session's permission rules in force. */
  permissions?: RuleData[];
  /** The session's search endpoint (REIKA_SEARCH_URL). */
  searchUrl?: string;
  /** A PreToolUse hook approved the call (its reason). */
  hookApproved?: string;
  /** A PreToolUse hook asked for a person's yes (its reason). */
  hookAsked?: string;
}

export const spill = new SpillStore();
export const groups = new ProcessGroups();
process.on('exit', () => spill.dispose());

export interface Call extends ToolResult {
  asked: ApprovalRequest[];
}

export async function call(root: string, name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<Call> {
  const asked: ApprovalRequest[] = [];
  const ask: Ask = async (request) => {
    asked.push(request);
    return options.ask ? options.ask(request) : { decision: 'approve' };
  };
  const result = await runTool(
    { type: 'run', callId: `call_${nanoid(6)}`, name, args, context: { root, approvals: options.approvals ?? 'safe', mode: options.mode ?? 'agent', settings: settingsFor(root, options), ...(options.permissions ? { permissions: options.permissions } : {}), ...(options.hookApproved !== undefined ? { hookApproved: options.hookApproved } : {}), ...(options.hookAsked !== undefined ? { hookAsked: options.hookAsked } : {}) } },
    {
      root,
      settings: settingsFor(root, options),
      signal: options.signal ?? new AbortController().signal,
      emit: (delta) => {
        options.deltas?.push(delta);
        options.onDelta?.(delta);
      },
      spill,
      groups,
    },
    ask,
  );
  return { ...result, asked };
}

function settingsFor(root: string, options: CallOptions): ToolSettings {
  const settings = toolSettings(root);
  return options.searchUrl ? { ...settings, searchUrl: options.searchUrl } : settings;
}
