export const REDACTED = '[redacted]';
/** Forms shorter than this are not looked for (a short base64 tail would match by chance). */
const MIN_FORM_CHARS = 8;
/** Patterns this long or longer go through the sampled table. */
const SAMPLED_CHARS = 16;
/** Characters of a piece; {@link pieceHash} reads exactly these. */
const PIECE = 4;
const TABLE_BITS = 16;
const TABLE_SIZE = 1 << TABLE_BITS;

/** The forms a secret is looked for in: itself, reversed, and base64 at each alignment. */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, [...secret].reverse().join('')]);
  const bytes = Buffer.from(secret, 'utf8');
  for (let skip = 0; skip < 3; skip++) {
    // Starting `skip` bytes in, the rest begins a base64 group: its whole groups are fixed text.
    const rest = bytes.subarray(skip);
    const whole = Math.floor(rest.length / 3) * 3;
    const encoded = rest.subarray(0, whole).toString('base64');
    if (encoded.length >= MIN_FORM_CHARS) {
      forms.add(encoded);
      forms.add(encoded.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms].filter((form) => form.length >= MIN_FORM_CHARS);
}

/**
 * The second layer of SPEC §16: whatever a tool returns that holds a value reika knows to be
 * secret — as it is, reversed, or in base64 at any of the three byte alignments — is replaced by
 * `[redacted]`. One pass over the text whatever the number of secrets: patterns of 16 characters
 * or more are found through a table of their 4-character pieces, looked up every `step`
 * characters of the text (a pattern of length L ≥ step + 3 always covers one looked-up piece);
 * shorter ones through one regular expression of them all (V8 skips ahead over text none of them
 * can start in: on a 1 MB output 0.45 ms for a 9-character password's five forms, where an
 * `indexOf` per form took 1.7 ms). A 1 MB output costs well under a millisecond.
 */
export class Redactor {
  /** Every pattern, longest first. */
  private readonly patterns: string[];
  /** The patterns shorter than {@link SAMPLED_CHARS}, longest first, as one alternation (none: undefined). */
  private readonly short: RegExp | undefined;
  /**
   * The long patterns' pieces by hash: the pairs (pattern index, offset) of hash h are
   * `pairs[2 * starts[h] … 2 * starts[h + 1])` (typed arrays: a sparse JS array would be a slow dictionary).
   */
  private readonly starts = new Int32Array(TABLE_SIZE + 1);
  private readonly pairs: Int32Array;
  /** One bit per hash that has pieces: most looked-up pieces stop at this 8 KB table. */
  private readonly present = new Int32Array(TABLE_SIZE >>> 5);
  private readonly step: number;
  private readonly maxLength: number;
  /** The patterns by the UTF-16 code of their first character. */
  private readonly byFirst = new Map<number, string[]>();

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const secret of secrets) for (const form of secretForms(secret)) forms.add(form);
    this.patterns = [...forms].sort((a, b) => b.length - a.length);
    const short = this.patterns.filter((p) => p.length < SAMPLED_CHARS);
    this.short = short.length > 0 ? new RegExp(short.map(escapeRegExp).join('|'), 'g') : undefined;
    const long = this.patterns.filter((p) => p.length >= SAMPLED_CHARS);
    this.step = long.length > 0 ? long.at(-1)!.length - PIECE + 1 : 1;
    const pieces: number[] = [];
    for (let index = 0; index < this.patterns.length; index++) {
      const pattern = this.patterns[index]!;
      const first = this.byFirst.get(pattern.charCodeAt(0));
      if (first) first.push(pattern);
      else this.byFirst.set(pattern.charCodeAt(0), [pattern]);
      if (pattern.length < SAMPLED_CHARS) continue;
      for (let offset = 0; offset + PIECE <= pattern.length; offset++) pieces.push(pieceHash(pattern, offset), index, offset);
    }
    for (let i = 0; i < pieces.length; i += 3) {
      this.starts[pieces[i]! + 1]!++;
      this.present[pieces[i]! >>> 5]! |= 1 << (pieces[i]! & 31);
    }
    for (let h = 0; h < TABLE_SIZE; h++) this.starts[h + 1]! += this.starts[h]!;
    this.pairs = new Int32Array((pieces.length / 3) * 2);
    const fill = this.starts.slice(0, TABLE_SIZE);
    for (let i = 0; i < pieces.length; i += 3) {
      const at = fill[pieces[i]!]!++;
      this.pairs[2 * at] = pieces[i + 1]!;
      this.pairs[2 * at + 1] = pieces[i + 2]!;
    }
    this.maxLength = this.patterns[0]?.length ?? 0;
  }

  /** True when there is nothing to look for. */
  get empty(): boolean {
    return this.patterns.length === 0;
  }

  /** `text` with every secret form replaced by `[redacted]`. */
  redact(text: string): string {
    if (this.empty || text.length < MIN_FORM_CHARS) return text;
    return replaceSpans('', text, this.spans(text), text.length);
  }

  /**
   * A redactor for text that arrives in pieces (a command's live output): what `push` returns is
   * safe to show; a tail that could be the start of a secret waits for the next piece or `end`.
   */
  stream(): { push(text: string): string; end(): string } {
    let carry = '';
    return {
      push: (text: string) => {
        if (this.empty) return text;
        // `carry + text` is never searched nor cut as one string: V8 would flatten it, copying the
        // whole piece, and a megabyte of output in 64 KB pieces then cost a collection every run.
        // The carry is searched with the start of the piece beside it, the piece on its own.
        const spans = this.spansAcross(carry, text);
        const whole = carry.length + text.length;
        let cut = whole - (text.length >= this.maxLength ? this.heldTail(text) : this.heldTail(carry + text));
        // A cut inside a match goes back to where it starts: what follows may hold a form that
        // overlaps its end ("abcd1234" then "wxyz" is one "1234wxyz" too), and the next piece
        // finds both. Only a match that began long ago (a chain of overlapping forms) goes out whole.
        for (let i = 0; i < spans.length; i += 2) {
          if (spans[i]! < cut && spans[i + 1]! > cut) cut = spans[i]! >= whole - 2 * this.maxLength ? spans[i]! : spans[i + 1]!;
        }
        const shown = replaceSpans(carry, text, spans, cut);
        carry = part(carry, text, cut, whole);
        return shown;
      },
      end: () => {
        const rest = this.redact(carry);
        carry = '';
        return rest;
      },
    };
  }

  /** {@link spans} of `carry + text`, searching no string longer than the carry and the piece. */
  private spansAcross(carry: string, text: string): number[] {
    if (carry.length === 0) return this.spans(text);
    if (text.length < this.maxLength) return this.spans(carry + text);
    // A match starting in the carry ends within maxLength - 1 characters of the piece.
    const edge = this.spans(carry + text.slice(0, this.maxLength - 1));
    const found: number[] = [];
    for (let i = 0; i < edge.length && edge[i]! < carry.length; i += 2) found.push(edge[i]!, edge[i + 1]!);
    const inText = this.spans(text);
    for (let i = 0; i < inText.length; i += 2) {
      addSpan(found, inText[i]! + carry.length, inText[i + 1]! + carry.length);
    }
    return found;
  }

  /** Merged [start, end) pairs of every match, in order. */
  private spans(text: string): number[] {
    const found: number[] = [];
    const { short } = this;
    if (short) {
      // At each start the longest form that matches there (the alternation is longest first);
      // searching on from the next character finds forms that overlap it too.
      short.lastIndex = 0;
      for (let match = short.exec(text); match !== null; match = short.exec(text)) {
        found.push(match.index, match.index + match[0].length);
        short.lastIndex = match.index + 1;
      }
    }
    const { starts, pairs, present, patterns, step } = this;
    if (this.patterns.length > 0 && this.patterns[0]!.length >= SAMPLED_CHARS) {
      for (let i = 0; i + PIECE <= text.length; i += step) {
        const hash = pieceHash(text, i);
        if ((present[hash >>> 5]! & (1 << (hash & 31))) === 0) continue;
        const end = starts[hash + 1]!;
        for (let j = starts[hash]!; j < end; j++) {
          const pattern = patterns[pairs[2 * j]!]!;
          const start = i - pairs[2 * j + 1]!;
          if (start >= 0 && text.startsWith(pattern, start)) found.push(start, start + pattern.length);
        }
      }
    }
    if (found.length === 0) return found;
    const matches: [number, number][] = [];
    for (let i = 0; i < found.length; i += 2) matches.push([found[i]!, found[i + 1]!]);
    matches.sort((a, b) => a[0] - b[0]);
    const merged: number[] = [];
    for (const [start, end] of matches) addSpan(merged, start, end);
    return merged;
  }

  /** How many characters at the end of `text` could begin a secret form. */
  private heldTail(text: string): number {
    for (let at = Math.max(0, text.length - this.maxLength + 1); at < text.length; at++) {
      const candidates = this.byFirst.get(text.charCodeAt(at));
      if (candidates === undefined) continue;
      const rest = text.length - at;
      // Compared in place: a slice per position would be garbage on every piece of live output.
      for (const pattern of candidates) if (pattern.length > rest && sameChars(text, at, pattern, rest)) return rest;
    }
    return 0;
  }
}

