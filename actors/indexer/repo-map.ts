import type { ExtractTask, FileSymbols } from './map/extract.js';
import { mentionedFiles } from './map/mentions.js';
import type { RankTask } from './map/rank.js';
import { isMapSource } from './map/symbols/languages.js';
import { MAX_MAP_FILES } from './caps.js';
import type { RepoMap, RepoMapFile } from './protocol.js';
import { renderRepoMap } from './render-map.js';

export { lineOf, MAX_SYMBOLS_PER_LINE, omittedLine, renderRepoMap } from './render-map.js';

// Builds the repo map: extraction in the indexer's pool, in batches, then one ranking task in the
// pool (with the files AGENTS.md names, `mentions.ts`), then the cut to the token budget here (a
// few thousand string concatenations). The main thread only hands batches around.
//
// Byte-stable: batches have a fixed size and come back in order, ranking sorts by path before it
// starts and breaks ties by path, so the same files give the same bytes for any worker count.

/** Files per extraction task: small enough to spread over the threads, large enough to be cheap. */
export const EXTRACT_BATCH = 64;

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

/** The files the map reads of a request's paths: mapped languages only, the first MAX_MAP_FILES. */
export function mapFilesOf(paths: readonly string[]): string[] {
  return paths.filter(isMapSource).slice(0, MAX_MAP_FILES);
}

export async function buildRepoMap(pool: TaskRunner, request: RepoMapRequest, signal?: AbortSignal): Promise<RepoMap> {
  const paths = mapFilesOf(request.paths);
  const batches: Promise<FileSymbols[]>[] = [];
  for (let start = 0; start < paths.length; start += EXTRACT_BATCH) {
    const task: ExtractTask = { root: request.root, paths: paths.slice(start, start + EXTRACT_BATCH) };
    batches.push(pool.run<FileSymbols[]>('extractSymbols', task, signal));
  }
  // The AGENTS.md files are read while the pool extracts.
  const mentioned = mentionedFiles(request.root, paths);
  const files = (await Promise.all(batches)).flat();
  const ranked = await pool.run<RepoMapFile[]>('rankFiles', { files, mentioned } satisfies RankTask, signal);
  return renderRepoMap(ranked, request.budgetTokens);
}
