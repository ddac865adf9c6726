import type { ToolIndex } from '../calls/tool-index.js';
import { malformed, type Dialect, type Scan } from './dialect.js';
import { DIALECTS } from './table.js';

/** How far after the marker a tool's name is looked for. */
const WINDOW = 600;
const SPECIAL = /<[｜|][^<>｜|\n]{1,48}[｜|]>|\]<\][^\][\n]{1,48}\[>\[/y;
const SPECIAL_OPEN = /^(?:<[｜|][^<>｜|\n]{0,48}[｜|]?|\]<?\]?[^\][\n]{0,48}\[?>?)$/;
const TAG_NAME = /<\/?([A-Za-z][\w:.\-]*)/y;
const CALLISH = /tool|call|invoke|function|parameter/i;
const BEFORE = new Set(['"', "'", '>', '=', ':', '|', '[', '(', '.', '`']);
const AFTER = new Set(['"', "'", '<', '(', '{', '>', ':', '|', '[', ',', '}', '`']);
const WORD = /[A-Za-z_][\w.\-]*/g;
/** Openers of the table's marked families: a known call inside the window is read by its family. */
const KNOWN = DIALECTS.filter((dialect) => dialect.marked).flatMap((dialect) => dialect.openers);

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** A tool offered in the request, named in `text` where a call names its tool. */
export function namedTool(text: string, tools: ToolIndex): string | undefined {
  WORD.lastIndex = 0;
  for (let found = WORD.exec(text); found; found = WORD.exec(text)) {
    const word = found[0];
    const name = tools.names.has(word) ? word : word.startsWith('functions.') && tools.names.has(word.slice(10)) ? word.slice(10) : undefined;
    if (!name) continue;
    let b = found.index - 1;
    for (let n = 0; n < 2 && isSpace(text[b]); n++) b--;
    let a = found.index + word.length;
    for (let n = 0; n < 3 && isSpace(text[a]); n++) a++;
    if (BEFORE.has(text[b] ?? '') && (a >= text.length || AFTER.has(text[a]!))) return name;
  }
  return undefined;
}

/** The marker at `start`: its text, `partial` while it may still be arriving, or undefined. */
function marker(text: string, start: number): string | 'partial' | undefined {
  const c = text[start];
  if (c === ']' || (c === '<' && (text[start + 1] === '|' || text[start + 1] === '｜'))) {
    SPECIAL.lastIndex = start;
    const found = SPECIAL.exec(text);
    if (found) return found[0];
    return SPECIAL_OPEN.test(text.slice(start, start + 52)) && text.length - start < 52 ? 'partial' : undefined;
  }
  TAG_NAME.lastIndex = start;
  const name = TAG_NAME.exec(text);
  if (!name) return text.length - start < 3 && '</'.startsWith(text.slice(start)) ? 'partial' : undefined;
  const after = start + name[0].length;
  if (after >= text.length) return 'partial'; // the name may still grow
  if (!CALLISH.test(name[1]!)) return undefined;
  const close = text.indexOf('>', after);
  if (close === -1 || close - after > 300 || /[<\n]/.test(text.slice(after, close))) return text.length - after < 300 && close === -1 && !text.includes('<', after) ? 'partial' : undefined;
  return text.slice(start, close + 1);
}

/**
 * The safety net behind the table: call markup of a format no entry knows is never the answer.
 * Tried last at every `<`, `<|`, `<｜` and `]<]` of the content (not the reasoning, where a model
 * may think about markup; not inside code, where HTML, JSX and XML are text). What counts:
 * - a special-token bracket, `<|word|>`, `<｜word｜>`, `]<]word[>[`;
 * - a tag named like a call, `<tool…>`, `<x:call>`, `<invoke …>`, `<function…>`, `<parameter…>`;
 * when a tool offered in the request is named near it in a call's position (`<call>read{`,
 * `name="read"`, `"read"`, `=read>`). Then the rest of the reply is held and, at its end, reported
 * (`malformed`, dialect `unknown`): the model is asked once for its native format or Hermes'
 * `<tool_call>{json}</tool_call>`, and the turn ends after a second failure, as for known families.
 * Marker and no tool named within {@link WINDOW} characters: ordinary text.
 */
export const unknownMarkup: Dialect = {
  name: 'unknown',
  label: 'an unknown tool-call format',
  openers: ['<', ']<]'],
  marked: true,
  scan(text, start, _opener, context): Scan {
    if (context.channel === 'reasoning') return { state: 'none' };
    const found = marker(text, start);
    if (!found || context.codeAt?.(start)) return { state: 'none' };
    if (found === 'partial') return context.final ? { state: 'none' } : { state: 'incomplete' };
    const window = text.slice(start, start + WINDOW);
    // A wrapper around a call a family reads (`<seed:tool_call><function=…>`): that family reads it.
    const tool = KNOWN.some((opener) => window.includes(opener, found.length)) ? undefined : namedTool(window, context.tools);
    if (!tool) return !context.final && text.length < start + WINDOW ? { state: 'incomplete' } : { state: 'none' };
    if (!context.final) return { state: 'incomplete' }; // its end is unknown: the rest of the reply goes with it
    return malformed(text, start, text.length, 'unknown', `it starts ${JSON.stringify(found.slice(0, 60))}`);
  },
  example: (name, args) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`,
};
