import { invokeTags, readInvoke } from '../calls/invoke-xml.js';
import { malformed, skipSpace, type Dialect, type Scan, type TextItem } from './dialect.js';

const TAGS = invokeTags('steptml:');
const token = (words: string) => new RegExp(`<[｜|]${words.split(' ').join('[_▁]')}[｜|]>`, 'y');
const CALLS_BEGIN = token('tool calls begin');
const CALLS_END = token('tool calls end');
const CALL_BEGIN = token('tool call begin');
const CALL_END = token('tool call end');
const SEP = token('tool sep');
/** The DeepSeek-style head some Step-3 outputs keep before the invoke: `function<｜tool_sep｜>NAME\n`. */
const HEAD = /function\s*<[｜|]tool[_▁]sep[｜|]>[^\n<]*\n?/y;

function match(pattern: RegExp, text: string, i: number): number {
  pattern.lastIndex = i;
  const found = pattern.exec(text);
  return found ? i + found[0].length : -1;
}

/** The text from `i` ends before it can be told what comes (a token or tag still arriving). */
function arriving(text: string, i: number): boolean {
  return text.length - i < 48 && !text.includes('>', i);
}

/**
 * Step-3 (`step3` parsers): DeepSeek's call tokens around an XML call,
 * `<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="NAME"><steptml:parameter
 * name="KEY">VALUE</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`, calls
 * apart by `<｜tool_sep｜>`. Tried before DeepSeek, which shares the tokens: without a `steptml:`
 * invoke after the first call token the text is DeepSeek's.
 */
export const step3: Dialect = {
  name: 'step3',
  label: 'Step-3 <steptml:invoke>',
  openers: ['<｜tool_calls_begin｜>', '<｜tool_call_begin｜>', '<|tool_calls_begin|>', '<|tool_call_begin|>'],
  marked: true,
  scan(text, start, _opener, context): Scan {
    const items: TextItem[] = [];
    let i = match(CALLS_BEGIN, text, start);
    if (i === -1) i = start;
    const stop = (t: string, j: number) => match(CALL_END, t, j) !== -1 || match(CALLS_END, t, j) !== -1 || match(SEP, t, j) !== -1 || match(CALL_BEGIN, t, j) !== -1;
    for (;;) {
      i = skipSpace(text, i);
      const begin = match(CALL_BEGIN, text, i);
      if (begin === -1) {
        if (!context.final && (i >= text.length || arriving(text, i))) return { state: 'incomplete' };
        if (items.length === 0) return { state: 'none' };
        const end = match(CALLS_END, text, i);
        return { state: 'items', items, end: end === -1 ? i : end };
      }
      let j = skipSpace(text, begin);
      const head = match(HEAD, text, j);
      if (head !== -1) j = skipSpace(text, head);
      else if (!context.final && text.startsWith('function', j) && !text.includes('\n', j)) return { state: 'incomplete' };
      if (!text.startsWith('<steptml:', j)) {
        if (!context.final && (j >= text.length || '<steptml:'.startsWith(text.slice(j, j + 9)))) return { state: 'incomplete' };
        if (items.length === 0) return { state: 'none' }; // DeepSeek's own call
        return malformed(text, start, text.length, 'step3', 'a call is not a steptml:invoke');
      }
      const read = readInvoke(text, j, TAGS, { tools: context.tools, final: context.final, stop });
      if (read.state === 'incomplete') return read;
      if (read.state === 'none') return context.final ? malformed(text, start, text.length, 'step3', 'a call could not be read') : { state: 'incomplete' };
      if (read.state === 'malformed') {
        let end = -1;
        for (let k = text.indexOf('<', read.end); k !== -1 && end === -1; k = text.indexOf('<', k + 1)) end = match(CALLS_END, text, k);
        if (end === -1 && !context.final) return { state: 'incomplete' };
        return malformed(text, start, end === -1 ? text.length : end, 'step3', read.reason, read.unknownTool);
      }
      items.push({ type: 'call', name: read.name, arguments: read.arguments, dialect: 'step3' });
      i = skipSpace(text, read.end);
      if (!context.final && arriving(text, i)) return { state: 'incomplete' };
      const callEnd = match(CALL_END, text, i);
      if (callEnd !== -1) i = skipSpace(text, callEnd);
      if (!context.final && arriving(text, i)) return { state: 'incomplete' };
      const sep = match(SEP, text, i);
      if (sep !== -1) i = sep;
    }
  },
  example: (name, args) =>
    `<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="${name}">${Object.entries(args)
      .map(([key, value]) => `<steptml:parameter name="${key}">${typeof value === 'string' ? value : JSON.stringify(value)}</steptml:parameter>`)
      .join('')}</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`,
};
