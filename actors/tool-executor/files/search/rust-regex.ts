// A grep pattern in RE2 syntax (what `user-regex.ts` compiles) rewritten for ripgrep's engine
// (Rust's `regex`, searching bytes), so that ripgrep finds **every file the pattern matches, and
// maybe a few more**: ripgrep only picks the files, and each one it picks is searched again by the
// JavaScript path, which has the last word on every line. A match missed here would be lost, an
// extra one costs a read; so where the two engines differ, the rewrite errs on the side of more:
//
// - `\d \w \s` are ASCII in RE2 and spelled out as ASCII classes; their negations `\D \W \S` (and
//   every negated class) match any non-ASCII character in RE2, so they are written as Unicode
//   classes, which do too. `\b \B` are ASCII word boundaries in RE2: `(?-u:\b)` in Rust.
// - A file that is not UTF-8 is read as Latin-1 by the JavaScript path, so a non-ASCII character
//   there is one byte 0x80–0xFF, which Rust's Unicode classes never match. Every piece that can
//   match a non-ASCII character also accepts any such byte.
// - Everything else (`.`, literals, ranges, repetition, groups, `(?i)`-style flags, `\pL`) means
//   the same in both, or more in Rust (Unicode case folding).
//
// Anything this reader does not know (`\Q…\E`, `\C`, octal escapes, a flag Rust lacks) gives
// undefined: the JavaScript path searches instead.

const LATIN1_BYTE = '(?-u:[\\x80-\\xFF])';
const WORD = '0-9A-Za-z_';
const SPACE = '\\t\\n\\x0C\\r ';
/** Positive ASCII classes, and their negations written as Unicode classes (see above). */
const PERL: Record<string, { inClass: string; alone: string; wide: boolean }> = {
  d: { inClass: '0-9', alone: '[0-9]', wide: false },
  w: { inClass: WORD, alone: `[${WORD}]`, wide: false },
  s: { inClass: SPACE, alone: `[${SPACE}]`, wide: false },
  D: { inClass: '[^0-9]', alone: '[^0-9]', wide: true },
  W: { inClass: `[^${WORD}]`, alone: `[^${WORD}]`, wide: true },
  S: { inClass: `[^${SPACE}]`, alone: `[^${SPACE}]`, wide: true },
};
const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };

/** `c` as Rust reads it literally, in or out of a class. */
function literal(code: number): string {
  if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return String.fromCharCode(code);
  return `\\x{${code.toString(16)}}`;
}

/** A piece that may match a non-ASCII character, widened to Latin-1 bytes as well. */
function widened(piece: string): string {
  return `(?:${piece}|${LATIN1_BYTE})`;
}

// Thrown and caught in this file only (toRustRegex gives undefined), so a plain Error, not a ReikaError.
class Unsupported extends Error {}

