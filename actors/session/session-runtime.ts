import type { Router } from '../../runtime/calls.js';
import type { Diagnostics } from '../lsp/diagnostics.js';
import type { McpHub } from '../mcp/hub.js';

/** What the session needs from the runtime (see cli/start-runtime.ts). */
export interface SessionRuntime {
  /** Routes requests; `abort(scope)` sends the one abort message for a turn. */
  supervisor: Router & { abort(scope: string, reason?: string): void };
  indexerReady: Promise<void>;
  /** Starts actors that are only needed once a request is out (the tool executor); `now`: a tool call is about to run. */
  prewarm?(how?: { now?: boolean }): void;
  watchApprovals?(listener: (phase: 'ask' | 'answered') => void): () => void;
  /** The MCP servers, whose ready tools join the tools array when it is frozen (cli/start-runtime.ts). */
  mcp?(): Promise<McpTools>;
  /** The language servers that check edits (`actors/lsp/`), waiting at most `waitMs` after each. */
  diagnostics?(waitMs: number): Promise<Pick<Diagnostics, 'before' | 'after' | 'status'>>;
}

/** What the session needs of the MCP hub (`actors/mcp/hub.ts`). */
export type McpTools = Pick<McpHub, 'start' | 'reload' | 'settled' | 'startup' | 'readyTools'>;
