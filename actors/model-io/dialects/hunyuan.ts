import { coerceParameter } from '../calls/tool-index.js';
import { malformed, skipSpace, type Dialect, type Scan, type TextItem } from './dialect.js';

/** A Hunyuan tag: Hy3 writes `<tool_call>`, Hy4 `<tool_call:opensource>` (the checkpoint's suffix). */
const tag = (name: string) => new RegExp(`<${name}(?::[a-z]+)?>`, 'y');
const CALLS = tag('tool_calls');
const CALLS_END = tag('/tool_calls');
const CALL = tag('tool_call');
const CALL_END = tag('/tool_call');
const SEP = tag('tool_sep');
const KEY = tag('arg_key');
const VALUE = tag('arg_value');
const KEY_END = /<\/arg_key(?::[a-z]+)?>/g;
const BLOCK_END = /<\/tool_calls(?::[a-z]+)?>/g;
const VALUE_END = /<\/arg_value(?::[a-z]+)?>/g;

function match(pattern: RegExp, text: string, i: number): number {
  pattern.lastIndex = i;
  const found = pattern.exec(text);
  return found ? i + found[0].length : -1;
}

/** The first match of the global `pattern` from `i`: its start and end, or undefined. */
function find(pattern: RegExp, text: string, i: number): { at: number; end: number } | undefined {
  pattern.lastIndex = i;
  const found = pattern.exec(text);
  return found ? { at: found.index, end: found.index + found[0].length } : undefined;
}

const arriving = (text: string, i: number) => text[i] === '<' && text.length - i < 32 && !text.includes('>', i);

/**
 * Tencent Hunyuan Hy3 (`hy_v3` parser) and Hy4 (`hy_v4`):
 * `<tool_calls><tool_call>NAME<tool_sep><arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call></tool_calls>`,
 * Hy4 without `<tool_sep>` and with `:opensource` on every tag. Values are typed by the tool's
 * schema. A stream cut off inside a call keeps what was written (an argument with its value),
 * as vLLM's truncation tests expect.
 */
export const hunyuan: Dialect = {
  name: 'hunyuan',
  label: 'Hunyuan <tool_calls><tool_call>NAME<tool_sep>',
  openers: ['<tool_calls>', '<tool_calls:'],
  marked: true,
  scan(text, start, _opener, context): Scan {
    let i = match(CALLS, text, start);
    if (i === -1) return !context.final && arriving(text, start) ? { state: 'incomplete' } : { state: 'none' };
    const items: TextItem[] = [];
    // A call that cannot be used takes the rest of the block with it.
    const fail = (reason: string, unknownTool?: string): Scan => {
      const close = find(BLOCK_END, text, i);
      if (!close && !context.final) return { state: 'incomplete' };
      return malformed(text, start, close ? close.end : text.length, 'hunyuan', reason, unknownTool);
    };
    for (;;) {
      i = skipSpace(text, i);
      const closed = match(CALLS_END, text, i);
      if (closed !== -1) return items.length ? { state: 'items', items, end: closed } : malformed(text, start, closed, 'hunyuan', 'no call followed');
      if (i >= text.length || (!context.final && arriving(text, i))) {
        if (!context.final) return { state: 'incomplete' };
        return items.length ? { state: 'items', items, end: text.length } : malformed(text, start, text.length, 'hunyuan', 'no call followed');
      }
      const call = match(CALL, text, i);
      if (call === -1) return items.length ? { state: 'items', items, end: i } : { state: 'none' };
      const head = /^[ \t]*([^<>\s]+)[ \t]*/.exec(text.slice(call, call + 200));
      if (!head) return context.final || text.length - call >= 200 ? fail('a call has no name') : { state: 'incomplete' };
      const name = head[1]!;
      let j = call + head[0].length;
      if (j >= text.length && !context.final) return { state: 'incomplete' };
      const sep = match(SEP, text, j);
      if (sep !== -1) j = sep;
      const args: Record<string, unknown> = {};
      let cut = false;
      for (;;) {
        j = skipSpace(text, j);
        if (j >= text.length || (!context.final && arriving(text, j))) {
          if (!context.final) return { state: 'incomplete' };
          cut = true;
          break;
        }
        const keyAt = match(KEY, text, j);
        if (keyAt === -1) break;
        const keyEnd = find(KEY_END, text, keyAt);
        const valueTag = keyEnd ? match(VALUE, text, skipSpace(text, keyEnd.end)) : -1;
        if (valueTag === -1) {
          if (!context.final) return { state: 'incomplete' };
          cut = true; // a key without its value: dropped
          j = text.length;
          break;
        }
        const valueEnd = find(VALUE_END, text, valueTag);
        if (!valueEnd && !context.final) return { state: 'incomplete' };
        const key = text.slice(keyAt, keyEnd!.at).trim();
        args[key] = coerceParameter(context.tools, name, key, text.slice(valueTag, valueEnd ? valueEnd.at : text.length));
        j = valueEnd ? valueEnd.end : text.length;
      }
      if (!cut) {
        const end = match(CALL_END, text, j);
        if (end === -1) {
          if (!context.final && arriving(text, j)) return { state: 'incomplete' };
          if (match(CALL, text, j) === -1 && match(CALLS_END, text, j) === -1 && !context.final) return fail(`the call to ${name} holds something that is not an argument`);
        } else j = end;
      }
      if (!context.tools.names.has(name)) return fail(`there is no tool named "${name}"`, name);
      items.push({ type: 'call', name, arguments: args, dialect: 'hunyuan' });
      i = j;
    }
  },
  example: (name, args) =>
    `<tool_calls>\n<tool_call>${name}<tool_sep>\n${Object.entries(args)
      .map(([key, value]) => `<arg_key>${key}</arg_key>\n<arg_value>${typeof value === 'string' ? value : JSON.stringify(value)}</arg_value>\n`)
      .join('')}</tool_call>\n</tool_calls>`,
};
