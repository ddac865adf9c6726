import { coerceParameter } from '../calls/tool-index.js';
import { callItems, closeTag, malformed, type Dialect } from './dialect.js';

const KEY = '<arg_key>';
const KEY_CLOSE = '</arg_key>';
const VALUE = '<arg_value>';
const VALUE_CLOSE = '</arg_value>';
const CLOSE = '</tool_call>';

/**
 * GLM-4.5+ (`glm45`/`glm47` parsers): `<tool_call>name\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n</tool_call>`,
 * the name and first key on one line in GLM-4.7. Values are typed from the tool's schema.
 */
export const glm: Dialect = {
  name: 'glm',
  label: 'GLM-4.5 <arg_key>/<arg_value>',
  openers: ['<tool_call>'],
  marked: true,
  scan(text, start, opener, context) {
    const nameStart = start + opener.length;
    const head = /^[ \t]*([A-Za-z_][A-Za-z0-9_.\-]*)/.exec(text.slice(nameStart, nameStart + 128));
    if (!head) return { state: 'none' };
    let i = nameStart + head[0].length;
    if (i >= text.length) return context.final ? { state: 'none' } : { state: 'incomplete' };
    // The name must be followed by a line break, an argument or the end of the call.
    const after = text.slice(i, i + KEY.length + 2);
    if (!/^\s*(<|$)/.test(after)) return { state: 'none' };
    const name = head[1]!;
    const args: Record<string, unknown> = {};
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (i >= text.length) {
        if (!context.final) return { state: 'incomplete' };
        break;
      }
      if (!text.startsWith(KEY, i)) {
        if (!context.final && KEY.startsWith(text.slice(i)) ) return { state: 'incomplete' };
        break;
      }
      const keyEnd = text.indexOf(KEY_CLOSE, i);
      const valueStart = keyEnd === -1 ? -1 : text.indexOf(VALUE, keyEnd);
      const valueEnd = valueStart === -1 ? -1 : text.indexOf(VALUE_CLOSE, valueStart);
      if (valueEnd === -1) {
        if (!context.final) return { state: 'incomplete' };
        return malformed(text, start, text.length, 'glm', `an argument of ${name} was never closed`);
      }
      const key = text.slice(i + KEY.length, keyEnd).trim();
      args[key] = coerceParameter(context.tools, name, key, text.slice(valueStart + VALUE.length, valueEnd));
      i = valueEnd + VALUE_CLOSE.length;
    }
    const end = closeTag(text, i, [CLOSE], context.final);
    if (end === 'incomplete') return { state: 'incomplete' };
    if (end === i && !text.startsWith(CLOSE, i) && Object.keys(args).length === 0) return { state: 'none' };
    if (!context.tools.names.has(name)) return malformed(text, start, end, 'glm', `there is no tool named "${name}"`, name);
    return callItems([{ name, arguments: args }], 'glm', end);
  },
  example: (name, args) =>
    `<tool_call>${name}\n${Object.entries(args)
      .map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${typeof value === 'string' ? value : JSON.stringify(value)}</arg_value>\n`)
      .join('')}</tool_call>`,
};
