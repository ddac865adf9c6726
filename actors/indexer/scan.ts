import { readdirSync, type Dirent } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CAPS, type ScanCaps } from './caps.js';
import { Crawl, REST_OF_FOLDER, type CrawlVisitor, type EntryKind } from './crawl/crawler.js';
import { isSourceFile } from './map/source-files.js';
import type { CapName, FileIndex } from './protocol.js';

/** For tests: lets another "process" change the tree at a chosen moment of a synchronous scan. */
export interface ScanHooks {
  /** Called right before a folder (not the root) is listed. */
  beforeRead?(absoluteDir: string): void;
}

/**
 * The file index and the repo map's candidates: the shared breadth-first crawl
 * (`crawl/crawler.ts`: git's tree, tracked files kept, symlinks listed and never followed) within
 * the caps of SPEC §2. Paths come out level by level, so a capped index is shallow-first.
 * Synchronous on purpose: it runs in an indexer worker thread, where blocking calls are the
 * fastest way through the file system (measured in `bench/scan.bench.ts`).
 *
 * Unreadable or vanished folders and files, sockets, FIFOs, devices and names that are not
 * UTF-8 are counted in `stats.skipped` and never stop the scan.
 */
export function scan(root: string, caps: Partial<ScanCaps> = {}, hooks: ScanHooks = {}): FileIndex {
  const started = performance.now();
  const limits: ScanCaps = { ...DEFAULT_CAPS, ...caps };
  const absoluteRoot = resolve(root);
  const crawl = new Crawl({ root: absoluteRoot, discoveryFolders: limits.gitignoreDirectories, oneAtATime: true });
  const paths: string[] = [];
  const mapCandidates: string[] = [];
  // Which caps were hit, as plain flags: the hot paths only store a boolean (a Set call first
  // reached mid-scan would deoptimise the crawl's compiled code at every cap).
  let filesCapped = false;
  let mapFilesCapped = false;
  let mapDirectoriesCapped = false;
  let directoriesCapped = false;
  let files = 0;
  /** Whether the folder being listed is among the first `mapDirectories` read. */
  let mapOpen = true;

  /** Whether the file `wants` was last asked about is a source file (its `entry`, if any, follows). */
  let source = false;
  const visitor: CrawlVisitor = {
    wants(name) {
      source = isSourceFile(name);
      // Past the index cap only map candidates are still worth an ignore check; nothing in this
      // folder can be added any more once the map is closed too.
      if (paths.length < limits.indexPaths || (mapOpen && source)) return true;
      filesCapped = true;
      return !mapOpen || mapCandidates.length >= limits.mapFiles ? REST_OF_FOLDER : false;
    },
    entry(rel: string, _name: string, kind: EntryKind) {
      if (kind === 'directory') return;
      files++;
      if (paths.length < limits.indexPaths) paths.push(rel);
      else filesCapped = true;
      if (source && mapOpen) {
        if (mapCandidates.length < limits.mapFiles) mapCandidates.push(rel);
        else mapFilesCapped = true;
      } else if (source && mapCandidates.length < limits.mapFiles) {
        mapDirectoriesCapped = true;
      }
    },
  };

  /** True while reading more folders can still add something within the caps. */
  const wanted = () =>
    paths.length < limits.indexPaths || (mapCandidates.length < limits.mapFiles && crawl.stats.directories < limits.mapDirectories);

  for (let folder = crawl.nextFolder(); folder !== undefined; folder = crawl.nextFolder()) {
    if (!wanted()) {
      markUnseen();
      break;
    }
    if (crawl.stats.directories >= limits.scanDirectories) {
      directoriesCapped = true;
      markUnseen();
      break;
    }
    let entries: Dirent[] | null = null;
    if (folder.rel === '') {
      // The first listing is the root's own: failing there is an error, not an empty index.
      try {
        entries = readdirSync(absoluteRoot, { withFileTypes: true });
      } catch (error) {
        throw new Error(describeRootError(absoluteRoot, error));
      }
    } else {
      try {
        hooks.beforeRead?.(folder.absolute);
        entries = readdirSync(folder.absolute, { withFileTypes: true });
      } catch {
        // unreadable, vanished, or no longer a folder: the crawl counts it
      }
    }
    mapOpen = crawl.stats.directories < limits.mapDirectories;
    crawl.take(folder, entries, visitor);
  }

  /** The walk stopped with folders left unread: say which caps kept them out. */
  function markUnseen(): void {
    if (paths.length >= limits.indexPaths) filesCapped = true;
    if (mapCandidates.length >= limits.mapFiles) mapFilesCapped = true;
    else if (crawl.stats.directories >= limits.mapDirectories) mapDirectoriesCapped = true;
  }

  const { directories, ignored, skipped } = crawl.stats;
  const ms = Math.round((performance.now() - started) * 10) / 10;
  const capped: CapName[] = [];
  if (filesCapped) capped.push('files');
  if (mapFilesCapped) capped.push('map-files');
  if (mapDirectoriesCapped) capped.push('map-directories');
  if (crawl.discoveryStopped) capped.push('gitignore-directories');
  if (directoriesCapped) capped.push('directories');
  return { root: absoluteRoot, paths, capped, mapCandidates, stats: { directories, files, ignored, skipped, ms } };
}

/** One sentence for a root that cannot be scanned. */
export function describeRootError(root: string, error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return `${root} does not exist`;
  if (code === 'ENOTDIR') return `${root} is not a folder`;
  if (code === 'EACCES' || code === 'EPERM') return `${root} cannot be read (permission denied)`;
  return `${root} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
