import { attribute } from '../calls/invoke-xml.js';
import { coerceParameter } from '../calls/tool-index.js';
import { malformed, skipSpace, type Dialect, type Scan, type TextItem } from './dialect.js';

const SEP = '<|sep|>';
const TOOLS = '<|open|>tools<|sep|>';
const TOOLS_END = '<|close|>tools<|sep|>';
const CALL = '<|open|>call';
const CALL_END = '<|close|>call<|sep|>';
const ARGUMENT = '<|open|>argument';
const ARGUMENT_END = '<|close|>argument<|sep|>';
const THINK = '<|open|>think<|sep|>';
const THINK_END = '<|close|>think<|sep|>';
/** Channel markers with nothing to read in them: the response's wrapper and the end of the message. */
const WRAPPERS = ['<|open|>response<|sep|>', '<|close|>response<|sep|>', '<|close|>message<|sep|>', THINK_END, TOOLS_END];
const MARKERS = [TOOLS, THINK, CALL, ...WRAPPERS];

const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** One argument's value: `type="string"` is text, another type JSON (text when it is not), no type: the schema's. */
function argumentValue(context: Parameters<Dialect['scan']>[3], tool: string, key: string, type: string | undefined, raw: string): unknown {
  if (type === undefined) return coerceParameter(context.tools, tool, key, raw);
  if (type === 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * Kimi K3's XTML (`kimi_k3` parsers): the reply in channels, `<|open|>response<|sep|>…<|close|>response<|sep|>`,
 * then `<|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|><|open|>argument key="KEY"
 * type="string"<|sep|>VALUE<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`.
 * The channel markers never reach the user: a response's wrapper is dropped, a think channel goes
 * to the reasoning, a marker cut off at the end of the stream is dropped (as SGLang does).
 */
export const kimiK3: Dialect = {
  name: 'kimi-k3',
  label: 'Kimi K3 <|open|>tools<|sep|><|open|>call tool=…',
  openers: ['<|open|>', '<|close|>'],
  marked: true,
  scan(text, start, _opener, context): Scan {
    const rest = text.length - start;
    for (const marker of WRAPPERS) if (text.startsWith(marker, start)) return { state: 'items', items: [], end: start + marker.length };
    if (text.startsWith(THINK, start)) {
      const close = text.indexOf(THINK_END, start + THINK.length);
      if (close === -1 && !context.final) return { state: 'incomplete' };
      const thoughts = text.slice(start + THINK.length, close === -1 ? text.length : close);
      return { state: 'items', items: thoughts ? [{ type: 'reasoning', text: thoughts }] : [], end: close === -1 ? text.length : close + THINK_END.length };
    }
    const inTools = text.startsWith(TOOLS, start);
    if (!inTools && !text.startsWith(CALL, start)) {
      // A marker still arriving, or cut off by the end of the stream (then dropped).
      const partial = rest < 40 && MARKERS.some((marker) => marker.startsWith(text.slice(start)));
      if (partial) return context.final ? { state: 'items', items: [], end: text.length } : { state: 'incomplete' };
      return { state: 'none' };
    }
    const items: TextItem[] = [];
    let i = inTools ? start + TOOLS.length : start;
    const fail = (reason: string, unknownTool?: string): Scan => {
      const close = text.indexOf(TOOLS_END, i);
      if (close === -1 && !context.final) return { state: 'incomplete' };
      return malformed(text, start, close === -1 ? text.length : close + TOOLS_END.length, 'kimi-k3', reason, unknownTool);
    };
    for (;;) {
      i = skipSpace(text, i);
      if (text.startsWith(TOOLS_END, i)) return items.length ? { state: 'items', items, end: i + TOOLS_END.length } : fail('no call followed');
      if (i >= text.length || (!context.final && (TOOLS_END.startsWith(text.slice(i)) || CALL.startsWith(text.slice(i))))) {
        if (!context.final) return { state: 'incomplete' };
        return items.length ? { state: 'items', items, end: text.length } : fail('no complete call followed');
      }
      if (!text.startsWith(CALL, i)) return items.length ? { state: 'items', items, end: i } : fail('no call followed');
      const headerEnd = text.indexOf(SEP, i + CALL.length);
      if (headerEnd === -1) return context.final ? fail('a call was cut off') : { state: 'incomplete' };
      const name = unescape(attribute(text.slice(i + CALL.length, headerEnd), 'tool') ?? '');
      const args: Record<string, unknown> = {};
      let j = headerEnd + SEP.length;
      let closed = false;
      for (;;) {
        j = skipSpace(text, j);
        if (text.startsWith(CALL_END, j)) {
          j += CALL_END.length;
          closed = true;
          break;
        }
        if (!text.startsWith(ARGUMENT, j)) {
          if (!context.final && (j >= text.length || CALL_END.startsWith(text.slice(j)) || ARGUMENT.startsWith(text.slice(j)))) return { state: 'incomplete' };
          break;
        }
        const argEnd = text.indexOf(SEP, j + ARGUMENT.length);
        const valueEnd = argEnd === -1 ? -1 : text.indexOf(ARGUMENT_END, argEnd + SEP.length);
        if (valueEnd === -1) {
          if (!context.final) return { state: 'incomplete' };
          break; // cut off inside an argument: the call is incomplete
        }
        const attributes = text.slice(j + ARGUMENT.length, argEnd);
        const key = unescape(attribute(attributes, 'key') ?? '');
        const type = attribute(attributes, 'type');
        if (key) args[key] = argumentValue(context, name, key, type === undefined ? undefined : unescape(type), text.slice(argEnd + SEP.length, valueEnd));
        j = valueEnd + ARGUMENT_END.length;
      }
      if (!closed) {
        if (!context.final) return fail(`the call to ${name || 'a tool'} holds something that is not an argument`);
        // Cut off before `<|close|>call`: SGLang drops it; here it is reported, not run.
        return items.length ? { state: 'items', items, end: i } : fail(`the call to ${name || 'a tool'} was cut off`);
      }
      if (!name) return fail('a call has no tool');
      if (!context.tools.names.has(name)) return fail(`there is no tool named "${name}"`, name);
      items.push({ type: 'call', name, arguments: args, dialect: 'kimi-k3' });
      i = j;
    }
  },
  example: (name, args) =>
    `${TOOLS}<|open|>call tool="${name}" index="1"${SEP}${Object.entries(args)
      .map(([key, value]) => `<|open|>argument key="${key}" type="${typeof value === 'string' ? 'string' : typeof value}"${SEP}${typeof value === 'string' ? value : JSON.stringify(value)}${ARGUMENT_END}`)
      .join('')}${CALL_END}${TOOLS_END}`,
};
