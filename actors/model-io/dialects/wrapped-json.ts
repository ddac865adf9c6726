import { closeTag, json, malformed, skipSpace, type Dialect, type Scan, type ScanContext } from './dialect.js';
import { jsonBody } from './hermes.js';

/**
 * A family whose calls are JSON after a marker and an optional closing marker: most of them.
 * `shape` builds the example call object (the keys that family uses).
 */
export function wrappedJson(spec: {
  name: string;
  label: string;
  openers: Record<string, string | undefined>;
  example(name: string, args: Record<string, unknown>): string;
}): Dialect {
  return {
    name: spec.name,
    label: spec.label,
    openers: Object.keys(spec.openers),
    marked: true,
    scan(text: string, start: number, opener: string, context: ScanContext): Scan {
      const closer = spec.openers[opener];
      // `functools[`: the bracket is the opener's last character and the body's first.
      const body = skipSpace(text, start + opener.length - (opener.endsWith('[') ? 1 : 0));
      if (body >= text.length) return context.final ? malformed(text, start, text.length, spec.name, 'the call was empty') : { state: 'incomplete' };
      const c = text[body];
      if (c !== '{' && c !== '[' && c !== '`') {
        const line = text.indexOf('\n', body);
        return malformed(text, start, line === -1 ? text.length : line, spec.name, 'no JSON call followed the marker');
      }
      const scan = jsonBody(text, body, closer, spec.name, context, start);
      if (scan.state !== 'items' || !closer) return scan;
      const end = closeTag(text, scan.end, [closer], context.final);
      return end === 'incomplete' ? { state: 'incomplete' } : { ...scan, end };
    },
    example: spec.example,
  };
}

/** Granite 3.x `<|tool_call|>[…]` and Granite 20B FC `<function_call> {…}` (one marker per call). */
export const granite = wrappedJson({
  name: 'granite',
  label: 'Granite <|tool_call|>',
  openers: { '<|tool_call|>': undefined, '<function_call>': '</function_call>' },
  example: (name, args) => `<|tool_call|>${json([{ name, arguments: args }])}`,
});

const commandRActions = wrappedJson({
  name: 'command-r',
  label: 'Command-R <|START_ACTION|>',
  openers: { '<|START_ACTION|>': '<|END_ACTION|>' },
  example: (name, args) => `<|START_ACTION|>[\n    ${json({ tool_call_id: '0', tool_name: name, parameters: args })}\n]<|END_ACTION|>`,
});

/** Command-R's markers around an answer: dropped, so the answer streams as it comes. */
const COMMAND_R_RESPONSE = ['<|START_RESPONSE|>', '<|END_RESPONSE|>'];
const COMMAND_R_THINKING = '<|START_THINKING|>';
const COMMAND_R_THOUGHT_END = '<|END_THINKING|>';

/**
 * Command R7B / Command A: `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": …, "parameters": …}]<|END_ACTION|>`,
 * after `<|START_THINKING|>…<|END_THINKING|>` (the plan, read as reasoning) and instead of
 * `<|START_RESPONSE|>…<|END_RESPONSE|>` (the answer, kept without its markers).
 */
export const commandR: Dialect = {
  ...commandRActions,
  openers: [...commandRActions.openers, COMMAND_R_THINKING, ...COMMAND_R_RESPONSE],
  scan(text, start, opener, context) {
    if (COMMAND_R_RESPONSE.includes(opener)) return { state: 'items', items: [], end: start + opener.length };
    if (opener !== COMMAND_R_THINKING) return commandRActions.scan(text, start, opener, context);
    const body = start + opener.length;
    const close = text.indexOf(COMMAND_R_THOUGHT_END, body);
    if (close === -1 && !context.final) return { state: 'incomplete' };
    const thought = text.slice(body, close === -1 ? text.length : close).trim();
    const end = close === -1 ? text.length : close + COMMAND_R_THOUGHT_END.length;
    return { state: 'items', items: thought ? [{ type: 'reasoning', text: thought }] : [], end };
  },
};

/** InternLM 2/2.5: `<|action_start|><|plugin|>\n{"name": …, "parameters": …}<|action_end|>`. */
export const internlm = wrappedJson({
  name: 'internlm',
  label: 'InternLM <|action_start|><|plugin|>',
  openers: { '<|action_start|><|plugin|>': '<|action_end|>', '<|action_start|>': '<|action_end|>' },
  example: (name, args) => `<|action_start|><|plugin|>\n${json({ name, parameters: args })}<|action_end|>`,
});

/** Phi-4-mini: `functools[{"name": …, "arguments": …}]`. */
export const phi4 = wrappedJson({
  name: 'phi4',
  label: 'Phi-4-mini functools[…]',
  openers: { 'functools[': undefined },
  example: (name, args) => `functools${json([{ name, arguments: args }])}`,
});
