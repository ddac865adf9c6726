import { actorAddress, type Protocol } from '../../runtime/actor.js';
import type { AgentMode } from '../agent-mode.js';
import type { RuleData } from './rules/rule.js';
import type { ReikaErrorCode } from '../../runtime/errors.js';

// The tool-executor actor's contract (a child process). Tool names and argument keys are a
// stable contract with models, scripts and tests (SPEC §3); the tools themselves are declared in
// `registry.ts`.

/** `safe` asks only for dangerous actions, `off` asks for every action, `bypass` never asks. */
export type ApprovalMode = 'safe' | 'off' | 'bypass';

/** The settings the tools run under (from the session's configuration, `actors/config/`). */
export interface ToolSettings {
  /** REIKA_SANDBOX: `auto` (bubblewrap if it works here), `bwrap` (required), `off`. */
  sandbox: 'auto' | 'bwrap' | 'off';
  /** REIKA_CHECKPOINTS: snapshots before edits, writes and commands. */
  checkpoints: boolean;
  /** REIKA_CHECKPOINT_WATCH: a watcher tells each checkpoint what changed (else it walks the tree). */
  checkpointWatch: boolean;
  /** REIKA_BASH_TIMEOUT_MS: a command's total time. */
  bashTimeoutMs: number;
  /** REIKA_BASH_IDLE_MS: a command's time without output. */
  bashIdleMs: number;
  /** REIKA_PASS_ENV (the environment or the user's files only): variables commands get although they look secret. */
  passEnv: string[];
  /**
   * The secret values of reika's own configuration (API keys, URLs with a password, from the
   * environment and the `.env` files): whatever a tool returns that holds one is redacted.
   */
  secrets: string[];
  /** REIKA_SEARCH_URL: the SearXNG-compatible endpoint `search` queries; absent, search is not offered. */
  searchUrl?: string;
}

/** Per-call session facts: the executor keeps no session state of its own. */
export interface ToolContext {
  /** Absolute project root; relative paths resolve against it. */
  root: string;
  approvals: ApprovalMode;
  /** `plan` and `subagent` are read-only: a tool the mode does not offer is refused. */
  mode: AgentMode;
  /**
   * The session's permission rules in force (SPEC §17), in no particular order: deny > ask >
   * allow whatever their order. A project's allow rules are here only when it is trusted.
   */
  permissions?: RuleData[];
  /**
   * A PreToolUse hook approved this call (its reason): it runs as an allow rule would make it run,
   * unless a deny or ask rule names it.
   */
  hookApproved?: string;
  /**
   * A PreToolUse hook wants a person to confirm this call (its reason): it is asked about whatever
   * the approvals mode, as an ask rule makes it; only a deny rule weighs more.
   */
  hookAsked?: string;
  /**
   * An editor hosts the session and offers its files (ACP `fs/read_text_file`,
   * `fs/write_text_file`): read, edit and write take and put project files' text through it
   * (the editor-files actor, `actors/editor-files/`), so its unsaved buffers win. Commands still see the disk.
   */
  editorFiles?: { read: boolean; write: boolean };
  settings: ToolSettings;
}

export type ToolExecutorRequest = {
  type: 'run';
  /** The model's tool-call id, echoed in the result. */
  callId: string;
  name: string;
  args: Record<string, unknown>;
  context: ToolContext;
};

/** The states of an item of the model's task list (the `todo` tool). */
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** One item of the model's task list; the `todo` tool replaces the whole list each call. */
export interface TodoItem {
  content: string;
  status: (typeof TODO_STATUSES)[number];
}

/** Streamed while a tool runs (bash output). */
export type ToolDelta = { type: 'output'; stream: 'stdout' | 'stderr'; text: string };

/**
 * Why a call ended `error` (or a subagent's `cancelled`): one of the house's closed codes (a tool's
 * own, `NOT_FOUND`…, are among them; the executor's death is `REIKA_ERR_ACTOR_FAILED`), or one of
 * the loop's and the MCP actor's own.
 */
export type ToolResultCode =
  | ReikaErrorCode
  | 'INTERNAL'
  | 'BAD_ARGUMENTS_JSON'
  | 'NO_NETWORK'
  | 'MCP_TOOL_ERROR'
  | 'MCP_ERROR'
  | 'SUBAGENT_ABORTED'
  | 'SUBAGENT_STOPPED'
  | 'SUBAGENT_BAD_ARGS'
  | 'SUBAGENT_WAVE_LIMIT'
  | 'SUBAGENT_WAVE_FULL';

/**
 * Every tool ends in one of these; tools never throw at the model. `summary` is one line and is
 * always kept in the context; `payload` is the content and may age out.
 */
export interface ToolResult {
  callId: string;
  name: string;
  status: 'done' | 'error' | 'declined' | 'cancelled';
  summary: string;
  payload: string;
  /** A stable code for errors, e.g. `EDIT_NO_MATCH`, `EDIT_MANY_MATCHES`, `WRITE_EXISTS`, `BINARY_FILE`. */
  errorCode?: ToolResultCode;
  /** For the UI only, never sent to the model. */
  meta?: {
    path?: string;
    diff?: string;
    exitCode?: number | null;
    spillPath?: string;
    changedFiles?: string[];
    durationMs?: number;
    /** The checkpoint taken before this step (its number in the session; `/undo` restores it). */
    checkpoint?: number;
    /** The `todo` tool's new list: the agent loop makes a `todo` event of it. */
    todo?: TodoItem[];
  };
}

export interface ToolExecutorProtocol extends Protocol<ToolExecutorRequest> {
  replies: { run: ToolResult };
  delta: ToolDelta;
}

/** The tool-executor actor (a child process). */
export const TOOL_EXECUTOR = actorAddress<ToolExecutorProtocol>('tool-executor');
