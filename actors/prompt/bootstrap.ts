import { client } from '../../runtime/actor.js';
import type { Router } from '../../runtime/calls.js';
import { isCancelled, ReikaError } from '../../runtime/errors.js';
import { INDEXER, type FileIndex, type RepoMap } from '../indexer/protocol.js';
import { collectAgentsMd, type AgentsFile } from '../indexer/agents-md.js';
import { summarizeProject, type ProjectSummary } from './project-summary.js';
import { collectSkills, type Skills } from './skills.js';

/**
 * What a session builds once at start (and again only on `/cd`): the file index, the repo map,
 * the project summary, the AGENTS.md files, the skills and the cwd. Frozen: the system prompt is made of it.
 */
export interface Bootstrap {
  /** Absolute project root (the session's cwd). */
  root: string;
  index: FileIndex;
  repoMap: RepoMap;
  summary: ProjectSummary;
  agentsMd: AgentsFile[];
  /** The project's and the user's skills (names and descriptions for the prompt), with one line per unusable one. */
  skills: Skills;
  /** Wall time of the whole bootstrap. */
  ms: number;
  /** Why the repo map is empty, when building it failed (the session goes on without it). */
  repoMapError?: string;
}

export interface BootstrapOptions {
  root: string;
  /**
   * The repo-map budget in tokens, or a promise of it (it depends on the context window, which
   * may still be being discovered while the scan runs).
   */
  budgetTokens: number | Promise<number>;
  /** The config's `userFolder` (`~/.config/reika`), holding the user's `skills/`. */
  userFolder?: string;
}

/** Scans, then ranks the repo map; AGENTS.md and the summary are read meanwhile. */
export async function bootstrap(router: Router, options: BootstrapOptions): Promise<Bootstrap> {
  const started = Date.now();
  const indexer = client(router, INDEXER);
  const index = await indexer.request({ type: 'scan', root: options.root });
  const budgetTokens = await options.budgetTokens;
  const repoMap = indexer.request({ type: 'repo-map', root: options.root, paths: index.mapCandidates ?? index.paths, budgetTokens }).then(
    (map): { map: RepoMap; error?: string } => ({ map }),
    (error: unknown) => {
      // A map is a help, not a requirement: without one the model still has list/glob/grep.
      // A turn's abort, or a runtime that is closing: no session is left to help, and their words are not for the user.
      if (isCancelled(error) || (ReikaError.isInstance(error) && error.code === 'REIKA_ERR_CLOSED')) throw error;
      return { map: { text: '', files: [], omitted: 0, budgetTokens } satisfies RepoMap, error: error instanceof Error ? error.message : String(error) };
    },
  );
  const summary = summarizeProject(options.root, index.paths);
  const agentsMd = collectAgentsMd(options.root, options.userFolder);
  const skills = collectSkills(options.root, options.userFolder);
  const built = await repoMap;
  return Object.freeze({ root: options.root, index, repoMap: built.map, summary, agentsMd, skills, ms: Date.now() - started, ...(built.error ? { repoMapError: built.error } : {}) });
}
