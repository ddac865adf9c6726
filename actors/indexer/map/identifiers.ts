/**
 * The identifiers a file mentions, as 31-bit hashes (FNV-1a over the UTF-16 code units, shifted to
 * stay a small integer). The ranking matches them against hashes of defined names: no substring
 * is ever cut out of a file, the per-file dedupe is a set of small integers, and the result
 * crosses threads as one typed array.
 *
 * Two different names share a hash about once in two billion pairs; across the ~20,000 names and
 * ~500,000 mentions of a capped repo that is a handful of stray, weightless edges at most, and the
 * same ones on every run, so the map stays byte-stable.
 */

/** Mentions shorter than this are not collected: such names weigh next to nothing in the ranking. */
export const MIN_IDENTIFIER_LENGTH = 4;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Per ASCII code: 1 for `[A-Za-z_$]` (starts a name), 2 for a digit; a table read is cheaper than tests. */
const CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36) CLASS[code] = 1;
  else if (code >= 48 && code <= 57) CLASS[code] = 2;
}

/** `[A-Za-z_$]`. */
function isStart(code: number): boolean {
  return code < 128 && CLASS[code] === 1;
}

/** `[A-Za-z0-9_$]`. */
function isPart(code: number): boolean {
  return code < 128 && CLASS[code] !== 0;
}

/** The hash of a whole name, equal to the hash `identifierHashes` gives its mentions. */
export function hashIdentifier(name: string): number {
  return hashRange(name, 0, name.length);
}

/** `hashIdentifier(text.slice(start, end))`, without the slice. */
export function hashRange(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 1;
}

/**
 * Small ids for hashes (31-bit, as `hashIdentifier` gives them): an open-addressed table in typed
 * arrays, kept at most half full. A `Map` of numbers did the same at several times the cost per
 * lookup, most of all cold.
 */
export class HashIds {
  private hashes = new Int32Array(1 << 12).fill(-1);
  private ids = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;
  /** Ids given so far (the next one is this). */
  size = 0;

  /** The id of `hash`, or -1. */
  get(hash: number): number {
    const hashes = this.hashes;
    const mask = this.mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const known = hashes[slot]!;
      if (known === hash) return this.ids[slot]!;
      if (known === -1) return -1;
    }
  }

  /** The id of `hash`, a new one (`size` before the call) if it had none. */
  add(hash: number): number {
    const mask = this.mask;
    let slot = hash & mask;
    for (let known = this.hashes[slot]!; known !== -1; known = this.hashes[slot]!) {
      if (known === hash) return this.ids[slot]!;
      slot = (slot + 1) & mask;
    }
    const id = this.size++;
    this.hashes[slot] = hash;
    this.ids[slot] = id;
    if (this.size * 2 > mask) this.grow();
    return id;
  }

  private grow(): void {
    const { hashes, ids } = this;
    const size = hashes.length * 2;
    this.hashes = new Int32Array(size).fill(-1);
    this.ids = new Int32Array(size);
    this.mask = size - 1;
    for (let old = 0; old < hashes.length; old++) {
      const hash = hashes[old]!;
      if (hash === -1) continue;
      let slot = hash & this.mask;
      while (this.hashes[slot] !== -1) slot = (slot + 1) & this.mask;
      this.hashes[slot] = hash;
      this.ids[slot] = ids[old]!;
    }
  }
}

/**
 * The per-file dedupe: an open-addressed table of hashes kept by the thread and reused for every
 * file (a slot counts only when its stamp is the current file's), and the distinct hashes in
 * first-seen order. A `Set` of numbers did the same at several times the cost per mention.
 */
let slots = new Int32Array(1 << 12);
let stamps = new Int32Array(1 << 12);
let stamp = 0;
let distinct = new Int32Array(1 << 10);

/** True when `hash` was not yet seen in the current file (and notes it). */
function firstSeen(hash: number, count: number): boolean {
  let mask = slots.length - 1;
  let slot = hash & mask;
  while (stamps[slot] === stamp) {
    if (slots[slot] === hash) return false;
    slot = (slot + 1) & mask;
  }
  if ((count + 1) * 2 > slots.length) {
    grow(count);
    mask = slots.length - 1;
    slot = hash & mask;
    while (stamps[slot] === stamp) slot = (slot + 1) & mask;
  }
  stamps[slot] = stamp;
  slots[slot] = hash;
  return true;
}

/** Doubles the table (kept at most half full) and puts the current file's hashes back in. */
function grow(count: number): void {
  slots = new Int32Array(slots.length * 2);
  stamps = new Int32Array(stamps.length * 2);
  const mask = slots.length - 1;
  for (let k = 0; k < count; k++) {
    let slot = distinct[k]! & mask;
    while (stamps[slot] === stamp) slot = (slot + 1) & mask;
    stamps[slot] = stamp;
    slots[slot] = distinct[k]!;
  }
}

/**
 * The distinct identifiers of 4+ characters in `text` (runs of `[A-Za-z0-9_$]` not starting with
 * a digit), hashed, in first-seen order.
 */
export function identifierHashes(text: string): Int32Array {
  if (stamp === 0x7fffffff) {
    stamps.fill(0);
    stamp = 0;
  }
  stamp++;
  let count = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    let code = text.charCodeAt(i);
    if (isStart(code)) {
      const start = i;
      let hash = FNV_OFFSET;
      do {
        hash = Math.imul(hash ^ code, FNV_PRIME);
        code = text.charCodeAt(++i);
      } while (i < length && isPart(code));
      if (i - start >= MIN_IDENTIFIER_LENGTH && firstSeen(hash >>> 1, count)) {
        if (count === distinct.length) {
          const larger = new Int32Array(distinct.length * 2);
          larger.set(distinct);
          distinct = larger;
        }
        distinct[count++] = hash >>> 1;
      }
    } else if (code >= 48 && code <= 57) {
      // A number (`0x1F`, `10px`) is no identifier, letters and all.
      do code = text.charCodeAt(++i);
      while (i < length && isPart(code));
    } else {
      i++;
    }
  }
  return distinct.slice(0, count);
}
