import type { ScanCaps } from './caps.js';
import type { FileIndex, RepoMapFile } from './protocol.js';
import { mapFilesOf } from './repo-map.js';
import { traceStartup } from './startup-trace.js';
import { extractSymbols } from './map/extract.js';
import { rankFiles } from './map/rank.js';
import { scan } from './scan.js';

/**
 * The scan, then the repo map's extraction and ranking of the scan's map candidates, in one
 * thread. At startup the map always follows the scan, so doing both here skips a round trip
 * through the main thread (which is busy loading the session then), the clone of thousands of
 * paths and symbol records to the main thread and back, and the boot of a second thread on a
 * machine whose cores are already taken by startup.
 *
 * `onIndex` gets the index as soon as the scan is done, so the bootstrap goes on (project summary,
 * AGENTS.md) while this thread extracts. The ranked files equal what `buildRepoMap` ranks for
 * `index.mapCandidates`: the same files (`mapFilesOf`), extracted and ranked by the same code.
 * Runs as a pool task (`pool-entry.ts`) and in the startup thread (`startup-entry.ts`).
 */

export interface ScanAndMapOptions {
  caps?: Partial<ScanCaps>;
  onIndex(index: FileIndex): void;
}

export function scanAndMap(root: string, options: ScanAndMapOptions): RepoMapFile[] {
  const index = scan(root, options.caps);
  traceStartup(`indexer thread: scanned (${index.paths.length} paths, ${index.mapCandidates?.length ?? 0} map candidates)`);
  options.onIndex(index);
  const files = extractSymbols({ root: index.root, paths: mapFilesOf(index.mapCandidates ?? index.paths) });
  traceStartup(`indexer thread: extracted ${files.length} files`);
  const ranked = rankFiles(files);
  traceStartup('indexer thread: ranked');
  return ranked;
}
