import type { TurnStatus } from '../agent/events.js';
import type { AgentMode } from '../agent-mode.js';
import type { ContextOp } from '../context/context-op.js';
import type { CapName } from '../indexer/protocol.js';
import type { ToolSchema } from '../model-io/protocol.js';
import type { AgentsFile } from '../indexer/agents-md.js';
import type { ProjectSummary } from '../prompt/project-summary.js';
import type { ApprovalMode } from '../tool-executor/protocol.js';

/** The format this reika writes and reads. */
export const TRANSCRIPT_VERSION = 1;

/**
 * One line of a session transcript (JSONL, one event per line, appended as it happens). The
 * first line is the `session` header and carries the format version; a reika that reads another
 * version refuses the file in one sentence rather than guessing. Nothing here holds an API key or
 * a header: endpoints are never recorded, and every line is scrubbed of the configured keys.
 */
export type TranscriptEvent =
  | SessionHeader
  | FrozenRecord
  /** A change to the context manager (see `actors/context/context-op.ts`): replayed on resume. */
  | ({ type: 'ctx' } & ContextOp)
  | { type: 'turn-start'; turn: string; prompt: string; at: string }
  | { type: 'turn-end'; turn: string; status: TurnStatus | 'interrupted'; requests: number; at: string; error?: string }
  /** Mode, approvals, profile and model, written when one of them changed since the last turn. */
  | ({ type: 'settings' } & SessionSettings)
  /** A compaction event, for the reader (replay redoes it from the `ctx` ops). */
  | { type: 'compaction'; reason: 'auto' | 'manual'; shed: number; folded: number; beforeTokens: number; afterTokens: number };

export interface SessionHeader {
  type: 'session';
  /** {@link TRANSCRIPT_VERSION} of the reika that created the file. */
  v: number;
  id: string;
  /** The project root the session ran in. */
  root: string;
  /** ISO time. */
  created: string;
  /** The reika version that created it. */
  reika: string;
  /** The session this one was copied from (a `--continue` while the original was open elsewhere). */
  forkedFrom?: string;
}

export interface SessionSettings {
  mode: Exclude<AgentMode, 'subagent'>;
  approvals: ApprovalMode;
  profile: string;
  model?: string;
}

/**
 * What the bootstrap froze: the prompt's facts (so a mode switch rebuilds the same prompt), the
 * index paths (for `@` completion), and the exact system prompts and tools arrays. A resumed
 * session takes these instead of scanning again.
 */
export interface FrozenRecord {
  type: 'frozen';
  mode: Exclude<AgentMode, 'subagent'>;
  root: string;
  paths: string[];
  capped: CapName[];
  repoMap: string;
  repoMapFiles: number;
  summary: ProjectSummary;
  agentsMd: AgentsFile[];
  headless: boolean;
  system: string;
  tools: ToolSchema[];
  subagentSystem: string;
  subagentTools: ToolSchema[];
}

/** The figures `reika sessions` and the picker show, kept beside each transcript (`ID.meta.json`). */
export interface SessionMeta {
  id: string;
  root: string;
  created: string;
  updated: string;
  turns: number;
  firstPrompt: string;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  model?: string;
  /** The checkpoint sessions (`reika undo`, REIKA_SESSION_ID) of the runs that worked in it: `reika undo --list` names the session by them. */
  checkpoints?: string[];
  v: number;
}
