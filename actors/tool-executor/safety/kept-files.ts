import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeTree, TREE_MODE, type LooseObjects, type TreeEntry } from './git-objects.js';
import { storeGit, type StorePaths } from './store-git.js';

export const MAX_KEPT_FILE_BYTES = 256 * 1024;
/** Kept files at most per project. */
export const MAX_KEPT_FILES = 1_000;
/** Never kept, whatever the ignore rules say: dependencies, build outputs, caches, virtual environments. */
const SKIPPED = /(?:^|\/)(?:node_modules|\.git|\.cache|__pycache__|\.venv|venv|\.tox|\.mypy_cache|\.pytest_cache|\.ruff_cache|target|dist|build|out|\.next|\.nuxt|\.turbo|\.parcel-cache|coverage|\.gradle|\.terraform|vendor)(?:\/|$)/;

interface Kept {
  /** In a folder git ignores whole: no watcher sees it, so every update looks at it again. */
  unwatched: boolean;
  size: number;
  mtimeMs: number;
  ino: number;
  mode: string;
  oid: string;
}

/**
 * Small ignored files a checkpoint keeps beside its snapshot (SPEC §16: nothing lost to
 * `git clean -dx`): `.env*`, local databases, local config — every file git ignores that lies in
 * a folder git does not ignore, up to {@link MAX_KEPT_FILE_BYTES} each and {@link MAX_KEPT_FILES}
 * in all, outside dependency, build and cache folders. Files inside an ignored folder
 * (`node_modules/`, `dist/`, `data/` when `data/` is ignored) are not kept.
 *
 * They make a tree of their own (the snapshot's tree stays what git would see, so comparisons
 * and undo of held files work as before). A listing walks the tree once (`git ls-files --others
 * --ignored --directory`); after it the watcher's changed paths say what to look at again, and a
 * file whose size, time and inode are unchanged is not read again. Nothing changed: the last tree.
 */
export class KeptFiles {
  private readonly files = new Map<string, Kept>();
  private listed = false;
  private tree: string | undefined;
  private changed = true;
  /** Files left out by the caps at the last update (for the docs' promise: said, not silent). */
  leftOut = 0;

  constructor(
    private readonly root: string,
    private readonly paths: StorePaths,
    private readonly objects: LooseObjects,
  ) {}

  /**
   * The tree of the kept files now (undefined when there are none). `changed`: the project-relative
   * paths the watcher saw change since the last call; undefined looks at the whole tree again.
   */
  async update(changed: string[] | undefined, held: (path: string) => Promise<boolean> = async () => false): Promise<string | undefined> {
    if (changed === undefined || !this.listed) {
      const found = await this.list([]);
      const wanted = new Set(found.map((entry) => entry.path));
      for (const path of this.files.keys()) if (!wanted.has(path)) this.drop(path);
      await this.look(found);
      this.listed = true;
    } else {
      // What the watcher saw, and every file in an ignored folder (no watcher there: a stat each).
      const seen = (path: string) => changed.some((c) => path === c || path.startsWith(`${c}/`));
      const again = [...this.files].filter(([path, kept]) => kept.unwatched || seen(path)).map(([path, kept]) => ({ path, unwatched: kept.unwatched }));
      const fresh: string[] = [];
      // A changed file the snapshot holds is not ignored: no need to ask git about it.
      for (const path of changed) if (!SKIPPED.test(path) && !this.files.has(path) && !(await held(path))) fresh.push(path);
      await this.look([...again, ...(fresh.length > 0 ? await this.list(fresh) : [])]);
    }
    if (this.changed) {
      this.tree = this.files.size === 0 ? undefined : this.writeTree();
      this.changed = false;
    }
    return this.tree;
  }

