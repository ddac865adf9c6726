import { defineActor } from '../../runtime/index.js';
import type { IndexerProtocol } from '../../actors/indexer/protocol.js';

/** An indexer that knows `files` (path → its repo-map line) and nothing else: no scan, no threads. */
export function fakeIndexer(files: Record<string, string>) {
  const paths = Object.keys(files);
  return defineActor<IndexerProtocol>({
    handle(request) {
      if (request.type === 'scan') return { root: request.root, paths, capped: [], stats: { directories: 1, files: paths.length, ignored: 0, skipped: 0, ms: 1 } };
      return { text: paths.map((path) => `${path}: ${files[path]}\n`).join(''), files: [], omitted: 0, budgetTokens: request.budgetTokens };
    },
  });
}
