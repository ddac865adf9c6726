import { scanPythonCalls } from '../calls/python-call.js';
import { callItems, closeTag, json, malformed, skipSpace, type Dialect } from './dialect.js';
import { jsonBody } from './hermes.js';

const END_TOKENS = ['<|eom_id|>', '<|eot_id|>'];

/**
 * Llama 3.1–3.3 behind `<|python_tag|>`: JSON calls (`;`-separated, or each behind its own tag)
 * and the built-in tool form `brave_search.call(query="…")`.
 */
export const llama3: Dialect = {
  name: 'llama3',
  label: 'Llama 3.x <|python_tag|>',
  openers: ['<|python_tag|>'],
  marked: true,
  scan(text, start, opener, context) {
    const body = skipSpace(text, start + opener.length);
    if (body >= text.length) return context.final ? malformed(text, start, text.length, 'llama3', 'the call was empty') : { state: 'incomplete' };
    if (text[body] === '{' || text[body] === '[') {
      const scan = jsonBody(text, body, undefined, 'llama3', context, start);
      if (scan.state !== 'items') return scan;
      const end = closeTag(text, scan.end, END_TOKENS, context.final);
      return end === 'incomplete' ? { state: 'incomplete' } : { ...scan, end };
    }
    const unknown: string[] = [];
    const scan = scanPythonCalls(text, body, context.tools, context.final, { lineEnd: false, unknown });
    if (scan.state === 'incomplete') return scan;
    if (scan.state === 'none') {
      const line = text.indexOf('\n', body);
      return malformed(text, start, line === -1 ? text.length : line, 'llama3', 'it is neither JSON nor name.call(…)');
    }
    if (unknown.length) return malformed(text, start, scan.end, 'llama3', `there is no tool named "${unknown[0]}"`, unknown[0]);
    const end = closeTag(text, scan.end, END_TOKENS, context.final);
    if (end === 'incomplete') return { state: 'incomplete' };
    return callItems(scan.calls, 'llama3', end);
  },
  example: (name, args) => `<|python_tag|>${json({ name, parameters: args })}`,
};
