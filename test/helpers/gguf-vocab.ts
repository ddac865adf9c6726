/**
 * A small byte-level BPE vocabulary for test models, in the form llama.cpp's `gpt2` tokenizer
 * reads: every byte is a token (so any text tokenizes), spelled with GPT-2's byte-to-character
 * table (a space is `Ġ`), then the merges learnt from a sample text, most frequent pair first.
 * Learning them from text like the prompts a test sends keeps those prompts short in tokens.
 */

export interface BpeVocab {
  /** Token strings, id order: the 256 bytes, then each merge's result (first occurrence). */
  tokens: string[];
  /** `left right` pairs in rank order. */
  merges: string[];
}

/** GPT-2's table: printable bytes stand for themselves, the others get characters from U+0100 on. */
function byteCharacters(): string[] {
  const table: string[] = new Array(256);
  let next = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
    table[byte] = String.fromCodePoint(printable ? byte : 256 + next++);
  }
  return table;
}

/** The split llama.cpp applies before merging for the `qwen2` pre-tokenizer (same classes). */
const PRE_SPLIT = /'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/** Learns `mergeCount` merges (fewer when the text runs out of pairs) from `corpus`. */
export function trainBpe(corpus: string, mergeCount: number): BpeVocab {
  const chars = byteCharacters();
  const counts = new Map<string, number>();
  for (const match of corpus.matchAll(PRE_SPLIT)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  const words = [...counts].map(([text, count]) => ({ symbols: [...Buffer.from(text, 'utf8')].map((byte) => chars[byte]!), count }));
  const tokens = [...chars];
  const known = new Set(tokens);
  const merges: string[] = [];
  for (let round = 0; round < mergeCount; round++) {
    const pairs = new Map<string, number>();
    for (const word of words) {
      for (let i = 0; i + 1 < word.symbols.length; i++) {
        const key = `${word.symbols[i]} ${word.symbols[i + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + word.count);
      }
    }
    let best: string | undefined;
    let bestCount = 1;
    for (const [key, count] of pairs) {
      if (count > bestCount || (count === bestCount && best !== undefined && key < best)) {
        best = key;
        bestCount = count;
      }
    }
    if (best === undefined) break;
    const space = best.indexOf(' ');
    const left = best.slice(0, space);
    const right = best.slice(space + 1);
    const joined = left + right;
    merges.push(best);
    if (!known.has(joined)) {
      known.add(joined);
      tokens.push(joined);
    }
    for (const word of words) {
      const next: string[] = [];
      for (let i = 0; i < word.symbols.length; i++) {
        if (i + 1 < word.symbols.length && word.symbols[i] === left && word.symbols[i + 1] === right) {
          next.push(joined);
          i++;
        } else next.push(word.symbols[i]!);
      }
      word.symbols = next;
    }
  }
  return { tokens, merges };
}
