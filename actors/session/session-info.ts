import type { Usage } from '../model-io/protocol.js';
import type { AgentMode } from '../agent-mode.js';
import type { ApprovalMode } from '../tool-executor/protocol.js';
import type { ContextManager } from '../context/context-manager.js';
import type { CacheTotals, RequestCache } from '../agent/cache-ledger.js';
import type { EngineFacts } from './engine-facts.js';
import type { UsageTotals } from '../agent/events.js';
import type { ModelLink } from './model-link.js';
import type { UsageLedger } from '../agent/usage-ledger.js';

/** Figures for the status line and `/tokens`. */
export interface SessionInfo {
  root: string;
  profile: string;
  model?: string;
  mode: AgentMode;
  approvals: ApprovalMode;
  window?: number;
  estimateTokens: number;
  threshold?: number;
  usage: UsageTotals;
  /** Cached / prompt tokens over the session (0 when nothing was reported). */
  cacheHitRate: number;
  /** Fixed charge of the images sent natively in the current turn (IMAGE_TOKENS each). */
  imageTokens: number;
  /** Chat requests of the session, counted with {@link usage} (`/new` and `/cd` keep both). */
  requests: number;
  /**
   * What this run of reika asked and was told, across `/new`, `/cd` and `/resume` (which takes
   * the resumed session's figures into {@link usage}): the exit line's figures.
   */
  run: { requests: number; usage: UsageTotals };
  /** The current conversation's last reported usage (its prompt tokens as the server counted them). */
  lastUsage?: Usage;
  /**
   * How the model writes its tool calls, as last seen (`native`, or a text dialect's name, see
   * model-io `dialects/table.ts`); unknown until it made a call. What `/tokens` and `reika doctor` show.
   */
  dialect?: string;
  /** The real cache figures of the main agent's requests (cache-ledger.ts). */
  cache: CacheTotals;
  /** On llama.cpp, why `--cache-reuse` would spare the compaction events their cost (cache-ledger.ts). */
  cacheReuseAdvice?: string;
  /** The last request's figures. */
  lastRequest?: RequestCache;
  busy: boolean;
}

/** The figures, each asked of its owner. */
export function sessionInfo(from: { root: string; link: ModelLink; mode: AgentMode; approvals: ApprovalMode; context: ContextManager | undefined; usage: UsageLedger; run: UsageLedger; facts: EngineFacts; busy: boolean }): SessionInfo {
  const { link, usage, facts } = from;
  const stats = from.context?.stats();
  const profile = link.profile;
  const dialect = link.dialect;
  return {
    root: from.root,
    profile: profile.name,
    model: profile.model,
    mode: from.mode,
    approvals: from.approvals,
    window: link.shownWindow,
    estimateTokens: stats?.estimateTokens ?? 0,
    imageTokens: stats?.imageTokens ?? 0,
    threshold: stats?.threshold,
    usage: usage.totals,
    cacheHitRate: usage.cacheHitRate,
    requests: usage.requests,
    run: { requests: from.run.requests, usage: from.run.totals },
    lastUsage: usage.last,
    ...(dialect ? { dialect } : {}),
    cache: facts.cache,
    ...(facts.cacheReuseAdvice ? { cacheReuseAdvice: facts.cacheReuseAdvice } : {}),
    ...(facts.lastRequest ? { lastRequest: facts.lastRequest } : {}),
    busy: from.busy,
  };
}
