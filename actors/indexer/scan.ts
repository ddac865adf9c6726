import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CAPS, type ScanCaps } from './caps.js';
import type { CapName, FileIndex } from './protocol.js';
import { ALWAYS_SKIPPED, IgnoreRules } from './crawl/ignore-rules.js';
import { TrackedPaths } from './crawl/git-index.js';
import { isSourceFile } from './map/source-files.js';

/** What one directory entry is, as far as the index cares. */
type Kind = 'directory' | 'file' | 'other' | 'gone';

function kindOf(entry: Dirent, absoluteDir: string): Kind {
  if (entry.isFile() || entry.isSymbolicLink()) return 'file'; // symlinks are listed, never followed
  if (entry.isDirectory()) return 'directory';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  // The file system did not say (DT_UNKNOWN): ask it.
  try {
    const stat = lstatSync(join(absoluteDir, entry.name));
    return stat.isFile() || stat.isSymbolicLink() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'gone';
  }
}

/**
 * A name that was not valid UTF-8 reaches us with U+FFFD in it and can no longer be opened by that
 * name; one that truly contains U+FFFD still can. A name with a line break would break the
 * one-path-per-line index. Both are skipped.
 */
function unusableName(name: string, absoluteDir: string): boolean {
  // Three plain searches: cheaper than a regular expression on a cold start (measured).
  if (name.includes('\n') || name.includes('\r')) return true;
  if (!name.includes('\uFFFD')) return false;
  try {
    lstatSync(join(absoluteDir, name));
    return false;
  } catch {
    return true;
  }
}

const ALWAYS = new Set(ALWAYS_SKIPPED);
const everything = () => true;

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** For tests: lets another "process" change the tree at a chosen moment of a synchronous scan. */
export interface ScanHooks {
  /** Called right before a folder (not the root) is listed. */
  beforeRead?(absoluteDir: string): void;
}

/**
 * Breadth-first crawl of `root` within caps, applying git's ignore rules: one folder at a time,
 * each listed once with `readdir(withFileTypes)`, its entries sorted by name, ignored folders
 * pruned and never read. Paths come out level by level, so a capped index is shallow-first.
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
  const rules = IgnoreRules.create(absoluteRoot);
  const paths: string[] = [];
  const mapCandidates: string[] = [];
  const capped = new Set<CapName>();
  const stats = { directories: 0, files: 0, ignored: 0, skipped: 0, ms: 0 };
  // Tracked files stay listed even when a rule matches them (git ls-files --cached); the index is
  // read the first time a rule matches something, and searched for each matched entry.
  let tracked: TrackedPaths | null | undefined;
  const isTracked = (rel: string, folder: boolean): boolean => {
    if (tracked === undefined) tracked = rules.repository ? TrackedPaths.read(rules.repository) : null;
    return tracked !== null && tracked.has(rel, folder);
  };
  /** Ignored folders walked only for the tracked files inside them. */
  const trackedOnly = new Set<string>();

  // The first listing is the root's own: failing there is an error, not an empty index.
  let rootEntries: Dirent[];
  try {
    rootEntries = readdirSync(absoluteRoot, { withFileTypes: true });
  } catch (error) {
    throw new Error(describeRootError(absoluteRoot, error));
  }
  let level: string[] = [''];
  let pending: Dirent[] | undefined = rootEntries;

  /** True while reading more folders can still add something within the caps. */
  const wanted = () =>
    paths.length < limits.indexPaths || (mapCandidates.length < limits.mapFiles && stats.directories < limits.mapDirectories);

  walk: while (level.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i++) {
      const dir = level[i]!;
      if (!wanted()) {
        markUnseen();
        break walk;
      }
      if (stats.directories >= limits.scanDirectories) {
        capped.add('directories');
        markUnseen();
        break walk;
      }
      const absoluteDir = dir === '' ? absoluteRoot : join(absoluteRoot, dir);
      let entries: Dirent[];
      try {
        if (pending) entries = pending;
        else {
          hooks.beforeRead?.(absoluteDir);
          entries = readdirSync(absoluteDir, { withFileTypes: true });
        }
      } catch {
        stats.skipped++; // unreadable, vanished, or no longer a folder
        continue;
      } finally {
        pending = undefined;
      }
      stats.directories++;
      if (stats.directories === limits.gitignoreDirectories + 1) {
        rules.stopDiscovery();
        capped.add('gitignore-directories');
      }
      entries.sort(byName);
      let ignored: (name: string, rel: string, isDirectory: boolean) => boolean = everything;
      if (!trackedOnly.has(dir)) {
        // Sorted by name, so both are found among the first few entries.
        let hasIgnoreFile = false;
        let hasGit = false;
        for (const entry of entries) {
          if (entry.name > '.gitignore') break;
          if (entry.name === '.git') hasGit = dir !== '';
          else if (entry.name === '.gitignore') hasIgnoreFile = true;
        }
        rules.noteFolder(dir, hasIgnoreFile, hasGit);
        ignored = rules.entryTest(dir);
      }
      const mapOpen = stats.directories <= limits.mapDirectories;
      for (const entry of entries) {
        const name = entry.name;
        const rel = dir === '' ? name : `${dir}/${name}`;
        const kind = kindOf(entry, absoluteDir);
        if (kind === 'other' || kind === 'gone' || unusableName(name, absoluteDir)) {
          stats.skipped++;
          continue;
        }
        if (kind === 'directory') {
          if (!ignored(name, rel, true)) next.push(rel);
          else if (name !== '.git' && !ALWAYS.has(name) && isTracked(rel, true)) {
            trackedOnly.add(rel);
            next.push(rel);
          } else stats.ignored++;
          continue;
        }
        const indexOpen = paths.length < limits.indexPaths;
        const candidate = isSourceFile(name);
        const source = mapOpen && candidate;
        if (!indexOpen && !source) {
          capped.add('files');
          // Nothing in this folder can be added any more once the map is closed too.
          if (!mapOpen || mapCandidates.length >= limits.mapFiles) break;
          continue; // past the index cap only map candidates are still worth an ignore check
        }
        if (ignored(name, rel, false) && (name === '.git' || !isTracked(rel, false))) {
          stats.ignored++;
          continue;
        }
        stats.files++;
        if (indexOpen) paths.push(rel);
        else capped.add('files');
        if (source) {
          if (mapCandidates.length < limits.mapFiles) mapCandidates.push(rel);
          else capped.add('map-files');
        } else if (candidate && mapCandidates.length < limits.mapFiles) {
          capped.add('map-directories');
        }
      }
    }
    level = next;
  }

  /** The walk stopped with folders left unread: say which caps kept them out. */
  function markUnseen(): void {
    if (paths.length >= limits.indexPaths) capped.add('files');
    if (mapCandidates.length >= limits.mapFiles) capped.add('map-files');
    else if (stats.directories >= limits.mapDirectories) capped.add('map-directories');
  }

  stats.ms = Math.round((performance.now() - started) * 10) / 10;
  return { root: absoluteRoot, paths, capped: [...capped], mapCandidates, stats };
}

/** One sentence for a root that cannot be scanned. */
export function describeRootError(root: string, error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return `${root} does not exist`;
  if (code === 'ENOTDIR') return `${root} is not a folder`;
  if (code === 'EACCES' || code === 'EPERM') return `${root} cannot be read (permission denied)`;
  return `${root} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