/** Appends [start, end) to merged spans in order of start, joining it to the last one it overlaps. */
function addSpan(spans: number[], start: number, end: number): void {
  if (spans.length > 0 && start <= spans.at(-1)!) spans[spans.length - 1] = Math.max(spans.at(-1)!, end);
  else spans.push(start, end);
}

/** Characters [from, to) of `head + tail`, without joining the two when the range lies in one. */
function part(head: string, tail: string, from: number, to: number): string {
  if (from >= head.length) return tail.slice(from - head.length, to - head.length);
  if (to <= head.length) return head.slice(from, to);
  return head.slice(from) + tail.slice(0, to - head.length);
}

/** `head + tail` up to `limit`, the spans inside it replaced. */
function replaceSpans(head: string, tail: string, spans: number[], limit: number): string {
  if (spans.length === 0) return head.length === 0 && limit === tail.length ? tail : part(head, tail, 0, limit);
  let out = '';
  let from = 0;
  for (let i = 0; i < spans.length && spans[i]! < limit; i += 2) {
    out += part(head, tail, from, spans[i]!) + REDACTED;
    from = spans[i + 1]!;
  }
  return out + part(head, tail, from, limit);
}

/** Whether `count` characters of `text` from `at` are the first `count` of `pattern`. */
function sameChars(text: string, at: number, pattern: string, count: number): boolean {
  for (let i = 0; i < count; i++) if (text.charCodeAt(at + i) !== pattern.charCodeAt(i)) return false;
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function pieceHash(text: string, at: number): number {
  return ((text.charCodeAt(at) * 7919) ^ (text.charCodeAt(at + 1) * 31) ^ (text.charCodeAt(at + 2) << 9) ^ (text.charCodeAt(at + 3) << 4)) & (TABLE_SIZE - 1);
}
