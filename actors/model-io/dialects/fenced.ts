import { scanPythonCalls } from '../calls/python-call.js';
import { callItems, closeTag, json, skipSpace, type Dialect, type Scan, type ScanContext } from './dialect.js';
import { pythonArgs } from './pythonic.js';

const LANGS = /^```[ \t]*(json|tool_code|tool_call|tool_calls|python|py|xml|javascript)?[ \t]*\r?\n/;
const FENCE = '```';

/** The body of a fence (after its language line) when it is a call, up to the closing fence. */
function fenced(text: string, start: number, context: ScanContext, dialect: string): Scan {
  const head = LANGS.exec(text.slice(start, start + 40));
  if (!head) {
    const line = text.slice(start, start + 40);
    return !context.final && !line.includes('\n') && line.length < 40 ? { state: 'incomplete' } : { state: 'none' };
  }
  const body = skipSpace(text, start + head[0].length);
  if (body >= text.length) return context.final ? { state: 'none' } : { state: 'incomplete' };
  let scan: Scan;
  if (head[1] === 'tool_code' && text.startsWith('print(', body)) {
    // Gemma's `print(get_weather(city="x"))`.
    const inner = scanPythonCalls(text, body + 6, context.tools, context.final, { lineEnd: false });
    if (inner.state !== 'calls') return inner;
    const close = skipSpace(text, inner.end);
    if (close >= text.length) return context.final ? callItems(inner.calls, dialect, close) : { state: 'incomplete' };
    if (text[close] !== ')') return { state: 'none' };
    scan = callItems(inner.calls, dialect, close + 1);
  } else {
    scan = context.inner(text, body);
    if (scan.state !== 'items' || !scan.items.some((item) => item.type === 'call' || item.type === 'malformed')) return scan.state === 'incomplete' ? scan : { state: 'none' };
    if (dialect !== 'fenced') scan = { ...scan, items: scan.items.map((item) => (item.type === 'call' ? { ...item, dialect } : item)) };
  }
  if (scan.state !== 'items') return scan;
  const end = closeTag(text, scan.end, [FENCE], context.final);
  if (end === 'incomplete') return { state: 'incomplete' };
  if (end === scan.end && !context.final) return { state: 'none' }; // something else follows the call inside the fence: it is code
  return { ...scan, end };
}

/** Calls in a code fence, in any family (```` ```json ````, ```` ```python ````, ```` ```xml ````, bare ```` ``` ````). */
export const fencedCall: Dialect = {
  name: 'fenced',
  label: 'a call in a code fence',
  openers: [FENCE],
  marked: false,
  scan: (text, start, _opener, context) => fenced(text, start, context, 'fenced'),
  example: (name, args) => `\`\`\`json\n${json({ name, arguments: args })}\n\`\`\``,
};

/** Gemma 3 `tool_code` fences: ```` ```tool_code\nget_weather(city="x")\n``` ````. */
export const gemmaToolCode: Dialect = {
  name: 'gemma',
  label: 'Gemma ```tool_code',
  openers: ['```tool_code'],
  marked: false,
  scan: (text, start, _opener, context) => fenced(text, start, context, 'gemma'),
  example: (name, args) => `\`\`\`tool_code\n${name}(${pythonArgs(args)})\n\`\`\``,
};
