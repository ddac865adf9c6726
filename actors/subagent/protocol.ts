import { actorAddress, type ActorAddress, type Protocol } from '../../runtime/actor.js';
import type { RuleData } from '../tool-executor/rules/rule.js';
import type { HookEntry } from '../hooks/hook-config.js';
import type { TurnStatus, UsageTotals } from '../agent/events.js';
import type { Endpoint, ToolSchema } from '../model-io/protocol.js';
import type { ApprovalMode, ToolDelta, ToolResult, ToolSettings } from '../tool-executor/protocol.js';

// The subagents' contract. Two actors: the dispatcher (`subagents`, main thread), which the
// agent loop asks once per `subagent` call, and one worker-thread actor `subagent/N` per call,
// which the dispatcher spawns, asks once and stops. Both stream progress lines as tool output.

/** What a subagent needs from the session: frozen facts, so every subagent's prefix is the same. */
export interface SubagentBrief {
  /** Absolute project root. */
  root: string;
  /** The session's system prompt built in `subagent` mode (frozen with the bootstrap). */
  system: string;
  /** The session's tools array in `subagent` mode (its registry owns it, as the session's prefix). */
  tools: ToolSchema[];
  /** The subagent's own endpoint (REIKA_SUBAGENT_*) or the session's. The model may be '' (discovered). */
  endpoint: Endpoint;
  /** Context window when known. */
  window?: number;
  /** Ask the server for the model and window first (an endpoint of its own, not fully configured). */
  discover: boolean;
  maxTokens?: number;
  /** REIKA_SUBAGENT_MAX_TURNS: chat requests per subagent, the last one forced to report. */
  maxTurns: number;
  approvals: ApprovalMode;
  /** The session's settings for the tools the subagent calls. */
  toolSettings: ToolSettings;
  /** The session's permission rules in force (a subagent's calls are judged by them too). */
  permissions?: RuleData[];
  /** The session's hooks in force: tool hooks run for a subagent's calls too, SubagentStop when it has answered. */
  hooks?: { entries: HookEntry[]; sessionId: string; transcriptPath?: string };
}

/** To the dispatcher: run one `subagent` call (already checked by the wave). */
export interface DispatchRequest {
  type: 'run';
  callId: string;
  task: string;
  files: string[];
  brief: SubagentBrief;
}

/** To a `subagent/N` actor: the same, with the endpoint settled. */
export type SubagentRequest = DispatchRequest;

/** A subagent's answer: always a report, whatever happened. */
export interface SubagentReport {
  status: TurnStatus;
  /** The whole report, ending with its "Not covered" list. */
  report: string;
  /** Files it read (relative to the root when inside it). */
  read: string[];
  /** Files its task named that it never read. */
  notCovered: string[];
  requests: number;
  usage: UsageTotals;
  /** One sentence when it did not end answered. */
  error?: { code: string; message: string };
}

/** A progress line (shown as the call's output); `read` names the file a successful read covered. */
export type SubagentDelta = ToolDelta & { read?: string };

export interface DispatcherProtocol extends Protocol<DispatchRequest> {
  replies: { run: ToolResult };
  delta: ToolDelta;
}

export interface SubagentProtocol extends Protocol<SubagentRequest> {
  replies: { run: SubagentReport };
  delta: SubagentDelta;
}

/** The dispatcher (main thread). */
export const SUBAGENTS = actorAddress<DispatcherProtocol>('subagents');

/** The worker-thread actor of the dispatcher's `n`-th subagent call. */
export function subagentAddress(prefix: string, n: number): ActorAddress<SubagentProtocol> {
  return actorAddress<SubagentProtocol>(`${prefix}${n}`);
}
