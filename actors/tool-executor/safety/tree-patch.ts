import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { forEachLimit } from './for-each-limit.js';
import { encodeTree, objectId, TREE_MODE, type LooseObjects, type TreeEntry } from './git-objects.js';
import type { TreeReader } from './tree-reader.js';

// A snapshot made from the last one and the paths the watcher saw change, without git's index:
// what the last tree holds under each changed path is read from the store (tree-reader.ts), what
// the folder holds there now is read from disk — the files held before that still exist, and the
// files git would list as untracked and not ignored (asked of git with an empty index, so the
// store's 3.7 MB index is neither read nor written) — and only the trees from those paths up to
// the root are written again (git-objects.ts). The rules are those of a full walk (`git status`
// and `update-index --add --remove` against the index): a held file stays held while it exists as
// a file or link, even where an ignore rule now matches it; a path under a symbolic link is gone;
// files over the size cap are not held; nested repositories are not the project's.
//
// Whatever it does not handle — submodules, names that are not UTF-8, more files or bytes than a
// full walk would read as quickly — makes it decline (undefined), and the caller walks the tree.

/** More files than this to read under the changed paths: a full walk is as quick. */
const MAX_FILES = 2_000;
const MAX_BYTES = 256 * 1024 * 1024;
/** More entries than this under the changed paths in the last tree: decline. */
const MAX_HELD = 10_000;

export interface PatchContext {
  root: string;
  maxFileBytes: number;
  reader: TreeReader;
  /** The project-relative files under these paths that git lists as untracked and not ignored (`dir/` for a nested repository). */
  untracked(paths: string[]): Promise<string[]>;
}

export interface Held {
  mode: string;
  oid: string;
}

/** What the last tree and the folder hold under the changed paths. Paths are project-relative. */
export interface WorktreeScan {
  /** The changed paths, none inside another. */
  paths: string[];
  /** What the last tree holds under them. */
  before: Map<string, Held>;
  /** What a snapshot holds under them now (with the bytes of each file, to write). */
  after: Map<string, Held & { body: Buffer }>;
  /** Files under them not held for their size. */
  skipped: string[];
}

// Thrown and caught in this file only (the scan gives up: undefined), so a plain Error, not a ReikaError.
class Decline extends Error {}

/** Reads what changed under `changed` since tree `base`; undefined: walk the whole tree. */
export async function scanChanges(context: PatchContext, base: string, changed: string[]): Promise<WorktreeScan | undefined> {
  try {
    return await scan(context, base, changed);
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
}

async function scan(context: PatchContext, base: string, changed: string[]): Promise<WorktreeScan> {
  const all = new Set(changed);
  const paths = [...all].filter((path) => !hasAncestorIn(path, all)).sort();
  const before = new Map<string, Held>();
  await Promise.all(paths.map((path) => heldUnder(context.reader, base, path, before)));

  const full = (path: string) => join(context.root, path);
  const candidates = new Set<string>();
  const askGit: string[] = [];
  const kinds = await Promise.all(paths.map((path) => lstat(full(path)).catch(() => undefined)));
  const realDirs = new Map<string, Promise<boolean>>();
  const isRealDir = (dir: string): Promise<boolean> => {
    let known = realDirs.get(dir);
    if (!known) realDirs.set(dir, (known = lstat(full(dir)).then((info) => info.isDirectory(), () => false)));
    return known;
  };
  const heldChecks: Promise<void>[] = [];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    const info = kinds[i];
    if (!info) continue;
    if (info.isDirectory()) {
      askGit.push(path);
      realDirs.set(path, Promise.resolve(true));
      // Held files stay held where ignore rules now match them: kept while no folder on their way became something else.
      for (const held of before.keys()) {
        if (!held.startsWith(`${path}/`)) continue;
        heldChecks.push(
          (async () => {
            for (let at = held.indexOf('/', path.length + 1); at > 0; at = held.indexOf('/', at + 1)) if (!(await isRealDir(held.slice(0, at)))) return;
            candidates.add(held);
          })(),
        );
      }
    } else if (info.isFile() || info.isSymbolicLink()) {
      const held = before.get(path);
      if (held) candidates.add(path);
      else askGit.push(path);
    }
  }
  await Promise.all(heldChecks);
  if (askGit.length > 0) {
    for (const path of await context.untracked(askGit)) {
      if (path.includes('\uFFFD')) throw new Decline();
      // A nested repository is listed as one folder: its files are its own.
      if (path && !path.endsWith('/')) candidates.add(path);
    }
  }
  if (candidates.size > MAX_FILES) throw new Decline();

  const files = [...candidates].sort();
  const infos = await Promise.all(files.map((path) => lstat(full(path)).catch(() => undefined)));
  const skipped: string[] = [];
  let bytes = 0;
  const read: { path: string; link: boolean; mode: string }[] = [];
  files.forEach((path, i) => {
    const info = infos[i];
    // Gone meanwhile, or a folder now whose files git listed: nothing here.
    if (!info) return;
    if (info.isSymbolicLink()) read.push({ path, link: true, mode: '120000' });
    else if (info.isFile()) {
      if (info.size > context.maxFileBytes) return void skipped.push(path);
      bytes += info.size;
      read.push({ path, link: false, mode: (info.mode & 0o100) !== 0 ? '100755' : '100644' });
    }
  });
  if (bytes > MAX_BYTES) throw new Decline();
  const after = new Map<string, Held & { body: Buffer }>();
  await forEachLimit(read, 16, async ({ path, link, mode }) => {
    const body = await (link ? readlink(full(path), { encoding: 'buffer' }) : readFile(full(path))).catch((error: NodeJS.ErrnoException) => {
      // Changed between lstat and read: another pass would see it; this one leaves it out only if it is gone.
      if (error.code === 'ENOENT') return undefined;
      throw new Decline();
    });
    if (body) after.set(path, { mode, oid: objectId('blob', body), body });
  });
  return { paths, before, after, skipped: skipped.sort() };
}

