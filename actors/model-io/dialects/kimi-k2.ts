import { callItems, closeTag, json, malformed, skipSpace, type Dialect, type TextItem } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

const SECTION = '<|tool_calls_section_begin|>';
const SECTION_END = '<|tool_calls_section_end|>';
const CALL = '<|tool_call_begin|>';
const ARGS = '<|tool_call_argument_begin|>';
const CALL_END = '<|tool_call_end|>';

/**
 * Kimi-K2 (`kimi_k2` parsers): `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0
 * <|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>`.
 */
export const kimiK2: Dialect = {
  name: 'kimi-k2',
  label: 'Kimi-K2 <|tool_calls_section_begin|>',
  openers: [SECTION, CALL],
  marked: true,
  scan(text, start, opener, context) {
    const items: TextItem[] = [];
    let i = opener === SECTION ? start + SECTION.length : start;
    const fail = (reason: string, end = text.length, unknown?: string) => malformed(text, start, end, 'kimi-k2', reason, unknown);
    for (;;) {
      i = skipSpace(text, i);
      if (!text.startsWith(CALL, i)) {
        if (!context.final && (i >= text.length || CALL.startsWith(text.slice(i)) || SECTION_END.startsWith(text.slice(i)))) return { state: 'incomplete' };
        const end = closeTag(text, i, [SECTION_END], context.final);
        if (end === 'incomplete') return { state: 'incomplete' };
        return items.length ? { state: 'items', items, end } : fail('no call followed', end);
      }
      const argsAt = text.indexOf(ARGS, i);
      if (argsAt === -1) return context.final || text.length - i > 300 ? fail('a call has no arguments') : { state: 'incomplete' };
      const id = text.slice(i + CALL.length, argsAt).trim();
      const name = id.replace(/^functions\./, '').replace(/:\d+$/, '');
      const body = skipSpace(text, argsAt + ARGS.length);
      if (body >= text.length) return context.final ? fail(`the arguments of ${name} are missing`) : { state: 'incomplete' };
      const read = readJson(text, body, context.final, CALL_END);
      if (read.state === 'incomplete') return read;
      if (read.state === 'broken') return fail(read.reason, read.end);
      const got = callsFromJson({ name, arguments: read.value }, context.tools);
      if (!got.ok) return fail(got.reason, read.end, got.unknownTool);
      items.push(...(callItems(got.calls, 'kimi-k2', 0) as { items: TextItem[] }).items);
      const end = closeTag(text, read.end, [CALL_END], context.final);
      if (end === 'incomplete') return { state: 'incomplete' };
      i = end;
    }
  },
  example: (name, args) => `${SECTION}${CALL}functions.${name}:0${ARGS}${json(args)}${CALL_END}${SECTION_END}`,
};
