// The `@path` mentions in a message: an `@` at the start or after whitespace, each path once, in
// order. `me@example.com` is no mention. A path with spaces or quotes is written as a shell would
// take it: `@"my notes/résumé.md"`, `@'my notes/x.md'` or `@my\ notes/x.md` (inside double quotes
// a backslash escapes `"` and `\`; outside quotes it escapes the next character). A mention outside
// quotes drops trailing punctuation (`see @a.ts, then`); a quoted one is taken as written.

export interface Mention {
  /** The path as the file system is asked for it (quotes and escapes removed). */
  path: string;
  /** The mention as typed, `@` included: how a problem names it. */
  raw: string;
  /** Written with quotes or escapes: the user meant a file, so a missing one is reported. */
  quoted: boolean;
  /** Where `raw` starts in the text. */
  start: number;
  /** A quote opened and not closed on its line: nothing is attached, and the user is told. */
  unclosed?: true;
}

/** The paths the text mentions, each once, in order. */
export function mentions(text: string): string[] {
  return parseMentions(text)
    .filter((mention) => !mention.unclosed)
    .map((mention) => mention.path);
}

/** Every mention in the text with how it was written, each path once, in order. */
export function parseMentions(text: string): Mention[] {
  const found: Mention[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    if (at > 0 && !/\s/.test(text[at - 1]!)) continue;
    const read = readMention(text, at);
    if (!read) continue;
    if (read.open) {
      found.push({ path: read.path, raw: text.slice(at, read.end), quoted: true, start: at, unclosed: true });
      at = read.end - 1;
      continue;
    }
    let { path, end } = read;
    if (!read.inQuotes) {
      const kept = path.replace(/[,.;:!?)]+$/, '');
      end -= path.length - kept.length;
      path = kept;
    }
    if (path && !found.some((m) => m.path === path)) found.push({ path, raw: text.slice(at, end), quoted: read.quoted, start: at });
    at = end - 1;
  }
  return found;
}

/**
 * The mention being typed when the cursor is at `cursor`: its start (the `@`), the path typed so
 * far (unquoted) and the quote it opened, if any. Undefined when the cursor is not in a mention.
 */
export function mentionBeforeCursor(text: string, cursor: number): { start: number; typed: string; quote: '"' | "'" | undefined } | undefined {
  const lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
  for (let at = text.lastIndexOf('@', cursor - 1); at >= lineStart; at = at === 0 ? -1 : text.lastIndexOf('@', at - 1)) {
    if (at > 0 && !/\s/.test(text[at - 1]!)) continue;
    if (at === cursor - 1) return { start: at, typed: '', quote: undefined };
    const read = readMention(text.slice(0, cursor), at);
    if (!read || read.end !== cursor) continue;
    // A closed quote right before the cursor: the mention is complete but Tab may still go on.
    const quote = text[at + 1] === '"' || text[at + 1] === "'" ? (text[at + 1] as '"' | "'") : undefined;
    return { start: at, typed: read.path, quote };
  }
  return undefined;
}

/**
 * How a path is written as a mention: bare when it has no space, quote or backslash, else in
 * double quotes (single quotes when it holds a `"` and no `'`). `open` leaves the quote open, for a
 * folder or a common prefix that Tab will go on completing.
 */
export function formatMention(path: string, options: { open?: boolean; quote?: '"' | "'" } = {}): string {
  let quote = options.quote;
  if (!quote && !/[\s"'\\]/.test(path)) return `@${path}`;
  if (quote === "'" && path.includes("'")) quote = '"';
  quote ??= path.includes('"') && !path.includes("'") ? "'" : '"';
  const body = quote === '"' ? path.replace(/[\\"]/g, '\\$&') : path;
  return `@${quote}${body}${options.open ? '' : quote}`;
}

/** Reads the mention whose `@` is at `at`; `open` when a quote is not closed by the end of the text. */
function readMention(text: string, at: number): { path: string; end: number; quoted: boolean; inQuotes: boolean; open: boolean } | undefined {
  const first = text[at + 1];
  if (first === '"' || first === "'") {
    let path = '';
    let i = at + 2;
    while (i < text.length && text[i] !== first) {
      if (first === '"' && text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) i++;
      if (text[i] === '\n') break;
      path += text[i];
      i++;
    }
    if (i >= text.length || text[i] === '\n') return { path, end: i, quoted: true, inQuotes: true, open: true };
    return { path, end: i + 1, quoted: true, inQuotes: true, open: false };
  }
  let path = '';
  let escaped = false;
  let i = at + 1;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length && text[i + 1] !== '\n') {
      escaped = true;
      path += text[i + 1];
      i += 2;
      continue;
    }
    if (/\s/.test(char)) break;
    path += char;
    i++;
  }
  if (path === '' && i === at + 1) return undefined;
  return { path, end: i, quoted: escaped, inQuotes: false, open: false };
}
