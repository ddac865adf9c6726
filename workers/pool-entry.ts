import type { ScanCaps } from '../actors/indexer/caps.js';
import type { FileIndex } from '../actors/indexer/protocol.js';
import { traceStartup } from '../actors/indexer/startup-trace.js';
import { scan } from './scan.js';

/**
 * The indexer pool's worker file: each named export is one piscina task (`run(task, { name })`).
 * Tasks take and return plain data (structured clone), and run synchronously to the end; a task is
 * cancelled by ending its thread, never by a flag.
 */

traceStartup('indexer thread: modules loaded');

export interface ScanTask {
  root: string;
  caps?: Partial<ScanCaps>;
}

/** The `scan` task: the breadth-first crawl of one root within caps. */
export function scanTask(task: ScanTask): FileIndex {
  return scan(task.root, task.caps);
}

export { scanTask as scan };
export { extractSymbols, rankFiles } from './extract.js';
export { scanAndMap } from './scan-and-map.js';
