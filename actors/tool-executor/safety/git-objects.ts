import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';

// Git's object format, for a store that writes the few objects of a snapshot itself (blobs of the
// changed files, the trees on their way to the root, the commit) as loose objects: no git process
// and no index. The layout is git's own: `objects/<2 hex>/<38 hex>`, the zlib-deflated
// `<type> <size>\0<body>`, read-only, made in one rename. SHA-1 stores only (the store's `git init`).

/** One entry of a tree. `name` holds the name's bytes one char per byte (latin1): sorting and writing stay byte-exact. */
export interface TreeEntry {
  name: string;
  /** Git's octal mode as a tree spells it: `100644`, `100755`, `120000`, `40000`, `160000`. */
  mode: string;
  /** 40 hex digits. */
  oid: string;
}

export type ObjectType = 'blob' | 'tree' | 'commit';

export const TREE_MODE = '40000';
/** The tree with nothing in it (git knows it without storing it). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const OID = /^[0-9a-f]{40}$/;

const deflated = promisify(deflate);

export function objectId(type: ObjectType, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** A tree's bytes: entries in git's order (a folder's name compares as if it ended in `/`). */
export function encodeTree(entries: Iterable<TreeEntry>): Buffer {
  const sorted = [...entries].sort((a, b) => {
    const x = a.mode === TREE_MODE ? `${a.name}/` : a.name;
    const y = b.mode === TREE_MODE ? `${b.name}/` : b.name;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const parts: Buffer[] = [];
  for (const entry of sorted) parts.push(Buffer.from(`${entry.mode} ${entry.name}\0`, 'latin1'), Buffer.from(entry.oid, 'hex'));
  return Buffer.concat(parts);
}

export function decodeTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (let at = 0; at < body.length; ) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw new Error('a malformed tree object');
    entries.push({ mode: body.toString('latin1', at, space), name: body.toString('latin1', space + 1, nul), oid: body.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

/** A commit without parents (snapshots are kept reachable by refs), by reika, at `date`. */
export function encodeCommit(tree: string, message: string, date: Date): Buffer {
  const who = `reika <checkpoints@reika.invalid> ${Math.floor(date.getTime() / 1000)} +0000`;
  const text = message.replace(/\0/g, '').replace(/\n*$/, '\n');
  return Buffer.from(`tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${text}`, 'utf8');
}

/**
 * Writes loose objects into one object folder; a loose object that is there already is not written
 * again. `write` names the object at once and writes it meanwhile: `flush` before a ref points at it.
 */
export class LooseObjects {
  private writing: Promise<void>[] = [];

  constructor(private readonly objectsDir: string) {}

  write(type: ObjectType, body: Buffer): string {
    const oid = objectId(type, body);
    this.writing.push(this.store(oid, Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])));
    return oid;
  }

  /** Resolves when every object named so far is on disk; rejects if one could not be written. */
  async flush(): Promise<void> {
    const writing = this.writing;
    this.writing = [];
    const results = await Promise.allSettled(writing);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async store(oid: string, raw: Buffer): Promise<void> {
    const dir = join(this.objectsDir, oid.slice(0, 2));
    const path = join(dir, oid.slice(2));
    if (await access(path).then(() => true, () => false)) return;
    // Small objects (most trees, the commit) deflate quicker here than through the thread pool.
    const data = raw.length < 64 * 1024 ? deflateSync(raw, { level: 1 }) : await deflated(raw, { level: 1 });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temporary = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
    try {
      // Read-only and private, as git makes them in the store (core.sharedRepository=0600).
      await writeFile(temporary, data, { mode: 0o400 });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
