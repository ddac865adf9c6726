import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRepository } from './ignore-rules.js';

// The tracked paths of a repository, read from its index file (`.git/index`, versions 2–4, SHA-1
// or SHA-256), so that the scan lists tracked files an ignore rule matches, as
// `git ls-files --cached` does. Only ignored entries are ever looked up, so the index is not
// decoded: one pass notes where each path name starts, and lookups binary-search the raw bytes
// (the index is sorted by path bytes). Version 4 compresses names against the previous one, so
// its names are decoded once instead.

const GITLINK = 0o160000;
const TYPE_MASK = 0o170000;
const DIRECTORY = 0o040000;

function objectIdLength(commonDir: string): number {
  try {
    const config = readFileSync(join(commonDir, 'config'), 'utf8');
    return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
  } catch {
    return 20;
  }
}

/**
 * An index up to this size is read into one buffer the thread keeps: a fresh multi-megabyte buffer
 * per scan costs more in page faults than the read itself (3.6 MB index: 1.6 ms vs 0.15 ms warm,
 * measured). Larger ones are read into a buffer of their own and let go.
 */
const KEPT_BUFFER_MAX = 16 * 1024 * 1024;
let kept: Buffer | undefined;

/** The bytes of the index file; with `reuse`, in the kept buffer when it fits, valid until the next call. */
function readIndexFile(path: string, reuse: boolean): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (!reuse || size > KEPT_BUFFER_MAX) return readFileSync(fd);
    if (!kept || kept.length < size) kept = Buffer.allocUnsafe(Math.min(KEPT_BUFFER_MAX, Math.max(size + (size >> 2), 64 * 1024)));
    let got = 0;
    while (got < size) {
      const read = readSync(fd, kept, got, size - got, got);
      if (read === 0) break; // shrank while read: what is there is checked like any other index
      got += read;
    }
    return kept.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Git's offset varint (`decode_varint`), used by index version 4. */
function readVarint(buffer: Buffer, at: number): [value: number, next: number] {
  let byte = buffer[at++]!;
  let value = byte & 127;
  while (byte & 128) {
    byte = buffer[at++]!;
    value = ((value + 1) << 7) | (byte & 127);
  }
  return [value, at];
}

/** Lookups in one repository's index, for paths relative to the scan root. */
export class TrackedPaths {
  private constructor(
    /** Path names, back to back: name i is `names[starts[i] .. ends[i]]`. */
    private readonly names: Buffer,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    private readonly count: number,
    /** The scan root relative to the repository top, with a trailing `/` (or empty). */
    private readonly prefix: string,
  ) {}

