import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { projectStateDir, stateFolder } from '../state-dir.js';
import { environmentSwitch } from '../settings/process-settings.js';
import { DEFAULT_CAPS } from './caps.js';
import type { FileIndex, RepoMapFile } from './protocol.js';

// The bootstrap cache: the file index and the ranked repo map of a project root, kept
// on disk under `<state>/bootstrap/<key of the root>/` (`cache.json`, `result.json`), so a session
// started in an unchanged tree reuses them instead of crawling and extracting again. The map is deterministic,
// so a hit gives the very bytes a fresh scan would, and the engine sees the same system prompt
// prefix session after session.
//
// Validation is cheap and errs towards a miss: the entry records a stamp (mtime, ctime, size,
// inode) of everything the result was read from — every folder the scan listed (a file added,
// removed or renamed changes its folder), every `.gitignore` within discovery, every file the map
// extracted, and git's `index`, `HEAD` (a branch switch), `info/exclude`, config and the user's
// excludes file — and any stamp that differs, appears or disappears is a miss. A file whose
// stamp is newer than the start of the scan (it may have changed while it was read, or within
// the file system's timestamp granularity after) makes the result unsavable: it is used, never
// kept. A cache written by other code (another build of reika) or with other caps is a miss; a
// corrupt or unreadable file is a miss too, and never an error the user sees.
//
// `REIKA_BOOTSTRAP_CACHE=off` turns it off.

/** The format of `cache.json` and `result.json`; bump when it changes. */
const FORMAT = 2;
/**
 * A stamp this close to (or after) the start of the scan is "racy": a change in the same
 * timestamp tick would not show. Linux keeps file times to the kernel tick (1–10 ms); this leaves
 * a wide margin.
 */
export const RACY_MS = 100;

/** What a hit gives: exactly what the scan and the ranking gave when the entry was written. */
export interface CachedBootstrap {
  index: FileIndex;
  ranked: RepoMapFile[];
}

/** What the cache is checked against: the state folder and the code that makes the result. */
export interface CacheOptions {
  /** The state folder (default `stateFolder()`). */
  stateHome?: string;
  /** Identifies the code that scans and ranks (a cache from other code is a miss); default {@link buildId}. */
  build?: string;
}

/** Paths whose stamps decide: relative to the root, or absolute for files outside it. */
interface Watched {
  paths: string[];
  stamps: (string | null)[];
}

/**
 * An entry is two files: `cache.json`, what decides whether the entry holds (read first, so a miss
 * never parses the result: in the 150k tree the stamps are 0.3 of the entry's 1 MB), and
 * `result.json`, the index and the ranked map. Both carry the entry's `id`: two sessions saving at
 * once may pair one's stamps with the other's result, which is then a miss.
 */
interface Entry {
  format: number;
  build: string;
  root: string;
  caps: unknown;
  id: string;
  watched: Watched;
}

interface Result {
  id: string;
  index: FileIndex;
  ranked: RepoMapFile[];
}

/** Off by `REIKA_BOOTSTRAP_CACHE=off` (read from this thread's environment). */
export function cacheEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return environmentSwitch('REIKA_BOOTSTRAP_CACHE', env);
}

let knownBuild: string | null | undefined;

/**
 * The build's id, written by the build (`scripts/bundle.mjs`: a hash of the emitted code) next to
 * the compiled tree; null when there is none (no cache is read or written then).
 */
export function buildId(): string | null {
  if (knownBuild !== undefined) return knownBuild;
  try {
    knownBuild = (JSON.parse(readFileSync(new URL('../../build-id.json', import.meta.url), 'utf8')) as { id: string }).id || null;
  } catch {
    knownBuild = null;
  }
  return knownBuild;
}

/** Where the entry of `root` is kept (its stamps; the result is `result.json` beside it). */
export function cacheFile(root: string, stateHome: string | undefined): string {
  return join(projectStateDir('bootstrap', root, stateHome ?? stateFolder()), 'cache.json');
}

function resultFile(file: string): string {
  return join(dirname(file), 'result.json');
}

/** One path's stamp, null when it does not exist; with `racyAfter`, undefined when it changed since then. */
function stampOf(path: string, racyAfter = Infinity): string | null | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  if (Math.max(stat.mtimeMs, stat.ctimeMs) >= racyAfter) return undefined;
  return `${stat.mtimeMs}/${stat.ctimeMs}/${stat.size}/${stat.ino}`;
}

function absoluteOf(root: string, path: string): string {
  return path.startsWith('/') || path === '' ? path || root : join(root, path);
}

