import { callItems, json, malformed, skipSpace, type Dialect, type TextItem } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

/** A DeepSeek token at `i`: its words joined by `_` (`tool_calls_begin`), its end; `partial` when the text ends inside one. */
function token(text: string, i: number): { name: string; end: number } | 'partial' | undefined {
  if (text[i] !== '<') return undefined;
  const bar = text[i + 1];
  if (bar === undefined) return 'partial';
  if (bar !== '｜' && bar !== '|') return undefined;
  let j = i + 2;
  let name = '';
  while (j < text.length && j - i < 40) {
    const c = text[j]!;
    if (c === '｜' || c === '|') {
      if (j + 1 >= text.length) return 'partial';
      return text[j + 1] === '>' ? { name: name.replace(/_+/g, '_'), end: j + 2 } : undefined;
    }
    if (c === '▁' || c === '_' || c === ' ' || c === '\\') name += '_';
    else if (/[a-z]/.test(c)) name += c;
    else return undefined;
    j++;
  }
  return j >= text.length ? 'partial' : undefined;
}

const SPELLINGS = ['<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<|tool▁calls▁begin|>', '<|tool_calls_begin|>', '<｜tool_calls_begin｜>', '<｜tool calls begin｜>', '<｜tool\\_calls\\_begin｜>', '<｜tool▁calls｜>', '<|tool▁call▁begin|>'];

/**
 * DeepSeek V3 / R1 / V3.1 (`deepseek_v3`, `deepseek_v31` parsers and llama.cpp's R1 parser):
 * ```
 * <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
 * ```json
 * {…}
 * ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
 * ```
 * V3.1 writes `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`. The tokens also come
 * spelt in ASCII (`<|tool_calls_begin|>`, `▁` as `_` or a space, `\_`), as distilled models and
 * detokenisers print them; every spelling reads the same.
 */
export const deepseek: Dialect = {
  name: 'deepseek',
  label: 'DeepSeek <｜tool▁calls▁begin｜>',
  openers: SPELLINGS,
  marked: true,
  scan(text, start, _opener, context) {
    const items: TextItem[] = [];
    const first = token(text, start);
    if (first === 'partial') return context.final ? { state: 'none' } : { state: 'incomplete' };
    if (!first) return { state: 'none' };
    let i = first.name === 'tool_call_begin' ? start : first.end;
    const fail = (reason: string, end = text.length, unknownTool?: string) => malformed(text, start, end, 'deepseek', reason, unknownTool);
    for (;;) {
      i = skipSpace(text, i);
      if (i >= text.length) return context.final ? (items.length ? { state: 'items', items, end: i } : fail('no call followed')) : { state: 'incomplete' };
      const tok = token(text, i);
      if (tok === 'partial') return context.final ? fail('a token was cut off') : { state: 'incomplete' };
      if (!tok || tok.name === 'tool_calls_end') {
        const end = tok ? tok.end : i;
        return items.length ? { state: 'items', items, end } : fail('no call followed', end);
      }
      if (tok.name !== 'tool_call_begin') return fail(`unexpected token ${text.slice(i, tok.end)}`, tok.end);
      // `function<sep>NAME\n```json\n{…}\n```` (V3, R1) or `NAME<sep>{…}` (V3.1).
      const sepAt = text.slice(tok.end, tok.end + 200).search(/<[｜|]tool[▁_ \\]+sep[｜|]>/);
      if (sepAt === -1) return context.final || text.length - tok.end >= 200 ? fail('a call has no name') : { state: 'incomplete' };
      const before = text.slice(tok.end, tok.end + sepAt).trim();
      const sep = token(text, tok.end + sepAt) as { end: number };
      let name: string;
      let argsAt: number;
      if (before === '' || before === 'function') {
        const line = /^([^\n`{]*)/.exec(text.slice(sep.end))![1]!;
        if (sep.end + line.length >= text.length && !context.final) return { state: 'incomplete' };
        name = line.trim();
        argsAt = skipSpace(text, sep.end + line.length);
        if (text.startsWith('```', argsAt)) {
          const nl = text.indexOf('\n', argsAt);
          if (nl === -1) return context.final ? fail(`the arguments of ${name} are missing`) : { state: 'incomplete' };
          argsAt = skipSpace(text, nl + 1);
        }
      } else {
        name = before;
        argsAt = skipSpace(text, sep.end);
      }
      if (argsAt >= text.length) return context.final ? fail(`the arguments of ${name} are missing`) : { state: 'incomplete' };
      const read = readJson(text, argsAt, context.final);
      if (read.state === 'incomplete') return read;
      if (read.state === 'broken') return fail(read.reason, read.end);
      const got = callsFromJson({ name, arguments: read.value }, context.tools);
      if (!got.ok) return fail(got.reason, read.end, got.unknownTool);
      items.push(...(callItems(got.calls, 'deepseek', 0) as { items: TextItem[] }).items);
      i = skipSpace(text, read.end);
      if (!context.final && i < text.length && text.length - i < 3 && '```'.startsWith(text.slice(i))) return { state: 'incomplete' };
      if (text.startsWith('```', i)) i = skipSpace(text, i + 3);
      const end = token(text, i);
      if (end === 'partial' || (i >= text.length && !context.final)) {
        if (!context.final) return { state: 'incomplete' };
      } else if (end && end.name === 'tool_call_end') {
        i = end.end;
      }
      if (i >= text.length && context.final) return { state: 'items', items, end: i };
    }
  },
  example: (name, args) => `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${json(args)}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
};