  /**
   * Reads the index of `repository`; null when there is none or it cannot be read. With `reuse`
   * (one crawl at a time in the thread, as in an indexer thread), the bytes may go in the kept
   * buffer and lookups are valid only until the next such `read`; crawls that overlap (the tool
   * executor's) each read into a buffer of their own.
   */
  static read(repository: GitRepository, reuse = false): TrackedPaths | null {
    let buffer: Buffer;
    try {
      buffer = readIndexFile(join(repository.gitDir, 'index'), reuse);
    } catch {
      return null; // a fresh repository has no index yet
    }
    if (buffer.length < 12 || buffer.toString('latin1', 0, 4) !== 'DIRC') return null;
    const version = buffer.readUInt32BE(4);
    if (version < 2 || version > 4) return null;
    const count = buffer.readUInt32BE(8);
    const idLength = objectIdLength(repository.commonDir);
    const fixed = 40 + idLength + 2; // stat data, object id, flags
    const prefix = repository.prefix === '' ? '' : `${repository.prefix}/`;
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    let kept = 0;
    let at = 12;
    if (version !== 4) {
      // Plain byte reads, no Buffer method calls: this loop runs once per tracked file, mostly
      // before the JIT has warmed up (a cold scan at startup).
      const length = buffer.length;
      const v3 = version === 3;
      for (let i = 0; i < count; i++) {
        if (at + fixed > length) return null;
        const type = ((buffer[at + 26]! << 8) | buffer[at + 27]!) & TYPE_MASK; // low half of the mode
        const flagsAt = at + 40 + idLength;
        const flags = (buffer[flagsAt]! << 8) | buffer[flagsAt + 1]!;
        const start = at + fixed + (v3 && flags & 0x4000 ? 2 : 0);
        const short = flags & 0xfff;
        const end = short < 0xfff ? start + short : buffer.indexOf(0, start);
        if (end < 0 || end > length) return null;
        if (type !== GITLINK && type !== DIRECTORY) {
          starts[kept] = start;
          ends[kept++] = end;
        }
        at += (end - at + 8) & ~7;
      }
      return new TrackedPaths(buffer, starts, ends, kept, prefix);
    }
    // Version 4: names decoded one after the other into a fresh buffer.
    let names = Buffer.alloc(buffer.length * 2);
    let written = 0;
    let previousStart = 0;
    let previousEnd = 0;
    for (let i = 0; i < count; i++) {
      if (at + fixed > buffer.length) return null;
      const mode = buffer.readUInt32BE(at + 24);
      const flags = buffer.readUInt16BE(at + 40 + idLength);
      const [strip, start] = readVarint(buffer, at + fixed + (flags & 0x4000 ? 2 : 0));
      const end = buffer.indexOf(0, start);
      const keep = previousEnd - previousStart - strip;
      if (end < 0 || keep < 0) return null;
      if (written + keep + (end - start) > names.length) {
        const grown = Buffer.alloc(Math.max(names.length * 2, written + keep + (end - start)));
        names.copy(grown, 0, 0, written);
        names = grown;
      }
      const nameStart = written;
      names.copy(names, written, previousStart, previousStart + keep);
      written += keep;
      written += buffer.copy(names, written, start, end);
      previousStart = nameStart;
      previousEnd = written;
      at = end + 1;
      const type = mode & TYPE_MASK;
      if (type !== GITLINK && type !== DIRECTORY) {
        starts[kept] = nameStart;
        ends[kept++] = written;
      }
    }
    return new TrackedPaths(names, starts, ends, kept, prefix);
  }

  /**
   * True when `rel` (relative to the scan root) is a tracked file, or with `folder`, a folder
   * holding tracked files. One binary search of the raw names: only ignored entries are looked up.
   * An ASCII path (nearly all) is compared by its char codes, which are its UTF-8 bytes: no
   * buffer per lookup and no `Buffer.compare` call (with its argument checks) per probe.
   */
  has(rel: string, folder: boolean): boolean {
    const text = folder ? `${this.prefix}${rel}/` : `${this.prefix}${rel}`;
    const key: string | Buffer = isAscii(text) ? text : Buffer.from(text);
    const i = this.lowerBound(key);
    if (i >= this.count) return false;
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    // A folder: the first name at or after `rel/` starts with it; a file: that name is `rel`.
    if (folder) return end - start > key.length && this.compare(key, start, start + key.length) === 0;
    return this.compare(key, start, end) === 0;
  }

  /** The first entry whose name is not below `key` in byte order. */
  private lowerBound(key: string | Buffer): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(key, this.starts[mid]!, this.ends[mid]!) > 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** `key` against the name bytes `start`..`end`, as `Buffer.compare` orders them (a prefix first). */
  private compare(key: string | Buffer, start: number, end: number): number {
    const names = this.names;
    const length = key.length;
    const ascii = typeof key === 'string';
    let at = start;
    for (let k = 0; k < length; k++, at++) {
      if (at === end) return 1;
      const byte = ascii ? key.charCodeAt(k) : key[k]!;
      const other = names[at]!;
      if (byte !== other) return byte < other ? -1 : 1;
    }
    return at === end ? 0 : -1;
  }
}

/** True when every char code of `text` is below 128 (its UTF-8 bytes are its char codes). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}
