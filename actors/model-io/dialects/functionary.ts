import { callItems, json, malformed, skipSpace, type Dialect, type TextItem } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

const OPEN = '>>>';

/**
 * Functionary v3.2: `>>>NAME\n{…}` per call, `>>>all\n` before plain text. (Functionary v3.1
 * writes `<function=NAME>{…}</function>`, read by the Qwen3-Coder entry's JSON-body form.)
 */
export const functionary: Dialect = {
  name: 'functionary',
  label: 'Functionary >>>NAME',
  openers: [OPEN],
  marked: false,
  scan(text, start, _opener, context) {
    const items: TextItem[] = [];
    let i = start;
    for (;;) {
      const head = /^>>>[ \t]*([A-Za-z_][A-Za-z0-9_.\-]*)[ \t]*(\r?\n|$)/.exec(text.slice(i, i + 140));
      if (!head || (!head[2] && i + head[0].length >= text.length)) {
        if (!context.final && text.length - i < 140 && !text.slice(i).includes('\n')) return { state: 'incomplete' };
        return items.length ? { state: 'items', items, end: i } : { state: 'none' };
      }
      const name = head[1]!;
      const body = skipSpace(text, i + head[0].length);
      if (name === 'all') {
        const next = text.indexOf(OPEN, body);
        if (next === -1 && !context.final) return { state: 'incomplete' };
        const end = next === -1 ? text.length : next;
        if (end > body) items.push({ type: 'text', text: text.slice(body, end) });
        if (next === -1) return { state: 'items', items, end };
        i = next;
        continue;
      }
      if (body >= text.length) return context.final ? malformed(text, start, text.length, 'functionary', `the arguments of ${name} are missing`) : { state: 'incomplete' };
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
  },
  example: (name, args) => `>>>${name}\n${json(args)}`,
};
