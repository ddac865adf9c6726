import type { MessagePort } from 'node:worker_threads';
import type { ScanCaps } from '../actors/indexer/caps.js';
import type { FileIndex, RepoMapFile } from '../actors/indexer/protocol.js';
import { traceStartup } from '../actors/indexer/startup-trace.js';
import { scanAndMap } from '../actors/indexer/scan-and-map.js';
import { scan } from '../actors/indexer/scan.js';
import type { FileResult, GrepFilesTask } from '../actors/tool-executor/files/search/search-file.js';

// The indexer pool's worker file: each named export is one piscina task (`run(task, { name })`).
// Tasks take and return plain data (structured clone), and run synchronously to the end; a task is
// cancelled by ending its thread, never by a flag.

traceStartup('indexer thread: modules loaded');

export interface ScanTask {
  root: string;
  caps?: Partial<ScanCaps>;
}

/** The `scan` task: the breadth-first crawl of one root within caps. */
function scanTask(task: ScanTask): FileIndex {
  return scan(task.root, task.caps);
}

export interface ScanAndMapTask extends ScanTask {
  /** Receives the FileIndex once, as soon as the scan is done. */
  port: MessagePort;
}

/** The `scanAndMap` task (`actors/indexer/scan-and-map.ts`): returns the ranked files, posts the index on `port` first. */
function scanAndMapTask(task: ScanAndMapTask): RepoMapFile[] {
  try {
    return scanAndMap(task.root, { caps: task.caps, onIndex: (index) => task.port.postMessage(index) });
  } finally {
    task.port.close();
  }
}

/**
 * The `grepFiles` task: one batch of the files grep's walk found, each searched as grep searches
 * (`files/search/search-file.ts`), results in the files' order. The search code loads on the
 * first batch, so an indexer thread that never greps does not hold it.
 */
async function grepFilesTask(task: GrepFilesTask): Promise<FileResult[]> {
  const { searchFileInThread, regexFor } = await searchCode();
  const regex = regexFor(task.pattern, task.ignoreCase);
  const results: FileResult[] = [];
  for (const file of task.files) results.push(await searchFileInThread(file, regex));
  return results;
}

let loading: Promise<typeof import('../actors/tool-executor/files/search/thread-search.js')> | undefined;
const searchCode = () => (loading ??= import('../actors/tool-executor/files/search/thread-search.js'));

export { scanTask as scan, scanAndMapTask as scanAndMap, grepFilesTask as grepFiles };
export { extractSymbols } from '../actors/indexer/map/extract.js';
export { rankFiles } from '../actors/indexer/map/rank.js';