/** The cached index and map of `root` if the entry is for this tree as it is now; otherwise undefined. */
export function loadBootstrap(root: string, options: CacheOptions = {}): CachedBootstrap | undefined {
  const build = options.build ?? buildId();
  if (build === null) return undefined;
  const file = cacheFile(root, options.stateHome);
  let entry: Entry;
  try {
    entry = JSON.parse(readFileSync(file, 'utf8')) as Entry;
  } catch {
    return undefined; // none yet, unreadable or corrupt: a miss
  }
  if (!isEntry(entry) || entry.format !== FORMAT || entry.build !== build || entry.root !== root || JSON.stringify(entry.caps) !== JSON.stringify(DEFAULT_CAPS)) return undefined;
  const { paths, stamps } = entry.watched;
  try {
    for (let i = 0; i < paths.length; i++) {
      if (stampOf(absoluteOf(root, paths[i]!)) !== stamps[i]) return undefined;
    }
  } catch {
    return undefined; // a path that can no longer be stat'ed (permissions): a miss
  }
  let result: Result;
  try {
    result = JSON.parse(readFileSync(resultFile(file), 'utf8')) as Result;
  } catch {
    return undefined;
  }
  if (!isResult(result) || result.id !== entry.id) return undefined;
  return { index: result.index, ranked: result.ranked };
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<Entry>;
  return (
    typeof entry.id === 'string' &&
    Array.isArray(entry.watched?.paths) &&
    Array.isArray(entry.watched?.stamps) &&
    entry.watched.paths.length === entry.watched.stamps.length &&
    entry.watched.paths.every((path) => typeof path === 'string')
  );
}

function isResult(value: unknown): value is Result {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as Partial<Result>;
  return typeof result.id === 'string' && typeof result.index === 'object' && result.index !== null && Array.isArray(result.index.paths) && Array.isArray(result.index.capped) && Array.isArray(result.ranked);
}

/** What a scan read, for {@link saveBootstrap}: folders listed, files extracted (relative to the root). */
export interface ScanReads {
  /** Wall-clock time (`Date.now()`) just before the scan started. */
  startedAt: number;
  /** Folders listed, `''` for the root. */
  folders: string[];
  /** Files the repo map was extracted from. */
  mapFiles: string[];
  /** Git's and the user's files that decide what is ignored and tracked, absolute (`repository-files.ts`). */
  repositoryFiles: string[];
}

/**
 * Writes the entry for `root` (atomically: a temp file renamed over the old one). Returns false
 * when nothing was written: the cache is off, a watched file is too recent to be trusted, or the
 * state folder cannot be written (never an error: the cache is only a shortcut).
 */
export function saveBootstrap(root: string, result: CachedBootstrap, reads: ScanReads, options: CacheOptions = {}): boolean {
  const build = options.build ?? buildId();
  if (build === null) return false;
  const paths: string[] = [];
  for (const folder of reads.folders) paths.push(folder);
  // A `.gitignore` that appears or goes changes its folder; one edited in place only itself.
  for (const folder of reads.folders.slice(0, DEFAULT_CAPS.gitignoreDirectories)) {
    const file = folder === '' ? '.gitignore' : `${folder}/.gitignore`;
    try {
      if (statSync(join(root, file), { throwIfNoEntry: false })) paths.push(file);
    } catch {
      return false;
    }
  }
  for (const file of reads.mapFiles) paths.push(file);
  for (const file of reads.repositoryFiles) {
    const rel = relative(root, file);
    paths.push(rel !== '' && !rel.startsWith('..') && !rel.startsWith('/') ? rel.split(sep).join('/') : file);
  }
  const file = cacheFile(root, options.stateHome);
  const id = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
  const temp = `${file}.${id}.tmp`;
  const resultTemp = `${resultFile(file)}.${id}.tmp`;
  try {
    const stamps: (string | null)[] = [];
    for (const path of paths) {
      const stamp = stampOf(absoluteOf(root, path), reads.startedAt - RACY_MS);
      if (stamp === undefined) return false;
      stamps.push(stamp);
    }
    const entry: Entry = { format: FORMAT, build, root, caps: DEFAULT_CAPS, id, watched: { paths, stamps } };
    const saved: Result = { id, index: result.index, ranked: result.ranked };
    // Private, as all reika keeps (SPEC §16).
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // The result first: stamps that say "unchanged" never point to a result not yet written.
    writeFileSync(resultTemp, JSON.stringify(saved), { mode: 0o600 });
    renameSync(resultTemp, resultFile(file));
    writeFileSync(temp, JSON.stringify(entry), { mode: 0o600 });
    renameSync(temp, file);
    return true;
  } catch {
    rmSync(temp, { force: true });
    rmSync(resultTemp, { force: true });
    return false;
  }
}
