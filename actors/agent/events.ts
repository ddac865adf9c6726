import type { Compaction } from '../context/compactor.js';
import type { PrefillProgress, Usage } from '../model-io/protocol.js';
import type { RequestCache } from './cache-ledger.js';
import type { TodoItem } from '../tool-executor/protocol.js';
import type { ToolCallState, ToolCallStatus } from './tool-call-state.js';

export type { TodoItem };

/**
 * What a session reports while it works: the UI draws these, headless `--stream` prints them as
 * JSON lines (docs/headless.md is the schema). Plain data, tagged by `type`.
 */
export type AgentEvent =
  /** The bootstrap finished (once per session, again after `/cd`). */
  | { type: 'bootstrap'; root: string; files: number; repoMapFiles: number; capped: boolean; ms: number; repoMapError?: string; /** Skills that could not be used, one line each. */ problems?: string[] }
  | { type: 'turn-start'; turn: string; prompt: string }
  /** A chat request is about to go to the model (n counts from 1 within the turn). */
  | { type: 'request'; turn: string; n: number; estimateTokens: number; maxTokens?: number }
  /** One compaction event: older rounds were folded into the recap. */
  | ({ type: 'compaction'; turn?: string } & Compaction)
  | { type: 'text-delta'; turn: string; text: string }
  | { type: 'reasoning-delta'; turn: string; text: string }
  /** Something the model produced that could not be used, or a note from the runtime. */
  | { type: 'notice'; turn: string; message: string }
  | { type: 'retry'; turn: string; attempt: number; delayMs: number; reason: string }
  /**
   * Usage the server reported for request n; `cache`: the session's real cache figures for it
   * (tokens from the cache, prefilled, appended, and a flag when it re-prefilled more than was appended).
   */
  | { type: 'usage'; turn: string; n: number; usage: Usage; cache?: RequestCache }
  /** The engine is reading the prompt of request n (llama.cpp `return_progress`). */
  | ({ type: 'prefill'; turn: string; n: number } & PrefillProgress)
  /**
   * A tool call changed state (see ToolCallState); `previous` is the state it left (absent when
   * the call appears, `pending`). Leaving `pending` is the call's start.
   */
  | { type: 'tool-call'; turn: string; state: ToolCallState; previous?: ToolCallStatus }
  | { type: 'tool-output'; turn: string; callId: string; stream: 'stdout' | 'stderr'; text: string }
  /**
   * The model's task list changed (its `todo` tool): the whole list as it is now, in its order.
   * The terminal draws it above the prompt, `--stream` prints it, ACP sends it as a `plan` update.
   */
  | { type: 'todo'; turn: string; items: TodoItem[] }
  /** A note appended for the model (loop guard, empty reply…). */
  | { type: 'nudge'; turn: string; text: string }
  | { type: 'turn-end'; turn: string; result: TurnResult };

/** Usage summed over a turn's requests. */
export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Requests whose reply carried usage. */
  reported: number;
}

/** One tool call as the turn's result lists it. */
export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  status: 'done' | 'error' | 'declined' | 'cancelled';
  summary: string;
}

/** How a turn ended. `answered` is the only success. */
export type TurnStatus = 'answered' | 'aborted' | 'max-turns' | 'loop' | 'error';

export interface TurnResult {
  status: TurnStatus;
  /** The model's final text (what it said last, even when the turn did not end answered). */
  answer: string;
  /** Chat requests made. */
  requests: number;
  toolCalls: ToolCallRecord[];
  usage: UsageTotals;
  /** Usage per request, in order (null when the server reported none). */
  requestUsage: (Usage | null)[];
  compactions: number;
  durationMs: number;
  /** Set for `error`, `loop` and `max-turns`: one sentence for the user. */
  error?: { code: string; message: string };
  /** The model's task list as the turn left it, when the turn changed it (its last `todo` call). */
  todo?: TodoItem[];
  /**
   * How the model wrote its tool calls, from the turn's last reply that made any (or tried):
   * `native`, or the text dialect's name (model-io `dialects/table.ts`). Absent without calls.
   */
  dialect?: string;
}
