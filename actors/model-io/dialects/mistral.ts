import { callItems, json, malformed, skipSpace, type Dialect, type TextItem } from './dialect.js';
import { jsonBody } from './hermes.js';
import { callsFromJson, readJson } from './json-call.js';

const OPEN = '[TOOL_CALLS]';

/**
 * Mistral `[TOOL_CALLS]`: the old form, a JSON list (`[TOOL_CALLS] [{"name": …, "arguments": …}]`,
 * Mistral 7B v0.3, Nemo), and the new one of tokenizer v11+ (Mistral Small 3.2, Devstral,
 * Magistral, Ministral 3): `[TOOL_CALLS]name[ARGS]{…}`, optionally `[CALL_ID]id` before `[ARGS]`,
 * one `[TOOL_CALLS]` per call.
 */
export const mistral: Dialect = {
  name: 'mistral',
  label: 'Mistral [TOOL_CALLS]',
  openers: [OPEN],
  marked: true,
  scan(text, start, _opener, context) {
    const body = skipSpace(text, start + OPEN.length);
    if (body >= text.length) return context.final ? malformed(text, start, text.length, 'mistral', 'the call was empty') : { state: 'incomplete' };
    if (text[body] === '[' || text[body] === '{') return jsonBody(text, body, undefined, 'mistral', context, start);
    const items: TextItem[] = [];
    let i = body;
    for (;;) {
      const head = /^([A-Za-z_][A-Za-z0-9_.\-]*)\s*(?:\[CALL_ID\]\s*([A-Za-z0-9_\-]*)\s*)?(\[ARGS\])?\s*/.exec(text.slice(i, i + 200));
      if (!head || (!head[3] && text[i + head[0].length] !== '{')) {
        if (!context.final && (text.length - i < 200) && /^[A-Za-z0-9_.\-\[\]A-Z ]*$/.test(text.slice(i))) return { state: 'incomplete' };
        const line = text.indexOf('\n', i);
        return malformed(text, start, line === -1 ? text.length : line, 'mistral', 'expected name[ARGS]{…} or a JSON list after [TOOL_CALLS]');
      }
      const name = head[1]!;
      const argsAt = i + head[0].length;
      if (argsAt >= text.length) return context.final ? malformed(text, start, text.length, 'mistral', `the arguments of ${name} are missing`) : { state: 'incomplete' };
      const read = readJson(text, argsAt, context.final, OPEN);
      if (read.state === 'incomplete') return read;
      if (read.state === 'broken') return malformed(text, start, read.end, 'mistral', read.reason);
      const got = callsFromJson({ name, arguments: read.value }, context.tools);
      if (!got.ok) return malformed(text, start, read.end, 'mistral', got.reason, got.unknownTool);
      items.push(...(callItems(got.calls, 'mistral', 0) as { items: TextItem[] }).items);
      i = read.end;
      const next = skipSpace(text, i);
      if (text.startsWith(OPEN, next)) {
        i = skipSpace(text, next + OPEN.length);
        continue;
      }
      if (!context.final && (next >= text.length || OPEN.startsWith(text.slice(next)))) return { state: 'incomplete' };
      return { state: 'items', items, end: i };
    }
  },
  example: (name, args) => `[TOOL_CALLS]${name}[ARGS]${json(args)}`,
};
