import { callItems, json as compact, malformed, skipSpace, type Dialect } from './dialect.js';
import { jsonBody } from './hermes.js';
import { callsFromJson, jsonCallStart, readJson } from './json-call.js';

/**
 * Bare JSON calls, no markup: Llama 3.x's `{"name": …, "parameters": {…}}` (the `llama3_json`
 * parsers), xLAM's and Granite's lists `[{"name": …, "arguments": {…}}]`, an OpenAI
 * `{"tool_calls": […]}` printed as text. Only objects that name an offered tool count; any other
 * `{` or `[` streams on as text at once.
 */
export const bareJson: Dialect = {
  name: 'json',
  label: 'bare JSON {"name": …, "arguments": …}',
  openers: ['{', '['],
  marked: false,
  scan(text, start, opener, context) {
    const objectAt = opener === '{' ? start : skipSpace(text, start + 1);
    if (objectAt >= text.length) return context.final ? { state: 'none' } : { state: 'incomplete' };
    if (text[objectAt] !== '{') return { state: 'none' };
    const verdict = jsonCallStart(text, objectAt, context.tools);
    if (verdict === 'no') return { state: 'none' };
    if (verdict === 'partial') return context.final ? { state: 'none' } : { state: 'incomplete' };
    const read = readJson(text, start, context.final);
    if (read.state === 'incomplete') return read;
    if (read.state === 'broken') return malformed(text, start, read.end, 'json', read.reason);
    const got = callsFromJson(read.value, context.tools);
    if (!got.ok) return got.named ? malformed(text, start, read.end, 'json', got.reason, got.unknownTool) : { state: 'none' };
    // Llama 3.x separates several calls with `;`.
    if (opener === '{' && /^\s*;\s*\{/.test(text.slice(read.end, read.end + 8))) {
      const rest = jsonBody(text, text.indexOf('{', read.end), undefined, 'json', context, start);
      if (rest.state === 'incomplete') return rest;
      const first = callItems(got.calls, 'json', 0);
      if (rest.state === 'items' && first.state === 'items') return { state: 'items', items: [...first.items, ...rest.items], end: rest.end };
    }
    return callItems(got.calls, 'json', read.end);
  },
  example: (name, args) => compact({ name, arguments: args }),
};
