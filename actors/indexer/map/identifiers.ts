// The identifiers a file mentions, as 31-bit hashes (FNV-1a over the UTF-16 code units, shifted to
// stay a small integer). The ranking matches them against hashes of defined names: no substring
// is ever cut out of a file, the per-file dedupe is a set of small integers, and the result
// crosses threads as one typed array.
//
// Two different names share a hash about once in two billion pairs; across the ~20,000 names and
// ~500,000 mentions of a capped repo that is a handful of stray, weightless edges at most, and the
// same ones on every run, so the map stays byte-stable.

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
 * A few words (at most three, of 4+ characters: a language's import keywords) whose places
 * `identifierHashes` notes while it hashes a file, so a rule that looks for them need not search
 * the text again.
 */
export class WatchedWords {
  /** The words' hashes, -1 for an unused place (no hash is negative). */
  readonly hashes: readonly [number, number, number];

  constructor(readonly words: readonly string[]) {
    if (words.length > 3 || words.some((word) => word.length < MIN_IDENTIFIER_LENGTH || !/^[A-Za-z_$][\w$]*$/.test(word))) {
      throw new Error(`watched words: at most three identifiers of ${MIN_IDENTIFIER_LENGTH}+ characters (${words.join(', ')})`);
    }
    const hashes = words.map(hashIdentifier);
    this.hashes = [hashes[0] ?? -1, hashes[1] ?? -1, hashes[2] ?? -1];
  }
}

/**
 * The distinct identifiers of 4+ characters in `text` (runs of `[A-Za-z0-9_$]` not starting with
 * a digit), hashed, in first-seen order. With `watched`, the offset of every run whose hash is
 * one of the watched words' is pushed to `at`, in order: the places where those words stand as
 * whole identifiers (and, once in a few billion runs, another name of the same hash: a caller
 * checks the text there).
 */
export function identifierHashes(text: string, watched: WatchedWords = NO_WORDS, at: number[] = UNUSED_PLACES): Int32Array {
  // Three compares per identifier, against -1 (no hash) when nothing is watched. Always the same
  // class of object read (no `?:`), or the optimised loop would be thrown away on the next one.
  const watch = watched.hashes;
  const w0 = watch[0];
  const w1 = watch[1];
  const w2 = watch[2];
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
      if (i - start >= MIN_IDENTIFIER_LENGTH) {
        const name = hash >>> 1;
        if (name === w0 || name === w1 || name === w2) at!.push(start);
        if (firstSeen(name, count)) {
          if (count === distinct.length) {
            const larger = new Int32Array(distinct.length * 2);
            larger.set(distinct);
            distinct = larger;
          }
          distinct[count++] = name;
        }
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

const NO_WORDS = new WatchedWords([]);
const UNUSED_PLACES: number[] = [];

/**
 * Type feedback for the branches the first files may not take (a watched word, a number, a
 * probe past a taken slot): when V8 optimises the loop during the first file (it does, cold, at
 * startup) and a later file takes a branch it never saw, the optimised code is thrown away and
 * the loop runs interpreted until it is optimised again — measured, that cost more cold than the
 * whole import search. One tiny call at load time that takes every branch once.
 */
function prime(): void {
  // V8 keeps no feedback for a function's first runs (lazy feedback allocation): a few rounds.
  const watched = new WatchedWords(['from']);
  for (let round = 0; round < 8; round++) {
    identifierHashes('from 1x from', watched, []);
    stamp++;
    firstSeen(1, 0);
    firstSeen(1 + slots.length, 1);
  }
  stamp++;
}
prime();
