import { lstatSync, type Dirent } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TrackedPaths } from './git-index.js';
import type { GitUserEnvironment } from './ignore-global.js';
import { ALWAYS_SKIPPED, IgnoreRules } from './ignore-rules.js';

// The one crawler behind the file index, the repo map and `@`-completion (`../scan.ts`) and the
// `list`, `glob` and `grep` tools (`tool-executor/files/walk.ts`): what the tree is, decided in one
// place, so the index and the tools see the same files.
//
// The tree is what git lists: `git ls-files --cached --others --exclude-standard`. Untracked
// paths that an ignore rule matches are left out (`IgnoreRules`: every `.gitignore` scoped to its
// folder, `info/exclude`, `core.excludesFile`, plus the always-skipped folders); **tracked files
// stay in even when a rule matches them**, as git lists them, and an ignored folder holding
// tracked files is read for those files only. Symlinks are entries of their own (to a file, a
// folder or nowhere), never followed, so a loop is one entry. Sockets, FIFOs, devices, names that
// are not UTF-8 or hold a line break, and entries that vanish are skipped and counted.
//
// Breadth-first, names sorted within a folder. The crawler never reads a folder itself: a driver
// asks {@link Crawl.nextFolder}, lists it (synchronously in an indexer thread, asynchronously in
// the tool executor) and hands the listing to {@link Crawl.take}; caps, depth and cancellation are
// the driver's.

export type EntryKind = 'file' | 'symlink' | 'directory';

/** A folder to read: its path, its path relative to the crawl's start, and its entries' depth. */
export interface CrawlFolder {
  absolute: string;
  /** `/`-separated, relative to the start; `''` for the start itself. */
  rel: string;
  /** 1 for the start folder (its entries are at depth 1). */
  depth: number;
}

/**
 * What a driver does with the tree. Positional arguments, not an entry object: the index crawl
 * calls this tens of thousands of times at startup.
 */
export interface CrawlVisitor {
  /**
   * Asked before the ignore test of a file or symlink: `true` tests and visits it, `false` skips
   * it unseen (a capped index has no room for it), {@link REST_OF_FOLDER} skips it and every entry
   * after it in this folder.
   */
  wants?(name: string): boolean | typeof REST_OF_FOLDER;
  /** One entry of the tree (folders too, before their content). Return false to stop the crawl. */
  entry(rel: string, name: string, kind: EntryKind, folder: CrawlFolder): boolean | void;
}

export const REST_OF_FOLDER = 'rest-of-folder';

export interface CrawlOptions {
  /** The project root: its repository's and its `.gitignore` files' rules apply. */
  root: string;
  /** The folder to crawl, absolute; default `root`. Outside `root`, its own rules apply. */
  start?: string;
  /** Folders deeper than this are not read (1: the start folder only). */
  maxDepth?: number;
  /** `.gitignore` files are looked for in the first this-many folders read only. */
  discoveryFolders?: number;
  /** Replaces HOME and XDG_CONFIG_HOME for the per-user ignore file (tests). */
  environment?: GitUserEnvironment;
  /**
   * No other crawl runs in this thread while this one does (an indexer thread's synchronous
   * scan): the git index may be read into a buffer the thread keeps (`TrackedPaths.read`).
   */
  oneAtATime?: boolean;
}

export interface CrawlStats {
  /** Folders read. */
  directories: number;
  /** Entries left out by ignore rules (an ignored folder counts once: it is not read). */
  ignored: number;
  /** Entries that are no file, folder or symlink, have unusable names, or vanished; and unreadable folders. */
  skipped: number;
  /** Folders that could not be read (also counted in `skipped`). */
  unreadable: number;
}

interface QueuedFolder {
  rel: string;
  depth: number;
}

const ALWAYS = new Set(ALWAYS_SKIPPED);
const everything = () => true;
const nothing = () => false;

type Kind = EntryKind | 'other' | 'gone';

function kindOf(entry: Dirent, absoluteDir: string): Kind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  // The file system did not say (DT_UNKNOWN): ask it.
  try {
    const stat = lstatSync(join(absoluteDir, entry.name));
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
  } catch {
    return 'gone';
  }
}