/** The pattern for ripgrep, or undefined when it cannot be written so that it matches at least as much. */
export function toRustRegex(re2: string): string | undefined {
  try {
    return new Reader(re2).all();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class Reader {
  private at = 0;
  private readonly chars: string[];

  constructor(pattern: string) {
    this.chars = [...pattern];
  }

  all(): string {
    let out = '';
    while (this.at < this.chars.length) out += this.piece();
    return out;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private piece(): string {
    const char = this.chars[this.at++]!;
    switch (char) {
      case '\\':
        return this.escape();
      case '[':
        return this.charClass();
      case '(':
        return this.groupStart();
      case ')':
      case '|':
      case '^':
      case '$':
      case '*':
      case '+':
      case '?':
        return char;
      case '.':
        return widened('.');
      case '{': {
        const repeat = /^\{(\d+)(,(\d*))?\}/.exec(this.chars.slice(this.at - 1, this.at + 24).join(''));
        if (!repeat) return literal(123); // RE2 reads a `{` that starts no repetition literally
        this.at += repeat[0].length - 1;
        return repeat[0];
      }
      default:
        return this.literalPiece(char.codePointAt(0)!);
    }
  }

  private literalPiece(code: number): string {
    if (code < 0x80) return literal(code);
    return code <= 0xff ? `(?:${literal(code)}|(?-u:\\x${code.toString(16).toUpperCase()}))` : literal(code);
  }

  /** `(`, `(?:`, `(?P<name>`, `(?<name>`, `(?flags)`, `(?flags:`. */
  private groupStart(): string {
    if (this.peek() !== '?') return '(';
    const rest = this.chars.slice(this.at, this.at + 64).join('');
    const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(rest);
    if (named) {
      this.at += named[0].length;
      return '(';
    }
    const flags = /^\?([imsU]*(?:-[imsU]+)?)([:)])/.exec(rest);
    if (!flags || flags[1] === '') throw new Unsupported();
    this.at += flags[0].length;
    return `(?${flags[1]}${flags[2]}`;
  }

  /** One escape outside a class. */
  private escape(): string {
    const char = this.chars[this.at++];
    if (char === undefined) throw new Unsupported();
    if (char === 'b' || char === 'B') return `(?-u:\\${char})`;
    if (char === 'A' || char === 'z') return `\\${char}`;
    const perl = PERL[char];
    if (perl) return perl.wide ? widened(perl.alone) : perl.alone;
    if (char === 'p' || char === 'P') return widened(this.unicodeClass(char));
    const code = this.escapedCode(char);
    return this.literalPiece(code);
  }

  /** The character an escape names: `\n`, `\x41`, `\x{263a}`, `\.`; other escapes are unsupported. */
  private escapedCode(char: string): number {
    if (char in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[char]!;
    if (char === 'x') {
      const rest = this.chars.slice(this.at, this.at + 12).join('');
      const hex = /^\{([0-9A-Fa-f]{1,6})\}|^([0-9A-Fa-f]{2})/.exec(rest);
      if (!hex) throw new Unsupported();
      this.at += hex[0].length;
      return parseInt(hex[1] ?? hex[2]!, 16);
    }
    const code = char.codePointAt(0)!;
    // Punctuation escapes stand for themselves; letters and digits (`\Q`, `\C`, `\1`, `\0`) do not.
    if (code < 0x80 && !/[A-Za-z0-9]/.test(char)) return code;
    throw new Unsupported();
  }

  /** `\pL`, `\p{Greek}`, `\PL`, `\P{Greek}` (after the `p`/`P`). */
  private unicodeClass(kind: string): string {
    if (this.peek() === '{') {
      const rest = this.chars.slice(this.at, this.at + 40).join('');
      const name = /^\{([A-Za-z_]+)\}/.exec(rest);
      if (!name) throw new Unsupported();
      this.at += name[0].length;
      return `\\${kind}{${name[1]}}`;
    }
    const letter = this.chars[this.at++];
    if (letter === undefined || !/[A-Za-z]/.test(letter)) throw new Unsupported();
    return `\\${kind}${letter}`;
  }

  /** A bracketed class, each member written out; widened when it can match a non-ASCII character. */
  private charClass(): string {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.at++;
    }
    let wide = negated;
    const members: string[] = [];
    let first = true;
    for (;;) {
      const char = this.chars[this.at++];
      if (char === undefined) throw new Unsupported();
      if (char === ']' && !first) break;
      first = false;
      if (char === '[' && this.peek() === ':') {
        const posix = /^:(\^?)([a-z]+):\]/.exec(this.chars.slice(this.at, this.at + 16).join(''));
        if (!posix) throw new Unsupported();
        this.at += posix[0].length;
        if (posix[1]) wide = true;
        members.push(`[[:${posix[1]}${posix[2]}:]]`);
        continue;
      }
      let low: number;
      if (char === '\\') {
        const escaped = this.chars[this.at++];
        if (escaped === undefined) throw new Unsupported();
        const perl = PERL[escaped];
        if (perl) {
          if (perl.wide) wide = true;
          members.push(perl.inClass);
          continue;
        }
        if (escaped === 'p' || escaped === 'P') {
          wide = true;
          members.push(this.unicodeClass(escaped));
          continue;
        }
        low = this.escapedCode(escaped);
      } else {
        low = char.codePointAt(0)!;
      }
      let high = low;
      if (this.peek() === '-' && this.peek(1) !== undefined && this.peek(1) !== ']') {
        this.at++;
        const end = this.chars[this.at++]!;
        if (end === '\\') {
          const escaped = this.chars[this.at++];
          if (escaped === undefined || PERL[escaped] || escaped === 'p' || escaped === 'P') throw new Unsupported();
          high = this.escapedCode(escaped);
        } else if (end === '[') {
          throw new Unsupported();
        } else {
          high = end.codePointAt(0)!;
        }
      }
      if (high >= 0x80) wide = true;
      members.push(high === low ? literal(low) : `${literal(low)}-${literal(high)}`);
    }
    const rust = `[${negated ? '^' : ''}${members.join('')}]`;
    return wide ? widened(rust) : rust;
  }
}
