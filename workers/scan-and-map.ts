import type { MessagePort } from 'node:worker_threads';
import type { ScanCaps } from '../actors/indexer/caps.js';
import type { FileIndex, RepoMapFile } from '../actors/indexer/protocol.js';
import { mapFilesOf } from '../actors/indexer/repo-map.js';
import { extractSymbols } from './extract.js';
import { rankFiles } from './rank.js';
import { scan } from './scan.js';
import { traceStartup } from '../actors/indexer/startup-trace.js';

/**
 * The startup's pool task: the scan, then the repo map's extraction and ranking of the scan's map
 * candidates, in one thread and one task. At startup the map always follows the scan, so doing
 * both here skips a round trip through the main thread (which is busy loading the session then),
 * the clone of thousands of paths and symbol records to the main thread and back, and the boot of
 * a second thread on a machine whose cores are already taken by startup.
 *
 * The index is posted on `port` as soon as the scan is done, so the bootstrap goes on (project
 * summary, AGENTS.md) while this thread extracts. The ranked files equal what `buildRepoMap` ranks
 * for `index.mapCandidates`: the same files (`mapFilesOf`), extracted and ranked by the same code.
 */

export interface ScanAndMapTask {
  root: string;
  caps?: Partial<ScanCaps>;
  /** Receives the FileIndex once, before extraction starts. */
  port: MessagePort;
}

export function scanAndMap(task: ScanAndMapTask): RepoMapFile[] {
  let index: FileIndex;
  try {
    index = scan(task.root, task.caps);
    traceStartup(`indexer thread: scanned (${index.paths.length} paths, ${index.mapCandidates?.length ?? 0} map candidates)`);
    task.port.postMessage(index);
  } finally {
    task.port.close();
  }
  const files = extractSymbols({ root: index.root, paths: mapFilesOf(index.mapCandidates ?? index.paths) });
  traceStartup(`indexer thread: extracted ${files.length} files`);
  const ranked = rankFiles(files);
  traceStartup('indexer thread: ranked');
  return ranked;
}
