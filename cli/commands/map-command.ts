import { loadConfig } from '../../actors/config/load-config.js';
import { createIndexerActor } from '../../actors/indexer/actor.js';
import { repoMapBudget } from '../../actors/indexer/budget.js';
import { INDEXER, type FileIndex, type RepoMap } from '../../actors/indexer/protocol.js';
import { client } from '../../runtime/actor.js';
import { Supervisor } from '../../runtime/supervisor.js';
import { startDirCommand } from './dir-args.js';

// `reika map [DIR] [--json]`: prints the repo map of DIR (default: the current folder) exactly as
// a session would put it in the system prompt: scanned and ranked in the indexer pool, cut to
// the budget (`REIKA_REPO_MAP_BUDGET`, else 5% of `REIKA_CONTEXT_WINDOW` within 3,200–12,000
// tokens, else 3,200; no model server is asked). `--json` gives `{budgetTokens, omitted, files,
// text}` with every ranked file, its score and its symbols, also those the budget cut.

const USAGE = 'usage: reika map [DIR] [--json]';


/** Builds the map through the indexer actor, as a session's bootstrap does. */
async function buildMap(root: string, budgetTokens: number): Promise<{ index: FileIndex; map: RepoMap }> {
  const supervisor = new Supervisor();
  try {
    await supervisor.register(INDEXER, createIndexerActor(), {});
    const indexer = client(supervisor, INDEXER);
    const index = await indexer.request({ type: 'scan', root });
    const map = await indexer.request({ type: 'repo-map', root, paths: index.mapCandidates ?? index.paths, budgetTokens });
    return { index, map };
  } finally {
    await supervisor.close();
  }
}

export async function run(argv: string[]): Promise<number> {
  const args = startDirCommand(argv, USAGE);
  if (typeof args === 'number') return args;
  let built: { index: FileIndex; map: RepoMap };
  try {
    const config = loadConfig({ cwd: args.dir });
    built = await buildMap(args.dir, repoMapBudget(config.active.contextWindow, config.repoMapBudget));
  } catch (error) {
    process.stderr.write(`reika: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const { index, map } = built;
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ budgetTokens: map.budgetTokens, omitted: map.omitted, files: map.files, text: map.text })}\n`);
    return 0;
  }
  if (map.text !== '') process.stdout.write(`${map.text}\n`);
  else process.stderr.write(`reika map: no source files in ${args.dir}\n`);
  if (index.capped.length > 0) process.stderr.write(`reika map: partial scan (caps hit: ${index.capped.join(', ')}), shallow folders first\n`);
  return 0;
}
