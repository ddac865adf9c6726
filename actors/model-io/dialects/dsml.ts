import { invokeBlock, invokeTags } from '../calls/invoke-xml.js';
import type { Dialect } from './dialect.js';

/** `｜DSML｜` as models and detokenisers print it: full-width or ASCII bars, sometimes doubled, a space after. */
const NS = '[｜|]+DSML[｜|]+ ?';
const TAGS = invokeTags(NS);
const BLOCK = new RegExp(`<${NS}([a-z_ ]*calls)>`, 'y');
const BLOCK_END = new RegExp(`</${NS}[a-z_ ]*calls\\s*>`, 'y');

/**
 * A single `arguments` or `input` parameter the tool does not have, holding an object of the
 * tool's own parameters, is that object (vLLM's DeepSeek V3.2 parser repairs it the same way).
 */
function unwrap(tools: Parameters<Dialect['scan']>[3]['tools']) {
  return (name: string, args: Record<string, unknown>): Record<string, unknown> => {
    const keys = Object.keys(args);
    const properties = tools.properties.get(name) ?? {};
    if (keys.length !== 1 || !['arguments', 'input'].includes(keys[0]!) || keys[0]! in properties) return args;
    let inner = args[keys[0]!];
    if (typeof inner === 'string') {
      try {
        inner = JSON.parse(inner);
      } catch {
        return args;
      }
    }
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return args;
    return Object.keys(inner).some((key) => key in properties) ? (inner as Record<string, unknown>) : args;
  };
}

/**
 * DeepSeek V3.2 and V4 DSML (`deepseek_v32`, `deepseek_v4` parsers):
 * `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4), then
 * `<｜DSML｜invoke name="NAME"><｜DSML｜parameter name="KEY" string="true">VALUE</｜DSML｜parameter>
 * </｜DSML｜invoke>` and the closing block tag. `string="false"` values are JSON; both are typed by
 * the tool's schema. Read with prose or a bare `</think>` before it (the think splitter drops the
 * latter), and in the reasoning channel, where V4 sometimes writes its call.
 */
export const dsml: Dialect = {
  name: 'dsml',
  label: 'DeepSeek V3.2/V4 <｜DSML｜tool_calls>',
  openers: ['<｜DSML｜', '<｜｜DSML', '<|DSML|', '<||DSML'],
  marked: true,
  scan(text, start, _opener, context) {
    BLOCK.lastIndex = start;
    const block = BLOCK.exec(text);
    if (!block) {
      const rest = text.slice(start, start + 48);
      return !context.final && !rest.includes('>') && rest.length < 48 ? { state: 'incomplete' } : { state: 'none' };
    }
    return invokeBlock(text, start, start + block[0].length, TAGS, BLOCK_END, 'dsml', context, unwrap(context.tools));
  },
  example: (name, args) =>
    `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="${name}">\n${Object.entries(args)
      .map(([key, value]) => `<｜DSML｜parameter name="${key}" string="${typeof value === 'string'}">${typeof value === 'string' ? value : JSON.stringify(value)}</｜DSML｜parameter>\n`)
      .join('')}</｜DSML｜invoke>\n</｜DSML｜tool_calls>`,
};
