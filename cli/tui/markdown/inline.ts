import type { Style } from '../style.js';
import { paintAll, type Span } from './spans.js';

/** How inline Markdown is shown: the style, and whether links become OSC 8 hyperlinks. */
export interface InlineLook {
  style: Style;
  hyperlinks: boolean;
}

const OPENER = /`+|\*\*|__|\*|_|!?\[|<https?:\/\/|https?:\/\//g;
const URL_BODY = /[^\s<>]+/y;

/**
 * Inline Markdown of one line as spans: `code` in cyan, **bold**, *italic*, links and bare URLs.
 * A link is its text as an OSC 8 hyperlink where the terminal shows them, else `text (url)`.
 * Markers that open nothing stay as written (`2 * 3`, `snake_case`, a lone backtick).
 */
export function inlineSpans(text: string, look: InlineLook, paint?: (text: string) => string): Span[] {
  const { style } = look;
  const spans: Span[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') spans.push(paint ? { text: plain, paint } : { text: plain });
    plain = '';
  };
  const add = (parts: Span[]) => {
    flush();
    spans.push(...parts);
  };
  // Per opener, a position from which no closer follows: found once, every later opener of its
  // kind fails at once (each had searched to the end of the line: quadratic for `_a _a _a …`).
  const noCloser = new Map<string, number>();
  let at = 0;
  while (at < text.length) {
    OPENER.lastIndex = at;
    const found = OPENER.exec(text);
    if (!found) break;
    plain += text.slice(at, found.index);
    const start = found.index;
    const opener = found[0];
    const parsed = parseAt(text, start, opener, look, paint);
    if (parsed) {
      add(parsed.spans);
      at = parsed.end;
    } else {
      plain += opener;
      at = start + opener.length;
    }
  }
  plain += text.slice(at);
  flush();
  return spans.length > 0 ? spans : [{ text: '' }];

  function parseAt(source: string, start: number, opener: string, inner: InlineLook, outer?: (text: string) => string): { spans: Span[]; end: number } | undefined {
    const compose = (own: (text: string) => string) => (outer ? (t: string) => outer(own(t)) : own);
    if (opener.startsWith('`')) {
      // A code span ends at the next run of exactly as many backticks.
      const from = start + opener.length;
      if (from >= (noCloser.get(opener) ?? Infinity)) return undefined;
      const close = new RegExp(`(?<!\`)${opener}(?!\`)`, 'g');
      close.lastIndex = from;
      const end = close.exec(source);
      if (!end) {
        noCloser.set(opener, from);
        return undefined;
      }
      let code = source.slice(start + opener.length, end.index);
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
      return { spans: [{ text: code, paint: compose(style.cyan) }], end: end.index + opener.length };
    }
    if (opener === '**' || opener === '__' || opener === '*' || opener === '_') {
      const after = source[start + opener.length];
      if (after === undefined || after === ' ' || after === opener[0]) return undefined;
      const underscore = opener[0] === '_';
      if (underscore && start > 0 && /\w/.test(source[start - 1]!)) return undefined;
      const first = start + opener.length + 1;
      if (first >= (noCloser.get(opener) ?? Infinity)) return undefined;
      let from = first;
      while (true) {
        const end = source.indexOf(opener, from);
        if (end < 0) {
          noCloser.set(opener, first);
          return undefined;
        }
        const doubled = opener.length === 1 && (source[end + 1] === opener || source[end - 1] === opener);
        const closes = source[end - 1] !== ' ' && !doubled && !(underscore && /\w/.test(source[end + opener.length] ?? ''));
        if (closes) {
          const own = opener.length === 2 ? style.bold : style.italic;
          return { spans: inlineSpans(source.slice(start + opener.length, end), inner, compose(own)), end: end + opener.length };
        }
        from = end + (doubled ? 2 : 1);
      }
    }
    if (opener === '[' || opener === '![') {
      const close = source.indexOf(']', start + opener.length);
      if (close < 0 || source[close + 1] !== '(') return undefined;
      const target = /^\(\s*(<[^>]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/.exec(source.slice(close + 1));
      if (!target) return undefined;
      const href = target[1]!.replace(/^<|>$/g, '');
      const label = source.slice(start + opener.length, close);
      return { spans: link(label === '' ? href : label, href, outer), end: close + 1 + target[0].length };
    }
    // <https://…> and bare URLs.
    const bracketed = opener.startsWith('<');
    URL_BODY.lastIndex = start + (bracketed ? 1 : 0);
    const body = URL_BODY.exec(source);
    if (!body) return undefined;
    let url = body[0];
    if (bracketed) {
      if (source[start + 1 + url.length] !== '>') return undefined;
      return { spans: link(url, url, outer), end: start + url.length + 2 };
    }
    // Sentence punctuation after a URL is not part of it, nor a closing bracket it did not open.
    // (a loop: the regex `[.,;:!?'"*_]+$` retried each run of them to the end: quadratic)
    let keep = url.length;
    while (keep > 0 && `.,;:!?'"*_`.includes(url[keep - 1]!)) keep--;
    url = url.slice(0, keep);
    while (url.endsWith(')') && count(url, '(') < count(url, ')')) url = url.slice(0, -1);
    return { spans: link(url, url, outer), end: start + url.length };
  }

  function link(label: string, href: string, outer?: (text: string) => string): Span[] {
    const looks = (t: string) => style.blue(style.underline(t));
    const own = outer ? (t: string) => outer(looks(t)) : looks;
    if (label === href) return [{ text: label, paint: own, ...(look.hyperlinks ? { href } : {}) }];
    if (look.hyperlinks) return inlineSpans(label, look, own).map((span) => ({ ...span, href }));
    const text = inlineSpans(label, look, own);
    return [...text, ...paintAll([{ text: ` (${href})` }], outer ? (t: string) => outer(style.dim(t)) : style.dim)];
  }
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}
