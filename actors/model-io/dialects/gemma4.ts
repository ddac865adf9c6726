import { callItems, malformed, type Dialect } from './dialect.js';
import { callsFromJson } from './json-call.js';

const OPEN = '<|tool_call>';
const CLOSE = '<tool_call|>';
const QUOTE = '<|"|>';

/** Gemma 4's argument object (`{city:<|"|>Paris<|"|>,days:2}`) as JSON text. */
function toJson(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    if (body.startsWith(QUOTE, i)) {
      const end = body.indexOf(QUOTE, i + QUOTE.length);
      const value = body.slice(i + QUOTE.length, end === -1 ? body.length : end);
      out += JSON.stringify(value);
      i = end === -1 ? body.length : end + QUOTE.length;
      continue;
    }
    const key = /^[A-Za-z_][A-Za-z0-9_]*(?=\s*:)/.exec(body.slice(i));
    if (key && /[{,]\s*$/.test(out)) {
      out += JSON.stringify(key[0]);
      i += key[0].length;
      continue;
    }
    out += body[i];
    i++;
  }
  return out;
}

/** Gemma 4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:2}<tool_call|>`. */
export const gemma4: Dialect = {
  name: 'gemma4',
  label: 'Gemma 4 <|tool_call>call:NAME{…}',
  openers: [OPEN],
  marked: true,
  scan(text, start, _opener, context) {
    const close = text.indexOf(CLOSE, start);
    if (close === -1 && !context.final) return { state: 'incomplete' };
    const end = close === -1 ? text.length : close + CLOSE.length;
    const inner = text.slice(start + OPEN.length, close === -1 ? text.length : close).trim();
    const head = /^(?:call:)?([A-Za-z_][A-Za-z0-9_.\-]*)\s*/.exec(inner);
    if (!head) return malformed(text, start, end, 'gemma4', 'the call has no name');
    const body = inner.slice(head[0].length) || '{}';
    let args: unknown;
    try {
      args = JSON.parse(toJson(body));
    } catch (error) {
      return malformed(text, start, end, 'gemma4', `its arguments could not be read (${(error as Error).message})`);
    }
    const got = callsFromJson({ name: head[1], arguments: args }, context.tools);
    if (!got.ok) return malformed(text, start, end, 'gemma4', got.reason, got.unknownTool);
    return callItems(got.calls, 'gemma4', end);
  },
  example: (name, args) =>
    `${OPEN}call:${name}{${Object.entries(args)
      .map(([key, value]) => `${key}:${typeof value === 'string' ? `${QUOTE}${value}${QUOTE}` : JSON.stringify(value)}`)
      .join(',')}}${CLOSE}`,
};
