import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { Crawl, type CrawlVisitor, type EntryKind } from '../../indexer/crawl/crawler.js';
import { isInsideProject } from './paths.js';
import { credentialEntries } from '../safety/credential-paths.js';

export interface WalkEntry {
  /** `/`-separated, relative to the start folder. */
  rel: string;
  absolute: string;
  kind: EntryKind;
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
  /** Credential paths below the start, left out (naming one as the start asks first: SPEC §16). */
  credentials: number;
}

/** Return false to stop the walk. */
export type WalkVisitor = (entry: WalkEntry) => boolean | void;

/** How long the walk reads before it lets other work (an abort) in. */
const SLICE_MS = 8;

/**
 * The breadth-first walk of list, glob and grep: the indexer's crawler (`indexer/crawl/crawler.ts`)
 * driven with asynchronous listings, so the tools see the tree the file index sees (git's:
 * ignored paths left out, tracked files kept, symlinks listed and never followed, sockets and
 * unusable names skipped), only deeper and without its caps. Naming an ignored folder as the
 * start lists it anyway (and what is inside it, unfiltered).
 */
export async function walk(options: WalkOptions, visit: WalkVisitor): Promise<WalkStats> {
  // A start outside the project (on real paths: a symlinked folder may lead out) has its own rules.
  const root = isInsideProject(options.root, options.start) ? options.root : options.start;
  const crawl = new Crawl({ root, start: options.start, maxDepth: options.maxDepth });
  const stats: WalkStats = { visited: 0, hidden: 0, unreadable: 0, stopped: false, aborted: false, unfiltered: crawl.rules === null, credentials: 0 };
  const credential = credentialEntries(options.start);
  const maxEntries = options.maxEntries ?? Infinity;
  const visitor: CrawlVisitor = {
    entry(rel, name, kind, folder) {
      if (++stats.visited > maxEntries || visit({ rel, absolute: join(folder.absolute, name), kind, depth: folder.depth }) === false) {
        stats.stopped = true;
        return false;
      }
    },
  };
  // Listings are read synchronously, in slices of a few milliseconds with a turn of the event loop
  // between them (where an abort arrives): a thread-pool round trip per folder cost 3× the walk.
  let sliceStart = performance.now();
  for (let folder = crawl.nextFolder(); folder !== undefined; folder = crawl.nextFolder()) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    if (options.signal?.aborted) {
      stats.aborted = true;
      break;
    }
    let entries: Dirent[] | null = null;
    try {
      entries = readdirSync(folder.absolute, { withFileTypes: true });
    } catch {
      // counted by the crawl as unreadable
    }
    if (entries && credential) {
      const before = entries.length;
      entries = entries.filter((entry) => !credential(folder.absolute, entry.name));
      stats.credentials += before - entries.length;
    }
    if (!crawl.take(folder, entries, visitor)) break;
  }
  stats.hidden = crawl.stats.ignored;
  stats.unreadable = crawl.stats.unreadable;
  return stats;
}
