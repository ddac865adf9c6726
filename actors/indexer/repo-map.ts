import type { ExtractTask, FileSymbols } from '../../workers/extract.js';
import { isMapSource } from '../../workers/symbols/languages.js';
import { MAX_MAP_FILES } from './caps.js';
import type { RepoMap, RepoMapFile } from './protocol.js';

/**
 * Builds the repo map: extraction in the indexer's pool, in batches, then one ranking task in the
 * pool, then the cut to the token budget here (a few thousand string concatenations). The main
 * thread only hands batches around.
 *
 * Byte-stable: batches have a fixed size and come back in order, ranking sorts by path before it
 * starts and breaks ties by path, so the same files give the same bytes for any worker count.
 */

/** Files per extraction task: small enough to spread over the threads, large enough to be cheap. */
export const EXTRACT_BATCH = 64;
/** Names shown on one line at most; the rest are counted. */
export const MAX_SYMBOLS_PER_LINE = 30;

/** What the map needs of the indexer pool (`IndexerPool`; pool-entry exports `extractSymbols` and `rankFiles`). */
export interface TaskRunner {
  run<R>(name: string, task: unknown, signal?: AbortSignal): Promise<R>;
}

export interface RepoMapRequest {
  root: string;
  /**
   * Relative, `/`-separated, best first (the scan's breadth-first map candidates); files of
   * languages the map does not read are skipped, and only the first MAX_MAP_FILES others are read.
   */
  paths: string[];
  budgetTokens: number;
}

export async function buildRepoMap(pool: TaskRunner, request: RepoMapRequest, signal?: AbortSignal): Promise<RepoMap> {
  const paths = request.paths.filter(isMapSource).slice(0, MAX_MAP_FILES);
  const batches: Promise<FileSymbols[]>[] = [];
  for (let start = 0; start < paths.length; start += EXTRACT_BATCH) {
    const task: ExtractTask = { root: request.root, paths: paths.slice(start, start + EXTRACT_BATCH) };
    batches.push(pool.run<FileSymbols[]>('extractSymbols', task, signal));
  }
  const files = (await Promise.all(batches)).flat();
  const ranked = await pool.run<RepoMapFile[]>('rankFiles', files, signal);
  return renderRepoMap(ranked, request.budgetTokens);
}

/** `path: name, name, …` (just the path when the file exports nothing). */
export function lineOf(file: RepoMapFile): string {
  if (file.symbols.length === 0) return file.path;
  const shown = file.symbols.slice(0, MAX_SYMBOLS_PER_LINE);
  const more = file.symbols.length - shown.length;
  return `${file.path}: ${shown.join(', ')}${more > 0 ? `, … (+${more})` : ''}`;
}

/** The last line when the budget cut files. */
export function omittedLine(omitted: number): string {
  return `… ${omitted} more file${omitted === 1 ? '' : 's'} not shown`;
}

/**
 * Whole lines in rank order while they fit in `budgetTokens` × 4 characters (newlines and the
 * closing "not shown" line included); stops at the first line that does not fit. The text never
 * exceeds the budget: a budget of 0 gives an empty map.
 */
export function renderRepoMap(files: RepoMapFile[], budgetTokens: number): RepoMap {
  const limit = Math.max(0, Math.floor(budgetTokens)) * 4;
  const reserve = omittedLine(files.length).length + 1;
  const lines: string[] = [];
  let used = 0;
  for (let index = 0; index < files.length; index++) {
    const line = lineOf(files[index]!);
    const cost = line.length + (lines.length > 0 ? 1 : 0);
    const room = index < files.length - 1 ? limit - reserve : limit;
    if (used + cost > room) break;
    lines.push(line);
    used += cost;
  }
  const omitted = files.length - lines.length;
  // The closing line always fits after a shown line (room was kept); alone, only if it fits.
  if (omitted > 0 && used + (lines.length > 0 ? 1 : 0) + omittedLine(omitted).length <= limit) lines.push(omittedLine(omitted));
  return { text: lines.join('\n'), files, omitted, budgetTokens };
}
