import { callItems, closeTag, json, malformed, skipSpace, type Dialect } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

const PREFIX = '<|tools_prefix|>';
const SUFFIX = '<|tools_suffix|>';
/** Apertus 1.5's thoughts and turn markers (Ollama's apertus1.5 parser). */
const INNER = '<|inner_prefix|>';
const INNER_END = '<|inner_suffix|>';
const QUIET = ['<|assistant_start|>', '<|assistant_end|>', INNER_END];

/** `[{"NAME": {…}}, …]` as calls: each object's one key is the tool, its value the arguments. */
function keyedCalls(value: unknown): unknown {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return entry;
    const keys = Object.keys(entry);
    if (keys.length !== 1 || ['name', 'function', 'tool_name', 'tool'].includes(keys[0]!)) return entry;
    return { name: keys[0], arguments: (entry as Record<string, unknown>)[keys[0]!] };
  });
}

/**
 * Swiss AI Apertus (`apertus` parsers): `<|tools_prefix|>[{"NAME": {ARGS}}]<|tools_suffix|>`, the
 * tool's name as the JSON key; several calls in the list; the suffix may be missing, and a list
 * cut off at the end of the stream is closed (vLLM's `test_incomplete_tool_call`). Apertus 1.5's
 * `<|inner_prefix|>…<|inner_suffix|>` thoughts go to the reasoning (ended early by a call) and its
 * turn markers are dropped.
 */
export const apertus: Dialect = {
  name: 'apertus',
  label: 'Apertus <|tools_prefix|>[{"NAME": {…}}]',
  openers: [PREFIX, INNER, ...QUIET],
  marked: true,
  scan(text, start, opener, context) {
    if (QUIET.includes(opener)) return { state: 'items', items: [], end: start + opener.length };
    if (opener === INNER) {
      const from = start + INNER.length;
      const ends = [text.indexOf(INNER_END, from), text.indexOf(PREFIX, from)].filter((at) => at !== -1);
      if (ends.length === 0 && !context.final) return { state: 'incomplete' };
      const to = ends.length ? Math.min(...ends) : text.length;
      const end = text.startsWith(INNER_END, to) ? to + INNER_END.length : to;
      return { state: 'items', items: to > from ? [{ type: 'reasoning', text: text.slice(from, to) }] : [], end };
    }
    const body = skipSpace(text, start + PREFIX.length);
    if (body >= text.length) return context.final ? malformed(text, start, text.length, 'apertus', 'no call followed') : { state: 'incomplete' };
    if (text[body] !== '[' && text[body] !== '{') {
      const end = closeTag(text, body, [SUFFIX], context.final);
      if (end === 'incomplete') return { state: 'incomplete' };
      return malformed(text, start, Math.max(end, body), 'apertus', 'no JSON list of calls followed');
    }
    const read = readJson(text, body, context.final, SUFFIX);
    if (read.state === 'incomplete') return read;
    const end = closeTag(text, read.end, [SUFFIX], context.final);
    if (end === 'incomplete') return { state: 'incomplete' };
    if (read.state === 'broken') return malformed(text, start, end, 'apertus', read.reason);
    const got = callsFromJson(keyedCalls(read.value), context.tools);
    if (!got.ok) return malformed(text, start, end, 'apertus', got.reason, got.unknownTool);
    return callItems(got.calls, 'apertus', end);
  },
  example: (name, args) => `${PREFIX}[${json({ [name]: args })}]${SUFFIX}`,
};
