import type { Image } from '../../actors/images/image.js';
import type { PermissionBook } from '../../actors/session/permission-book.js';
import type { CompactionCost, RequestCache } from '../../actors/agent/cache-ledger.js';
import type { PrefillProgress, Usage } from '../../actors/model-io/protocol.js';
import type { ApprovalMode, TodoItem, ToolResult } from '../../actors/tool-executor/protocol.js';
import type { CustomCommands } from '../slash/custom-commands.js';
import type { RecentTurn } from '../../actors/transcript/recent-turns.js';

export type SessionMode = 'agent' | 'plan';

/** Events of one turn, in the order they happen. */
export type UiEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-start'; id: string; name: string; args: Record<string, unknown> }
  | { type: 'tool-output'; id: string; text: string }
  | { type: 'tool-end'; id: string; name: string; status: ToolResult['status']; summary: string; meta?: ToolResult['meta'] }
  | { type: 'usage'; usage: Usage }
  /** The engine is reading the prompt (llama.cpp): the spinner shows how far. */
  | ({ type: 'prefill' } & PrefillProgress)
  | { type: 'notice'; message: string }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  /** The model's task list changed: the whole list (drawn above the prompt). */
  | { type: 'todo'; items: TodoItem[] }
  /** The request is waiting for the bootstrap (index, repo map) to finish. */
  | { type: 'waiting'; what: string };

export interface TurnOutcome {
  status: 'done' | 'aborted' | 'error';
  /** The model's final answer (when `done`). */
  answer?: string;
  /** One sentence for the user when `status` is `error`. */
  error?: string;
}

/** Figures for the status line and `/tokens`. */
export interface SessionFacts {
  root: string;
  model: string;
  profile: string;
  profiles: string[];
  mode: SessionMode;
  approvals: ApprovalMode;
  contextWindow?: number;
  /** Estimated tokens of the conversation as the next request would carry it. */
  contextTokens: number;
  /** Sums over the session's requests, as the server reported them. */
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  requests: number;
  /** What this run did, across `/new`, `/cd` and `/resume` (the exit line); the sums above are the conversation's session's. */
  run?: { requests: number; promptTokens: number; cachedTokens: number; completionTokens: number };
  /** The last request's usage. */
  lastUsage?: Usage;
  /** Fixed charge of images sent natively in the running turn (IMAGE_TOKENS each). */
  imageTokens?: number;
  /** How the model writes tool calls (`native` or a text dialect's name), once it made one. */
  dialect?: string;
  /** The last request's real cache figures (prefilled, appended, re-prefill flag). */
  lastRequest?: RequestCache;
  /** The session's real cache figures: prefilled tokens, and the requests that re-prefilled more than they appended. */
  prefilledTokens?: number;
  reprefills?: RequestCache[];
  /** What the compaction events cost the engine, and on llama.cpp when `--cache-reuse` would spare it. */
  compaction?: CompactionCost;
  cacheReuseAdvice?: string;
}

/**
 * What the terminal UI needs from a session, and nothing more. The interactive command adapts the
 * agent's `Session` to this; tests drive the UI with a scripted one.
 */
export interface SessionPort {
  facts(): SessionFacts;
  /** Paths of the file index once the bootstrap has it (for `@path` completion). */
  filePaths(): readonly string[] | undefined;
  /** Resolves when the bootstrap (index, repo map, summary) is done; rejects with its error. */
  ready(): Promise<void>;
  /**
   * Runs one turn; never rejects (errors come back as `status: 'error'`). `images` were pasted;
   * `readOnly` lets only the tools of plan mode act this turn (`/init`).
   */
  runTurn(input: string, onEvent: (event: UiEvent) => void, images?: readonly Image[], options?: { readOnly?: boolean }): Promise<TurnOutcome>;
  /** The custom slash commands (`.reika/commands`, `~/.config/reika/commands`), read now. */
  customCommands?(): CustomCommands;
  /** Why a pasted image cannot be used now (e.g. OCR unavailable on Linux), if it cannot. */
  imageProblem?(): string | undefined;
  /** Aborts the running turn: the runtime's one abort message for its scope. */
  abort(): void;
  /** One compaction event by hand; returns a line to show. */
  compact(): Promise<string>;
  /** Fresh conversation, same bootstrap. */
  reset(): Promise<void> | void;
  /** Re-bootstraps in another folder (`.` re-indexes); returns a line to show. */
  cd(path: string): Promise<string>;
  /** The models the current server lists (`/model` shows them); may reject with a sentence. */
  serverModels?(): Promise<string[]>;
  /** Switches to a profile or model name; returns a line to show. */
  switchModel(name: string): Promise<string>;
  /** Changing the mode changes the system prompt and tools: the prefix cache starts over. */
  setMode(mode: SessionMode): Promise<void> | void;
  setApprovals(mode: 'safe' | 'off'): void;
  /** The transcript being written (none before the first turn): `/save` reads it. */
  transcript?(): { id: string; path: string } | undefined;
  /** The stored session `reika --resume ID` goes on with: the current conversation's, once the model answered in it. */
  resumableId?(): string | undefined;
  /** `/resume`: this folder's stored sessions, newest first, as lines, with their ids. */
  storedSessions?(): { lines: string[]; ids: string[] };
  /** `/resume ID`: goes on with that session (the current one stays resumable); lines to show, and its last turns to show as they were. */
  resume?(id: string): Promise<{ lines: string[]; recent: RecentTurn[] }>;
  /** `/doctor`: what reika knows of the engine, the model and this session, with each fix, as lines. */
  doctor?(): Promise<string[]>;
  /** `/mcp`: the MCP servers, their state and tools, as lines. */
  mcpStatus?(): Promise<string[]>;
  /** `/mcp reload`: reads the MCP config again and takes the tools anew; lines to show. */
  reloadMcp?(): Promise<string[]>;
  /** `/config`: the settings in effect and where each came from (as `reika config` shows them), as lines. */
  configLines?(): Promise<string[]>;
  /** `/permissions`: the session's permission rules, where each comes from, and adding and removing them. */
  permissions?(): PermissionBook | undefined;
  close(): Promise<void>;
}
