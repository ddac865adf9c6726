import type { Router } from '../../runtime/calls.js';
import type { FileIndex, IndexerRequest, RepoMap } from '../indexer/protocol.js';
import { collectAgentsMd, type AgentsFile } from './agents-md.js';
import { summarizeProject, type ProjectSummary } from './project-summary.js';

/**
 * What a session builds once at start (and again only on `/cd`): the file index, the repo map,
 * the project summary, the AGENTS.md files and the cwd. Frozen: the system prompt is made of it.
 */
export interface Bootstrap {
  /** Absolute project root (the session's cwd). */
  root: string;
  index: FileIndex;
  repoMap: RepoMap;
  summary: ProjectSummary;
  agentsMd: AgentsFile[];
  /** Wall time of the whole bootstrap. */
  ms: number;
}

export interface BootstrapOptions {
  root: string;
  /**
   * The repo-map budget in tokens, or a promise of it (it depends on the context window, which
   * may still be being discovered while the scan runs).
   */
  budgetTokens: number | Promise<number>;
  signal?: AbortSignal;
  /** Address of the indexer actor (default `indexer`). */
  indexer?: string;
}

/** Scans, then ranks the repo map; AGENTS.md and the summary are read meanwhile. */
export async function bootstrap(router: Router, options: BootstrapOptions): Promise<Bootstrap> {
  const started = Date.now();
  const indexer = options.indexer ?? 'indexer';
  const ask = <R>(body: IndexerRequest) => router.request<R>(indexer, body, { signal: options.signal });
  const index = await ask<FileIndex>({ type: 'scan', root: options.root });
  const budgetTokens = await options.budgetTokens;
  const repoMap = ask<RepoMap>({ type: 'repo-map', root: options.root, paths: index.mapCandidates ?? index.paths, budgetTokens });
  const summary = summarizeProject(options.root, index.paths);
  const agentsMd = collectAgentsMd(options.root);
  return Object.freeze({ root: options.root, index, repoMap: await repoMap, summary, agentsMd, ms: Date.now() - started });
}
