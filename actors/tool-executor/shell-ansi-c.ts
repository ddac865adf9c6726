/**
 * Bash's `$'…'` quoting: backslash escapes (`\n`, `\t`, `\xHH`, octal…) decoded. `start` is the
 * index just after the opening `$'`; returns the text and the index after the closing quote, or
 * undefined when the quote never closes.
 */
const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };

export function decodeAnsiC(src: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "'") return { text, end: i + 1 };
    if (c !== '\\') {
      text += c;
      i++;
      continue;
    }
    const next = src[i + 1] ?? '';
    if (next in SIMPLE) {
      text += SIMPLE[next];
      i += 2;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i + 2))?.[0] ?? '';
      text += String.fromCharCode(parseInt(hex || '0', 16));
      i += 2 + hex.length;
    } else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(src.slice(i + 1))![0];
      text += String.fromCharCode(parseInt(octal, 8));
      i += 1 + octal.length;
    } else {
      text += c + next;
      i += 2;
    }
  }
  return undefined;
}
