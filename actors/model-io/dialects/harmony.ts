import { callItems, json, malformed, type Dialect, type TextItem } from './dialect.js';
import { callsFromJson, readJson } from './json-call.js';

const MESSAGE = '<|message|>';
const ENDS = ['<|call|>', '<|end|>', '<|return|>'];

/**
 * gpt-oss harmony (`openai` tool parser), printed as text when the server does not parse it:
 * `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>` (the recipient
 * may also stand before `<|channel|>`). An `analysis` message goes to the reasoning, a `final` one
 * is the answer, both without their markup.
 */
export const harmony: Dialect = {
  name: 'harmony',
  label: 'gpt-oss harmony <|channel|>commentary to=functions.NAME',
  openers: ['<|start|>', '<|channel|>'],
  marked: true,
  scan(text, start, _opener, context) {
    const headerEnd = text.indexOf(MESSAGE, start);
    if (headerEnd === -1) return !context.final && text.length - start < 400 ? { state: 'incomplete' } : { state: 'none' };
    const header = text.slice(start, headerEnd);
    if (!/^<\|start\|>|^<\|channel\|>/.test(header) || header.length > 400) return { state: 'none' };
    const bodyStart = headerEnd + MESSAGE.length;
    const recipient = /to=(?:functions\.)?([A-Za-z_][A-Za-z0-9_.\-]*)/.exec(header)?.[1];
    if (recipient) {
      let i = bodyStart;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (i >= text.length) return context.final ? malformed(text, start, text.length, 'harmony', `the arguments of ${recipient} are missing`) : { state: 'incomplete' };
      const read = readJson(text, i, context.final, '<|call|>');
      if (read.state === 'incomplete') return read;
      if (read.state === 'broken') return malformed(text, start, read.end, 'harmony', read.reason);
      let end = read.end;
      const closer = ENDS.find((tag) => text.startsWith(tag, end));
      if (closer) end += closer.length;
      else if (!context.final && ENDS.some((tag) => tag.startsWith(text.slice(end)))) return { state: 'incomplete' };
      const got = callsFromJson({ name: recipient, arguments: read.value }, context.tools);
      if (!got.ok) return malformed(text, start, end, 'harmony', got.reason, got.unknownTool);
      return callItems(got.calls, 'harmony', end);
    }
    // A message without a recipient: its text, routed by channel, up to its end marker.
    const channel = /<\|channel\|>\s*([a-z]+)/.exec(header)?.[1] ?? 'final';
    let bodyEnd = -1;
    let end = -1;
    for (const tag of [...ENDS, '<|start|>', '<|channel|>']) {
      const at = text.indexOf(tag, bodyStart);
      if (at !== -1 && (bodyEnd === -1 || at < bodyEnd)) {
        bodyEnd = at;
        end = tag.startsWith('<|start') || tag.startsWith('<|channel') ? at : at + tag.length;
      }
    }
    if (bodyEnd === -1) {
      if (!context.final) return { state: 'incomplete' };
      bodyEnd = end = text.length;
    }
    const body = text.slice(bodyStart, bodyEnd);
    const items: TextItem[] = body ? [channel === 'analysis' ? { type: 'reasoning', text: body } : { type: 'text', text: body }] : [];
    return { state: 'items', items, end };
  },
  example: (name, args) => `<|channel|>commentary to=functions.${name} <|constrain|>json<|message|>${json(args)}<|call|>`,
};
