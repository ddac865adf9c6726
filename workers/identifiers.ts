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

/** `[A-Za-z_$]`. */
function isStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
}

/** `[A-Za-z0-9_$]`. */
function isPart(code: number): boolean {
  return isStart(code) || (code >= 48 && code <= 57);
}

/** The hash of a whole name, equal to the hash `identifierHashes` gives its mentions. */
export function hashIdentifier(name: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), FNV_PRIME);
  return hash >>> 1;
}

/**
 * The distinct identifiers of 4+ characters in `text` (runs of `[A-Za-z0-9_$]` not starting with
 * a digit), hashed, in first-seen order.
 */
export function identifierHashes(text: string): Int32Array {
  const seen = new Set<number>();
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
      if (i - start >= MIN_IDENTIFIER_LENGTH) seen.add(hash >>> 1);
    } else if (code >= 48 && code <= 57) {
      // A number (`0x1F`, `10px`) is no identifier, letters and all.
      do code = text.charCodeAt(++i);
      while (i < length && isPart(code));
    } else {
      i++;
    }
  }
  // Filled by a loop: `Int32Array.from(set)` walks a generic iterator, slower before the JIT warms up.
  const hashes = new Int32Array(seen.size);
  let at = 0;
  for (const hash of seen) hashes[at++] = hash;
  return hashes;
}