/** Puts into `into` every file the tree `base` holds at or under `path`. */
async function heldUnder(reader: TreeReader, base: string, path: string, into: Map<string, Held>): Promise<void> {
  let tree = base;
  const names = path.split('/');
  for (let i = 0; i < names.length; i++) {
    const entry = (await reader.read(tree)).find((e) => e.name === latin1(names[i]!));
    if (!entry) return;
    if (entry.mode === '160000') throw new Decline();
    if (entry.mode !== TREE_MODE) {
      if (i === names.length - 1) into.set(path, { mode: entry.mode, oid: entry.oid });
      return;
    }
    tree = entry.oid;
  }
  await collect(reader, tree, path, into);
}

async function collect(reader: TreeReader, tree: string, prefix: string, into: Map<string, Held>): Promise<void> {
  const subtrees: Promise<void>[] = [];
  for (const entry of await reader.read(tree)) {
    const name = utf8(entry.name);
    if (entry.mode === '160000' || name === undefined || into.size >= MAX_HELD) throw new Decline();
    const path = `${prefix}/${name}`;
    if (entry.mode === TREE_MODE) subtrees.push(collect(reader, entry.oid, path, into));
    else into.set(path, { mode: entry.mode, oid: entry.oid });
  }
  await Promise.all(subtrees);
}

/** The project-relative paths that differ between `scan.before` and `scan.after` (too-big files count as changed), sorted. */
export function changedPaths(scan: WorktreeScan): string[] {
  const changed = new Set(scan.skipped);
  for (const [path, held] of scan.before) {
    const now = scan.after.get(path);
    if (!now || now.oid !== held.oid || now.mode !== held.mode) changed.add(path);
  }
  for (const path of scan.after.keys()) if (!scan.before.has(path)) changed.add(path);
  return [...changed].sort();
}

interface Node {
  /** Everything the last tree held here is replaced by what the scan found. */
  replaced: boolean;
  file?: Held;
  children: Map<string, Node>;
}

/**
 * Writes the blobs the scan found that `base` does not hold at the same path, and the trees from
 * the changed paths up to the root; returns the new root tree once they are on disk. Undefined: the last tree does not
 * have the shape the changes assume (decline).
 */
export async function writeTree(reader: TreeReader, objects: LooseObjects, base: string, scan: WorktreeScan): Promise<string | undefined> {
  const top: Node = { replaced: false, children: new Map() };
  const at = (path: string): Node => {
    let node = top;
    for (const name of path.split('/').map(latin1)) {
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { replaced: false, children: new Map() }));
      node = child;
    }
    return node;
  };
  for (const path of scan.paths) at(path).replaced = true;
  for (const [path, file] of scan.after) {
    if (scan.before.get(path)?.oid !== file.oid) objects.write('blob', file.body);
    at(path).file = { mode: file.mode, oid: file.oid };
  }
  try {
    return (await write(reader, objects, base, top))?.oid ?? objects.write('tree', encodeTree([]));
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  } finally {
    // Written (or failed) before anyone refers to them.
    await objects.flush();
  }
}

async function write(reader: TreeReader, objects: LooseObjects, base: string | undefined, node: Node): Promise<Held | undefined> {
  if (node.file) return node.file;
  const entries = new Map<string, TreeEntry>();
  if (base && !node.replaced) for (const entry of await reader.read(base)) entries.set(entry.name, entry);
  const made = await Promise.all(
    [...node.children].map(async ([name, child]) => {
      const old = entries.get(name);
      // A folder on the way to a change that was a file in the last tree: that file changed too, unseen.
      if (old && old.mode !== TREE_MODE && !child.replaced) throw new Decline();
      return [name, await write(reader, objects, old?.mode === TREE_MODE && !child.replaced ? old.oid : undefined, child)] as const;
    }),
  );
  for (const [name, entry] of made) {
    if (entry) entries.set(name, { name, ...entry });
    else entries.delete(name);
  }
  if (entries.size === 0) return undefined;
  const list = [...entries.values()];
  const oid = objects.write('tree', encodeTree(list));
  reader.remember(oid, list);
  return { mode: TREE_MODE, oid };
}

function latin1(name: string): string {
  return Buffer.from(name, 'utf8').toString('latin1');
}

/** A name's bytes (latin1) as UTF-8, or undefined when they are not UTF-8. */
function utf8(name: string): string | undefined {
  const bytes = Buffer.from(name, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

function hasAncestorIn(path: string, paths: Set<string>): boolean {
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) if (paths.has(path.slice(0, at))) return true;
  return false;
}
