import { relative, sep } from 'node:path';
import { cacheEnabled, loadBootstrap, saveBootstrap, type CacheOptions } from './bootstrap-cache.js';
import type { ScanCaps } from './caps.js';
import type { FileIndex, RepoMapFile } from './protocol.js';
import { mapFilesOf } from './repo-map.js';
import { repositoryFiles } from './repository-files.js';
import { traceStartup } from './startup-trace.js';
import { agentsMdCandidates } from './agents-md.js';
import { extractSymbols } from './map/extract.js';
import { mentionedFiles } from './map/mentions.js';
import { rankFiles } from './map/rank.js';
import { scan, type ScanHooks } from './scan.js';

export interface ScanAndMapOptions {
  caps?: Partial<ScanCaps>;
  onIndex(index: FileIndex): void;
  /** Told of each folder the scan reads (`scan.ts`). */
  hooks?: ScanHooks;
}

/**
 * The scan, then the repo map's extraction and ranking of the scan's map candidates, in one
 * thread. At startup the map always follows the scan, so doing both here skips a round trip
 * through the main thread (which is busy loading the session then), the clone of thousands of
 * paths and symbol records to the main thread and back, and the boot of a second thread on a
 * machine whose cores are already taken by startup.
 *
 * `onIndex` gets the index as soon as the scan is done, so the bootstrap goes on (project summary,
 * AGENTS.md) while this thread extracts. The ranking reads the AGENTS.md files too, for the files
 * they name (`mentions.ts`). The ranked files equal what `buildRepoMap` ranks for
 * `index.mapCandidates`: the same files (`mapFilesOf`), extracted and ranked by the same code.
 * Runs as a pool task (`pool-entry.ts`) and in the startup thread (`startup-entry.ts`).
 */
export function scanAndMap(root: string, options: ScanAndMapOptions): RepoMapFile[] {
  const index = scan(root, options.caps, options.hooks);
  traceStartup(`indexer thread: scanned (${index.paths.length} paths, ${index.mapCandidates?.length ?? 0} map candidates)`);
  options.onIndex(index);
  const paths = mapFilesOf(index.mapCandidates ?? index.paths);
  const files = extractSymbols({ root: index.root, paths });
  traceStartup(`indexer thread: extracted ${files.length} files`);
  const ranked = rankFiles({ files, mentioned: mentionedFiles(index.root, paths) });
  traceStartup('indexer thread: ranked');
  return ranked;
}

export interface CachedScanAndMapOptions {
  onIndex(index: FileIndex): void;
  onRanked(ranked: RepoMapFile[]): void;
  /** Where the cache is, and which build it is for (tests); default the state folder and this build. */
  cache?: CacheOptions;
  /** The wall clock that dates the scan against the files' stamps (tests); default `Date.now`. */
  now?: () => number;
  /** The entry was looked up already, and missed (`prestart.ts` does on the main thread): scan, then save. */
  missed?: boolean;
}

/**
 * {@link scanAndMap} with default caps through the bootstrap cache (`bootstrap-cache.ts`): an
 * entry for this tree as it is now answers both at once; otherwise the tree is scanned and ranked,
 * `onRanked` gets the result, and only then is the entry written (off the way to the first
 * request). Returns whether the cache answered.
 */
export function cachedScanAndMap(root: string, options: CachedScanAndMapOptions): boolean {
  const enabled = cacheEnabled();
  const hit = enabled && !options.missed ? loadBootstrap(root, options.cache) : undefined;
  if (!options.missed) traceStartup(`bootstrap cache: ${!enabled ? 'off' : hit ? 'hit' : 'miss'}`);
  if (hit) {
    options.onIndex(hit.index);
    options.onRanked(hit.ranked);
    return true;
  }
  const startedAt = (options.now ?? Date.now)();
  const folders: string[] = [''];
  let index: FileIndex | undefined;
  let mapFiles: string[] = [];
  const ranked = scanAndMap(root, {
    onIndex(scanned) {
      index = scanned;
      mapFiles = mapFilesOf(scanned.mapCandidates ?? scanned.paths);
      options.onIndex(scanned);
    },
    hooks: { beforeRead: (dir) => folders.push(relative(root, dir).split(sep).join('/')) },
  });
  options.onRanked(ranked);
  if (enabled && index) {
    // The AGENTS.md files, present or not, beside git's: the ranking reads them (`mentions.ts`).
    const stamped = [...repositoryFiles(root), ...agentsMdCandidates(root).files];
    const saved = saveBootstrap(index.root, { index, ranked }, { startedAt, folders, mapFiles, repositoryFiles: stamped }, options.cache);
    traceStartup(`bootstrap cache: ${saved ? 'saved' : 'not saved'}`);
  }
  return false;
}
