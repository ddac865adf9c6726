import { coerceTyped, schemaTypes } from '../calls/tool-index.js';
import { malformed, skipSpace, type Dialect, type TextItem } from './dialect.js';

const OPEN = '<start_function_call>';
const CLOSE = '<end_function_call>';
const QUOTE = '<escape>';

type Read = { value: unknown; end: number } | { error: string };

/** A bare value (`42`, `true`, `3.14`): JSON where it is JSON, else its text. */
function bare(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

/**
 * Reads FunctionGemma's argument syntax at `i`: `{key:<escape>text<escape>,n:1,list:[…],obj:{…}}`,
 * strings between `<escape>` marks, other values bare; a missing comma between entries is
 * tolerated (vLLM's streaming test feeds `{ci` `ty:<escape>NYC<escape>` `unit:…`).
 */
function readValue(text: string, i: number, end: number): Read {
  i = skipSpace(text, i);
  if (text.startsWith(QUOTE, i)) {
    const close = text.indexOf(QUOTE, i + QUOTE.length);
    if (close === -1 || close >= end) return { error: 'a string never closed' };
    return { value: text.slice(i + QUOTE.length, close), end: close + QUOTE.length };
  }
  if (text[i] === '{' || text[i] === '[') {
    const list = text[i] === '[';
    const out: Record<string, unknown> | unknown[] = list ? [] : {};
    let j = skipSpace(text, i + 1);
    for (;;) {
      if (j >= end) return { error: `a ${list ? 'list' : 'object'} never closed` };
      if (text[j] === (list ? ']' : '}')) return { value: out, end: j + 1 };
      if (text[j] === ',') {
        j = skipSpace(text, j + 1);
        continue;
      }
      if (list) {
        const item = readValue(text, j, end);
        if ('error' in item) return item;
        (out as unknown[]).push(item.value);
        j = skipSpace(text, item.end);
      } else {
        const colon = text.indexOf(':', j);
        if (colon === -1 || colon >= end) return { error: 'an argument has no value' };
        const key = text.slice(j, colon).trim();
        if (!/^[\w.\-$]+$/.test(key)) return { error: `"${key}" is not an argument name` };
        const item = readValue(text, colon + 1, end);
        if ('error' in item) return item;
        (out as Record<string, unknown>)[key] = item.value;
        j = skipSpace(text, item.end);
      }
    }
  }
  let j = i;
  while (j < end && text[j] !== ',' && text[j] !== '}' && text[j] !== ']' && !text.startsWith(QUOTE, j)) j++;
  if (j === i) return { error: 'a value is missing' };
  return { value: bare(text.slice(i, j)), end: j };
}

/**
 * FunctionGemma (`functiongemma` parsers):
 * `<start_function_call>call:NAME{key:<escape>value<escape>,n:1}<end_function_call>`, one call
 * per pair of markers. A string value is typed by the tool's schema (`<escape>42<escape>` for an
 * integer is 42); the end marker may be missing when the stream ends.
 */
export const functionGemma: Dialect = {
  name: 'functiongemma',
  label: 'FunctionGemma <start_function_call>call:NAME{…}',
  openers: [OPEN],
  marked: true,
  scan(text, start, _opener, context) {
    const close = text.indexOf(CLOSE, start + OPEN.length);
    if (close === -1 && !context.final) return { state: 'incomplete' };
    const bodyEnd = close === -1 ? text.length : close;
    const end = close === -1 ? text.length : close + CLOSE.length;
    const head = /^\s*(?:call:)?([A-Za-z_][\w.\-]*)\s*/.exec(text.slice(start + OPEN.length, bodyEnd));
    if (!head) return malformed(text, start, end, 'functiongemma', 'the call has no name');
    const name = head[1]!;
    const at = start + OPEN.length + head[0].length;
    let args: Record<string, unknown> = {};
    if (at < bodyEnd) {
      const read = readValue(text, at, bodyEnd);
      if ('error' in read) return malformed(text, start, end, 'functiongemma', `its arguments could not be read (${read.error})`);
      if (!read.value || typeof read.value !== 'object' || Array.isArray(read.value)) return malformed(text, start, end, 'functiongemma', 'its arguments are not an object');
      args = read.value as Record<string, unknown>;
    }
    if (!context.tools.names.has(name)) return malformed(text, start, end, 'functiongemma', `there is no tool named "${name}"`, name);
    const properties = context.tools.properties.get(name) ?? {};
    for (const [key, value] of Object.entries(args)) if (typeof value === 'string' && properties[key]) args[key] = coerceTyped(schemaTypes(properties[key]), value);
    const items: TextItem[] = [{ type: 'call', name, arguments: args, dialect: 'functiongemma' }];
    return { state: 'items', items, end };
  },
  example: (name, args) =>
    `${OPEN}call:${name}{${Object.entries(args)
      .map(([key, value]) => `${key}:${typeof value === 'string' ? `${QUOTE}${value}${QUOTE}` : JSON.stringify(value)}`)
      .join(',')}}${CLOSE}`,
};
