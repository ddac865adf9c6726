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

/** `echo -e` escapes: `\n`, `\t`, `\xHH`, `\0NNN`, `\uHHHH`…; `\c` ends the output. */
export function decodeEchoEscapes(text: string): string {
  return decodeBackslashes(text, true);
}

/**
 * What `printf FORMAT ARGS…` prints, as far as a script fed to a shell matters: the format's
 * escapes decoded, `%s` and `%b` filled with the arguments in turn (`%b` decoding theirs), `%%`.
 */
export function decodePrintfEscapes(args: string[]): string {
  const [format = '', ...values] = args;
  let next = 0;
  let out = '';
  do {
    out += decodeBackslashes(format, false).replace(/%(%|[-+ #0-9.]*[sbdiouxXfeEgGc])/g, (_, spec: string) => {
      if (spec === '%') return '%';
      const value = values[next++] ?? '';
      return spec.endsWith('b') ? decodeBackslashes(value, true) : value;
    });
  } while (next > 0 && next < values.length);
  return out;
}

const ECHO_SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '"': '"', "'": "'" };

function decodeBackslashes(text: string, echo: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const next = text[i + 1]!;
    const rest = text.slice(i + 2);
    if (next in ECHO_SIMPLE) {
      out += ECHO_SIMPLE[next];
      i++;
    } else if (next === 'c' && echo) {
      return out;
    } else if (next === 'x' && /^[0-9a-fA-F]/.test(rest)) {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(rest)![0];
      out += String.fromCharCode(parseInt(hex, 16));
      i += 1 + hex.length;
    } else if ((next === 'u' || next === 'U') && /^[0-9a-fA-F]/.test(rest)) {
      const hex = new RegExp(`^[0-9a-fA-F]{1,${next === 'u' ? 4 : 8}}`).exec(rest)![0];
      out += String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
      i += 1 + hex.length;
    } else if (/[0-7]/.test(next)) {
      // echo: `\0NNN`; printf: `\NNN`.
      const digits = echo ? (next === '0' ? /^[0-7]{0,3}/.exec(rest)![0] : '') : /^[0-7]{1,3}/.exec(text.slice(i + 1))![0];
      if (echo && next !== '0') {
        out += c + next;
        i++;
        continue;
      }
      out += String.fromCharCode(parseInt(digits || '0', 8));
      i += echo ? 1 + digits.length : digits.length;
    } else {
      out += c + next;
      i++;
    }
  }
  return out;
}
