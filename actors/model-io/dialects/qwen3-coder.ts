import { scanXmlCall } from '../calls/xml-call.js';
import { callItems, malformed, type Dialect } from './dialect.js';

/** Qwen3-Coder's XML: `<function=name><parameter=key>value</parameter></function>` (in `<tool_call>` or bare). */
export const qwen3Coder: Dialect = {
  name: 'qwen3-coder',
  label: 'Qwen3-Coder <function=…> XML',
  openers: ['<function='],
  marked: true,
  scan(text, start, _opener, context) {
    const scan = scanXmlCall(text, start, context.tools, context.final);
    if (scan.state === 'incomplete' || scan.state === 'none') return scan;
    if (scan.state === 'malformed') return malformed(text, start, scan.end, 'qwen3-coder', scan.reason, scan.unknownTool);
    return callItems([scan], 'qwen3-coder', scan.end);
  },
  example: (name, args) =>
    `<tool_call>\n<function=${name}>\n${Object.entries(args)
      .map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>\n`)
      .join('')}</function>\n</tool_call>`,
};
