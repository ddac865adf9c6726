import { scanPythonCalls } from '../calls/python-call.js';
import { callItems, closeTag, malformed, skipSpace, type Dialect, type Scan, type ScanContext } from './dialect.js';

/** Python keyword arguments as a model writes them: `path="a.ts", limit=20`. */
export function pythonArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => `${key}=${typeof value === 'boolean' ? (value ? 'True' : 'False') : value === null ? 'None' : JSON.stringify(value)}`)
    .join(', ');
}

const WRAPPERS: Record<string, string> = {
  '<|python_start|>': '<|python_end|>',
  '<|tool_call_start|>': '<|tool_call_end|>',
  '<function_calls>': '</function_calls>',
};

/** Calls behind a marker, up to its closer; `lines`: one call per line instead of a list. */
function wrapped(text: string, start: number, opener: string, context: ScanContext): Scan {
  const closer = WRAPPERS[opener]!;
  const body = skipSpace(text, start + opener.length);
  if (body >= text.length) return context.final ? malformed(text, start, text.length, 'pythonic', 'the call was empty') : { state: 'incomplete' };
  const unknown: string[] = [];
  const scan = scanPythonCalls(text, body, context.tools, context.final, { lineEnd: false, lines: text[body] !== '[', unknown });
  if (scan.state === 'incomplete') return scan;
  if (scan.state === 'none') {
    const close = text.indexOf(closer, body);
    if (close === -1 && !context.final) return { state: 'incomplete' };
    return malformed(text, start, close === -1 ? text.length : close + closer.length, 'pythonic', 'its calls could not be read as name(key=value, …)');
  }
  const end = closeTag(text, scan.end, [closer], context.final);
  if (end === 'incomplete') return { state: 'incomplete' };
  if (unknown.length) return malformed(text, start, end, 'pythonic', `there is no tool named "${unknown[0]}"`, unknown[0]);
  return callItems(scan.calls, 'pythonic', end);
}

/**
 * Python-style lists of calls (`pythonic` parsers): `[read(path="a"), grep(pattern="x")]` bare,
 * anywhere in the text (Llama 3.2 small models, Gemma 3, Qwen when asked), behind Llama 4's
 * `<|python_start|>`, LFM2's `<|tool_call_start|>`, and OLMo 3's `<function_calls>` (one call a line).
 */
export const pythonic: Dialect = {
  name: 'pythonic',
  label: 'Python list [name(key=value)]',
  openers: ['[', ...Object.keys(WRAPPERS)],
  marked: false,
  scan(text, start, opener, context) {
    if (opener !== '[') return wrapped(text, start, opener, context);
    const scan = scanPythonCalls(text, start, context.tools, context.final, { lineEnd: false });
    if (scan.state !== 'calls') return scan;
    return callItems(scan.calls, 'pythonic', scan.end);
  },
  example: (name, args) => `[${name}(${pythonArgs(args)})]`,
};

/** A Python-style call on a line of its own: `read(path="a.ts", limit=20)`. */
export const pythonLine: Dialect = {
  name: 'python',
  label: 'Python call on its own line',
  openers: [],
  marked: false,
  lineStart: true,
  scan(text, start, _opener, context) {
    const scan = scanPythonCalls(text, start, context.tools, context.final);
    if (scan.state !== 'calls') return scan;
    return callItems(scan.calls, 'python', scan.end);
  },
  example: (name, args) => `${name}(${pythonArgs(args)})`,
};