  /** The ignored files (not folders) under `pathspecs` (all: empty). */
  private async list(pathspecs: string[]): Promise<{ path: string; unwatched: boolean }[]> {
    // Against the store's index (what the snapshots hold): git looks inside the folders it holds
    // files of, and names a folder it would not look into (nothing in it held) as a whole.
    const out = await storeGit(this.paths, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--no-empty-directory', '--', ...pathspecs], { timeoutMs: 60_000, env: { GIT_OPTIONAL_LOCKS: '0' } });
    const files: { path: string; unwatched: boolean }[] = [];
    for (const path of out.split('\0')) {
      if (path === '' || SKIPPED.test(path)) continue;
      // A folder git ignores whole (`data/` holding only `dev.sqlite`): its files, when it is small.
      if (path.endsWith('/')) files.push(...smallFolder(join(this.root, path), path).map((inner) => ({ path: inner, unwatched: true })));
      else files.push({ path, unwatched: false });
    }
    return files;
  }

  /** Reads what changed of `candidates` (project-relative); those gone or too big are dropped. */
  private async look(candidates: { path: string; unwatched: boolean }[]): Promise<void> {
    let left = 0;
    for (const { path, unwatched } of candidates.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const info = statOrNot(join(this.root, path));
      if (!info || !info.isFile() || info.size > MAX_KEPT_FILE_BYTES) {
        this.drop(path);
        if (info?.isFile()) left++;
        continue;
      }
      const before = this.files.get(path);
      if (before && before.size === info.size && before.mtimeMs === info.mtimeMs && before.ino === info.ino) continue;
      if (!before && this.files.size >= MAX_KEPT_FILES) {
        left++;
        continue;
      }
      const bytes = await readFile(join(this.root, path)).catch(() => undefined);
      if (!bytes) {
        this.drop(path);
        continue;
      }
      const oid = this.objects.write('blob', bytes);
      const mode = (info.mode & 0o111) !== 0 ? '100755' : '100644';
      if (before?.oid !== oid || before.mode !== mode) this.changed = true;
      this.files.set(path, { unwatched, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, mode, oid });
    }
    this.leftOut = left;
  }

  private drop(path: string): void {
    if (this.files.delete(path)) this.changed = true;
  }

  /** Writes the nested trees of the kept files; returns the top one. */
  private writeTree(): string {
    interface Folder {
      entries: TreeEntry[];
      folders: Map<string, Folder>;
    }
    const top: Folder = { entries: [], folders: new Map() };
    for (const [path, kept] of this.files) {
      const parts = path.split('/');
      let folder = top;
      for (const part of parts.slice(0, -1)) {
        let next = folder.folders.get(part);
        if (!next) folder.folders.set(part, (next = { entries: [], folders: new Map() }));
        folder = next;
      }
      folder.entries.push({ name: Buffer.from(parts.at(-1)!).toString('latin1'), mode: kept.mode, oid: kept.oid });
    }
    const write = (folder: Folder): string => {
      const entries = [...folder.entries];
      for (const [name, inner] of folder.folders) entries.push({ name: Buffer.from(name).toString('latin1'), mode: TREE_MODE, oid: write(inner) });
      return this.objects.write('tree', encodeTree(entries));
    };
    return write(top);
  }
}

/**
 * Why a checkpoint would not keep an ignored file (project-relative `path`, `size` bytes), or
 * undefined when it would: the same rules as {@link KeptFiles}. `folder`: the folder git ignores
 * whole that holds it (`data/`), when it lies in one. The 1,000-file cap is not looked at.
 */
export function notKeptBecause(root: string, path: string, size: number, folder?: string): string | undefined {
  const skipped = SKIPPED.exec(path);
  if (skipped) return `inside ${skipped[0].replace(/^\//, '')}, which checkpoints skip`;
  if (size > MAX_KEPT_FILE_BYTES) return `larger than the ${MAX_KEPT_FILE_BYTES / 1024} KB a checkpoint keeps of an ignored file`;
  if (folder !== undefined && !smallFolder(join(root, folder), folder).includes(path)) return `inside ${folder}, an ignored folder too big for a checkpoint to keep`;
  return undefined;
}

/** Entries of an ignored folder looked at, at most: a bigger one is a cache or an output, not kept. */
const SMALL_FOLDER_ENTRIES = 200;

/** The files of a folder git ignores whole, project-relative, or none when it holds too much. */
function smallFolder(absolute: string, rel: string): string[] {
  const files: string[] = [];
  let seen = 0;
  const walk = (folder: string, prefix: string, depth: number): boolean => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return true;
    }
    for (const name of names) {
      if (++seen > SMALL_FOLDER_ENTRIES) return false;
      const path = `${prefix}${name}`;
      if (SKIPPED.test(path)) continue;
      const info = statOrNot(join(folder, name));
      if (info?.isFile()) files.push(path);
      else if (info?.isDirectory() && depth < 3 && !walk(join(folder, name), `${path}/`, depth + 1)) return false;
    }
    return true;
  };
  return walk(absolute, rel.endsWith('/') ? rel : `${rel}/`, 0) ? files : [];
}

function statOrNot(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
