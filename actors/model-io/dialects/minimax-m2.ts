import { invokeBlock, invokeTags } from '../calls/invoke-xml.js';
import type { Dialect } from './dialect.js';

const OPEN = '<minimax:tool_call>';
const CLOSE = '</minimax:tool_call>';
const TAGS = invokeTags('');
const CLOSER = /<\/minimax:tool_call\s*>/y;

/**
 * MiniMax-M2 / M2.1 / M2.5 (`minimax_m2` parsers): `<minimax:tool_call><invoke name="NAME">
 * <parameter name="KEY">VALUE</parameter></invoke></minimax:tool_call>`, several invokes per
 * block. Read as the engines read it: `</invoke>`, `</parameter>` or `</minimax:tool_call>`
 * missing ends the call at the next tag or at the end of the stream.
 */
export const minimaxM2: Dialect = {
  name: 'minimax-m2',
  label: 'MiniMax-M2 <minimax:tool_call><invoke>',
  openers: [OPEN],
  marked: true,
  scan: (text, start, _opener, context) => invokeBlock(text, start, start + OPEN.length, TAGS, CLOSER, 'minimax-m2', context),
  example: (name, args) =>
    `${OPEN}\n<invoke name="${name}">\n${Object.entries(args)
      .map(([key, value]) => `<parameter name="${key}">${typeof value === 'string' ? value : JSON.stringify(value)}</parameter>\n`)
      .join('')}</invoke>\n${CLOSE}`,
};
