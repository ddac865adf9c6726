import { scanXmlCall } from '../calls/xml-call.js';
import { callItems, closeTag, json, malformed, skipSpace, type Dialect, type Scan, type ScanContext, type TextItem } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

const CLOSERS: Record<string, string> = {
  '<tool_call>': '</tool_call>',
  '<function_call>': '</function_call>',
  '<tools>': '</tools>',
  '<json>': '</json>',
  '<JSON>': '</JSON>',
  '<tool>': '</tool>',
  '<response>': '</response>',
};

/** Tags that are often something else (an API's response in prose): a call only when the JSON names a tool. */
const SOFT = new Set(['<tool>', '<response>']);

/**
 * JSON values one after another (`{…}, {…}` or on separate lines), up to `closer`. A fence around
 * them (```` ```json ````) is allowed.
 */
export function jsonBody(text: string, start: number, closer: string | undefined, dialect: string, context: ScanContext, openedAt: number): Scan {
  const items: TextItem[] = [];
  let i = skipSpace(text, start);
  let fenced = false;
  let afterValue = i;
  if (text.startsWith('```', i)) {
    const line = text.indexOf('\n', i);
    if (line === -1) return context.final ? { state: 'none' } : { state: 'incomplete' };
    fenced = true;
    i = skipSpace(text, line + 1);
  }
  for (;;) {
    if (i >= text.length) return context.final ? malformed(text, openedAt, text.length, dialect, 'the call was empty') : { state: 'incomplete' };
    const read = readJson(text, i, context.final, closer);
    if (read.state === 'incomplete') return read;
    if (read.state === 'broken') {
      const end = closer ? closeTag(text, read.end, [closer], context.final) : Math.max(read.end, i + 1);
      if (end === 'incomplete') return { state: 'incomplete' };
      return malformed(text, openedAt, Math.max(end, i + 1), dialect, read.reason);
    }
    const got = callsFromJson(read.value, context.tools);
    if (!got.ok) {
      const end = closer ? closeTag(text, read.end, [closer], context.final) : read.end;
      if (end === 'incomplete') return { state: 'incomplete' };
      return malformed(text, openedAt, end, dialect, got.reason, got.unknownTool);
    }
    items.push(...(callItems(got.calls, dialect, 0) as { items: TextItem[] }).items);
    afterValue = read.end;
    i = skipSpace(text, read.end);
    if (text[i] === ',' || text[i] === ';') i = skipSpace(text, i + 1);
    if (fenced && text.startsWith('```', i)) {
      i += 3;
      afterValue = i;
      fenced = false;
      i = skipSpace(text, i);
    }
    if (i >= text.length && !context.final) return { state: 'incomplete' };
    if (text[i] !== '{' && text[i] !== '[') break;
  }
  const end = closer ? closeTag(text, i, [closer], context.final) : afterValue;
  if (end === 'incomplete') return { state: 'incomplete' };
  return { state: 'items', items, end };
}

/** Hermes 2 Pro / Qwen 2.5+ `<tool_call>{json}</tool_call>` and the variants models drift into. */
export const hermes: Dialect = {
  name: 'hermes',
  label: 'Hermes/Qwen <tool_call> JSON',
  openers: [...Object.keys(CLOSERS), '<function name='],
  marked: true,
  scan(text, start, opener, context) {
    if (opener === '<function name=') return functionNameTag(text, start, context);
    const closer = CLOSERS[opener]!;
    const body = skipSpace(text, start + opener.length);
    if (body >= text.length) return context.final ? malformed(text, start, text.length, 'hermes', 'the call was empty') : { state: 'incomplete' };
    const c = text[body]!;
    if (c === '<' && text.startsWith('<function=', body)) {
      const scan = scanXmlCall(text, body, context.tools, context.final);
      if (scan.state === 'incomplete' || scan.state === 'none') return scan;
      const end = closeTag(text, scan.end, [closer], context.final);
      if (end === 'incomplete') return { state: 'incomplete' };
      if (scan.state === 'malformed') return malformed(text, start, end, 'qwen3-coder', scan.reason, scan.unknownTool);
      return callItems([scan], 'qwen3-coder', end);
    }
    if (c === '<' && '<function='.startsWith(text.slice(body, body + 10)) && !context.final) return { state: 'incomplete' };
    if (c !== '{' && c !== '[' && c !== '`') return { state: 'none' }; // `<tool_call>` named in prose
    const scan = jsonBody(text, body, closer, 'hermes', context, start);
    if (SOFT.has(opener) && scan.state === 'items' && scan.items.some((item) => item.type === 'malformed' && !item.unknownTool)) return { state: 'none' };
    return scan;
  },
  example: (name, args) => `<tool_call>\n${json({ name, arguments: args })}\n</tool_call>`,
};

/** `<function name="read">{"path": "a"}</function>` (a Hermes variant). */
function functionNameTag(text: string, start: number, context: ScanContext): Scan {
  const header = /^<function name=(["'])([^"'\n>]*)\1\s*>/.exec(text.slice(start, start + 200));
  if (!header) return !context.final && text.length - start < 200 && !text.slice(start).includes('>') ? { state: 'incomplete' } : { state: 'none' };
  return argsAsBody(text, start, header[0].length, header[2]!, context);
}

function argsAsBody(text: string, start: number, headerLength: number, name: string, context: ScanContext): Scan {
  const i = skipSpace(text, start + headerLength);
  const read = readJson(text, i, context.final, '</function>');
  if (read.state === 'incomplete') return read;
  if (read.state === 'broken') return malformed(text, start, read.end, 'hermes', read.reason);
  const got = callsFromJson({ name, arguments: read.value }, context.tools);
  const end = closeTag(text, read.end, ['</function>'], context.final);
  if (end === 'incomplete') return { state: 'incomplete' };
  if (!got.ok) return malformed(text, start, end, 'hermes', got.reason, got.unknownTool);
  return callItems(got.calls, 'hermes', end);
}
