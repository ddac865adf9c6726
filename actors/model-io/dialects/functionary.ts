import { callItems, json, malformed, skipSpace, type Dialect, type Scan, type ScanContext, type TextItem } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

const OPEN = '>>>';
const HEAD = /^[ \t]*([A-Za-z_][A-Za-z0-9_.\-]*)[ \t]*(\r?\n|$)/;

/**
 * Reads `NAME\n{…}` calls from `i`, each after `>>>` — the first without it when `bare` (the
 * template's generation prompt already wrote that one). `all` is the header of plain text: only
 * the header is markup, the text after it streams as prose.
 */
function readCalls(text: string, start: number, context: ScanContext, bare: boolean): Scan {
  if (bare) {
    // Tried at every line start: settle prose lines with one look at the line.
    const newline = text.indexOf('\n', start);
    const lineEnd = newline === -1 ? text.length : newline;
    if (lineEnd - start > 140) return { state: 'none' };
    const word = text.slice(start, lineEnd).trim();
    if (newline === -1) return !context.final && couldBe(word, context, start) ? { state: 'incomplete' } : { state: 'none' };
    if (!context.tools.names.has(word) && !(word === 'all' && start === context.messageStart)) return { state: 'none' };
  }
  const items: TextItem[] = [];
  let i = start;
  for (let first = true; ; first = false) {
    const skip = first && bare ? 0 : OPEN.length;
    const head = HEAD.exec(text.slice(i + skip, i + skip + 140));
    if (!head || (!head[2] && i + skip + head[0].length >= text.length)) {
      // The header line is still being written.
      if (!context.final && text.length - i < 140 && !text.slice(i).includes('\n')) return { state: 'incomplete' };
      return items.length ? { state: 'items', items, end: i } : { state: 'none' };
    }
    const name = head[1]!;
    const afterHead = i + skip + head[0].length;
    if (name === 'all') return { state: 'items', items, end: afterHead };
    const body = skipSpace(text, afterHead);
    if (body >= text.length) {
      if (!context.final) return { state: 'incomplete' };
      return bare && first ? { state: 'none' } : malformed(text, start, text.length, 'functionary', `the arguments of ${name} are missing`);
    }
    if (text[body] !== '{') return items.length ? { state: 'items', items, end: i } : { state: 'none' };
    const read = readJson(text, body, context.final, OPEN);
    if (read.state === 'incomplete') return read;
    if (read.state === 'broken') return malformed(text, start, read.end, 'functionary', read.reason);
    const got = callsFromJson({ name, arguments: read.value }, context.tools);
    if (!got.ok) return malformed(text, start, read.end, 'functionary', got.reason, got.unknownTool);
    items.push(...(callItems(got.calls, 'functionary', 0) as { items: TextItem[] }).items);
    i = skipSpace(text, read.end);
    if (!text.startsWith(OPEN, i)) {
      if (!context.final && (i >= text.length || OPEN.startsWith(text.slice(i)))) return { state: 'incomplete' };
      return { state: 'items', items, end: read.end };
    }
  }
}

/** A line still being written that may become a bare header: a tool's name, or `all` at the start. */
function couldBe(word: string, context: ScanContext, start: number): boolean {
  if (word === '') return false;
  if ('all'.startsWith(word) && start === context.messageStart) return true;
  for (const name of context.tools.names) if (name.startsWith(word)) return true;
  return false;
}

/**
 * Functionary v3.2: `>>>NAME\n{…}` per call, `>>>all\n` before plain text. The reply's first call
 * (or `all`) comes without `>>>`: at a line start, a line holding only a tool's name followed by
 * its JSON, so prose is not taken for it. (Functionary v3.1 writes `<function=NAME>{…}</function>`,
 * read by the Qwen3-Coder entry's JSON-body form.)
 */
export const functionary: Dialect = {
  name: 'functionary',
  label: 'Functionary >>>NAME',
  openers: [OPEN],
  marked: false,
  lineStart: true,
  scan: (text, start, opener, context) => readCalls(text, start, context, opener === ''),
  example: (name, args) => `>>>${name}\n${json(args)}`,
};
