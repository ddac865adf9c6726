import { createIndexerActor } from '../../actors/indexer/actor.js';
import { INDEXER, type FileIndex } from '../../actors/indexer/protocol.js';
import { client } from '../../runtime/actor.js';
import { Supervisor } from '../../runtime/supervisor.js';
import { startDirCommand } from './dir-args.js';

// `reika index [DIR] [--json]`: prints the file index of DIR (default: the current folder), one
// path per line relative to DIR with `/` separators, or `{paths, capped, stats}` with `--json`.
// The scan runs in the indexer pool exactly as in a session; no model server is involved.

const USAGE = 'usage: reika index [DIR] [--json]';


/** One line for stderr saying which caps made the index partial. */
export function describeCaps(index: FileIndex): string | undefined {
  if (index.capped.length === 0) return undefined;
  return `reika index: partial index (caps hit: ${index.capped.join(', ')}); ${index.paths.length} paths, shallow first`;
}

export async function run(argv: string[]): Promise<number> {
  const args = startDirCommand(argv, USAGE);
  if (typeof args === 'number') return args;
  const supervisor = new Supervisor();
  let index: FileIndex;
  try {
    await supervisor.register(INDEXER, createIndexerActor(), { maxThreads: 1 });
    index = await client(supervisor, INDEXER).request({ type: 'scan', root: args.dir });
  } catch (error) {
    process.stderr.write(`reika: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await supervisor.close();
  }
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ paths: index.paths, capped: index.capped, stats: index.stats })}\n`);
  } else {
    if (index.paths.length > 0) process.stdout.write(`${index.paths.join('\n')}\n`);
    const note = describeCaps(index);
    if (note) process.stderr.write(`${note}\n`);
  }
  return 0;
}