/**
 * A name that was not valid UTF-8 reaches us with U+FFFD in it and can no longer be opened by that
 * name; one that truly contains U+FFFD still can. A name with a line break would break the
 * one-path-per-line index and every tool's output. Both are skipped.
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

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class Crawl {
  readonly stats: CrawlStats = { directories: 0, ignored: 0, skipped: 0, unreadable: 0 };
  /** The rules in force; null when the start is itself ignored (named explicitly: nothing is filtered). */
  readonly rules: IgnoreRules | null;
  /** The start folder, absolute. */
  readonly start: string;
  /** True when `.gitignore` discovery stopped at `discoveryFolders`. */
  discoveryStopped = false;

  /** The start's path relative to the rules' root, with a trailing `/` (`''` when the same). */
  private readonly prefix: string;
  private readonly maxDepth: number;
  private readonly discoveryFolders: number;
  private readonly oneAtATime: boolean;
  /** Folders to read, by path relative to the start and depth (the absolute path is made when read: most queued folders of a capped crawl never are). */
  private level: QueuedFolder[];
  private next: QueuedFolder[] = [];
  private at = 0;
  /** Ignored folders (relative to the rules' root) read only for the tracked files inside them. */
  private readonly trackedOnly = new Set<string>();
  /** The repository's index, read the first time a rule matches something. */
  private tracked: TrackedPaths | null | undefined;

  constructor(options: CrawlOptions) {
    const root = resolve(options.root);
    this.start = options.start === undefined ? root : resolve(options.start);
    const fromRoot = relative(root, this.start);
    const inside = fromRoot === '' || (fromRoot !== '..' && !fromRoot.startsWith(`..${sep}`) && !isAbsolute(fromRoot));
    const rules = IgnoreRules.create(inside ? root : this.start, options.environment);
    const startRel = inside ? fromRoot.split(sep).join('/') : '';
    this.rules = startRel !== '' && rules.isIgnored(startRel, true) ? null : rules;
    this.prefix = startRel === '' ? '' : `${startRel}/`;
    this.maxDepth = options.maxDepth ?? Infinity;
    this.discoveryFolders = options.discoveryFolders ?? Infinity;
    this.oneAtATime = options.oneAtATime ?? false;
    this.level = [{ rel: '', depth: 1 }];
  }

  /** The next folder to read, breadth-first; undefined when the crawl is done. */
  nextFolder(): CrawlFolder | undefined {
    if (this.at === this.level.length) {
      if (this.next.length === 0) return undefined;
      this.level = this.next;
      this.next = [];
      this.at = 0;
    }
    const { rel, depth } = this.level[this.at++]!;
    return { absolute: rel === '' ? this.start : join(this.start, rel), rel, depth };
  }

  /**
   * One folder's listing (null: it could not be read): its entries in name order, those in the
   * tree visited, its subfolders queued. False when the visitor stopped the crawl.
   */
  take(folder: CrawlFolder, entries: Dirent[] | null, visitor: CrawlVisitor): boolean {
    if (entries === null) {
      this.stats.unreadable++;
      this.stats.skipped++; // unreadable, vanished, or no longer a folder
      return true;
    }
    const stats = this.stats;
    const ignored = this.listed(folder, entries);
    const prefix = this.prefix;
    const queue = folder.depth < this.maxDepth;
    const absoluteDir = folder.absolute;
    for (const entry of entries) {
      const name = entry.name;
      const kind = kindOf(entry, absoluteDir);
      if (kind === 'other' || kind === 'gone' || unusableName(name, absoluteDir)) {
        stats.skipped++;
        continue;
      }
      const rel = folder.rel === '' ? name : `${folder.rel}/${name}`;
      const rulesRel = prefix === '' ? rel : prefix + rel;
      if (kind === 'directory') {
        if (ignored(name, rulesRel, true)) {
          if (name === '.git' || ALWAYS.has(name) || !this.isTracked(rulesRel, true)) {
            stats.ignored++;
            continue;
          }
          this.trackedOnly.add(rulesRel);
        }
        if (visitor.entry(rel, name, kind, folder) === false) return false;
        if (queue) this.next.push({ rel, depth: folder.depth + 1 });
        continue;
      }
      if (visitor.wants) {
        const wanted = visitor.wants(name);
        if (wanted !== true) {
          if (wanted === REST_OF_FOLDER) break;
          continue;
        }
      }
      if (ignored(name, rulesRel, false) && (name === '.git' || !this.isTracked(rulesRel, false))) {
        stats.ignored++;
        continue;
      }
      if (visitor.entry(rel, name, kind, folder) === false) return false;
    }
    return true;
  }

  /**
   * Notes a folder as read and sorts its entries; tells the rules what the listing shows (a
   * `.gitignore`, a `.git`) and returns the test for its entries.
   */
  private listed(folder: CrawlFolder, entries: Dirent[]): (name: string, rel: string, isDirectory: boolean) => boolean {
    if (++this.stats.directories === this.discoveryFolders + 1) {
      this.rules?.stopDiscovery();
      this.discoveryStopped = true;
    }
    entries.sort(byName);
    const rules = this.rules;
    if (rules === null) return nothing;
    const relDir = folder.rel === '' ? this.prefix.slice(0, -1) : this.prefix + folder.rel;
    if (this.trackedOnly.has(relDir)) return everything;
    // Sorted by name, so both are found among the first few entries.
    let hasIgnoreFile = false;
    let hasGit = false;
    for (const entry of entries) {
      if (entry.name > '.gitignore') break;
      if (entry.name === '.git') hasGit = relDir !== '';
      else if (entry.name === '.gitignore') hasIgnoreFile = true;
    }
    rules.noteFolder(relDir, hasIgnoreFile, hasGit);
    return rules.entryTest(relDir);
  }

  /** True for a tracked file, or with `folder` a folder holding tracked files (relative to the rules' root). */
  private isTracked(rel: string, folder: boolean): boolean {
    if (this.tracked === undefined) this.tracked = this.rules?.repository ? TrackedPaths.read(this.rules.repository, this.oneAtATime) : null;
    return this.tracked !== null && this.tracked.has(rel, folder);
  }
}
