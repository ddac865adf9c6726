import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { IgnoreRules } from '../indexer/crawl/ignore-rules.js';
import { isInsideProject } from './paths.js';

/**
 * Breadth-first walk for list, glob and grep: the project's ignore rules (the indexer's
 * `IgnoreRules`, git-exact) applied, symlinks listed but not followed, unreadable folders skipped.
 * Naming an ignored folder as the start lists it anyway (and what is inside it, unfiltered).
 */

export interface WalkEntry {
  /** `/`-separated, relative to the start folder. */
  rel: string;
  absolute: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** 1 for the start folder's own entries. */
  depth: number;
}

export interface WalkOptions {
  root: string;
  start: string;
  maxDepth?: number;
  /** Entries visited (shown or not) before the walk stops. */
  maxEntries?: number;
  signal?: AbortSignal;
}

export interface WalkStats {
  visited: number;
  /** Entries skipped by ignore rules (an ignored folder counts once; its content is not walked). */
  hidden: number;
  unreadable: number;
  /** Stopped by maxEntries or by the visitor. */
  stopped: boolean;
  aborted: boolean;
  /** The start folder itself is ignored, so nothing was filtered. */
  unfiltered: boolean;
}

/** Return false to stop the walk. */
export type WalkVisitor = (entry: WalkEntry) => boolean | void;

export async function walk(options: WalkOptions, visit: WalkVisitor): Promise<WalkStats> {
  const rulesRoot = isInsideProject(options.root, options.start) ? options.root : options.start;
  const rules = IgnoreRules.create(rulesRoot);
  const toRulesRel = (absolute: string) => relative(rulesRoot, absolute).split(sep).join('/');
  const startRel = toRulesRel(options.start);
  const unfiltered = startRel !== '' && !startRel.startsWith('..') && rules.isIgnored(startRel, true);
  const stats: WalkStats = { visited: 0, hidden: 0, unreadable: 0, stopped: false, aborted: false, unfiltered };
  const maxDepth = options.maxDepth ?? Infinity;
  const maxEntries = options.maxEntries ?? Infinity;
  let level: { absolute: string; rel: string }[] = [{ absolute: options.start, rel: '' }];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const next: { absolute: string; rel: string }[] = [];
    for (const folder of level) {
      if (options.signal?.aborted) {
        stats.aborted = true;
        return stats;
      }
      let entries: Dirent[];
      try {
        entries = await readdir(folder.absolute, { withFileTypes: true });
      } catch {
        stats.unreadable++;
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of entries) {
        const absolute = join(folder.absolute, dirent.name);
        const rel = folder.rel === '' ? dirent.name : `${folder.rel}/${dirent.name}`;
        const kind = dirent.isDirectory() ? 'directory' : dirent.isFile() ? 'file' : dirent.isSymbolicLink() ? 'symlink' : 'other';
        if (!unfiltered && rules.isEntryIgnored(toRulesRel(absolute), kind === 'directory')) {
          stats.hidden++;
          continue;
        }
        if (++stats.visited > maxEntries) {
          stats.stopped = true;
          return stats;
        }
        if (visit({ rel, absolute, kind, depth }) === false) {
          stats.stopped = true;
          return stats;
        }
        if (kind === 'directory') next.push({ absolute, rel });
      }
    }
    level = next;
  }
  return stats;
}
