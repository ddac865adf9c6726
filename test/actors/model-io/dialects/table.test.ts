import test from 'ava';
import type { TextItem } from '../../../../actors/model-io/dialects/dialect.js';
import { DIALECTS } from '../../../../actors/model-io/dialects/table.js';
import type { ToolSchema } from '../../../../actors/model-io/protocol.js';
import { TextCallParser } from '../../../../actors/model-io/calls/text-calls.js';
import { toolIndex } from '../../../../actors/model-io/calls/tool-index.js';
import { EXAMPLES } from './examples.js';

const NAMES = ['get_weather', 'search', 'get_tourist_attractions', 'get_current_weather', 'calculate_area', 'make_next_step_decision', 'todo_write', 'add', 'multiply', 'add_this_and_that', 'bash', 'test_function', 'get_current_stock_price', 'get_time', 'refresh', 'foo', 'bar', 'special_function', 'complex_function', 'set_status', 'get_status',
  'search_web', 'update_profile', 'update_settings', 'context_info', 'test_func', 'process_html', 'array_func', 'calculate', 'create_order', 'toggle', 'score', 'set_timer', 'unknown_fn', 'clear', 'echo', 'write_note',
  'edit_file', 'write_file', 'set_flag', 'process', 'update', 'set_temp', 'test', 'greet', 'create', 'first', 'second', 'get_current_date', 't1', 't2', 't3', 'python', 'a&b', 'read_agent', 'lookup'];
const schema: Record<string, Record<string, unknown>> = {
  calculate_area: { shape: { type: 'string' }, dimensions: { type: 'object' }, precision: { type: 'integer' } },
  todo_write: { todos: { type: 'array' } },
  get_weather: { city: { type: 'string' }, days: { type: 'integer' }, location: { type: 'string' } },
  // The schemas of the engines' tests the examples come from.
  search_web: { query: { type: 'string' }, limit: { type: 'integer' } },
  update_profile: { nickname: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
  update_settings: { config: { anyOf: [{ type: 'object' }, { type: 'null' }] } },
  context_info: { metadata_only: { type: 'boolean' } },
  array_func: { items: { type: 'array' } },
  create_order: {
    user_id: { type: 'integer' },
    urgent: { type: 'boolean' },
    note: { type: 'string' },
    shipping: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } },
    items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } } },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    duplicate_demo: { type: 'object' },
  },
  toggle: { enabled: { type: 'boolean' }, count: { type: 'integer' } },
  score: { value: { type: 'integer' } },
  set_timer: { wait: { anyOf: [{ type: 'object', properties: { type: { const: 'until' }, date: { type: 'string' } } }, { type: 'object', properties: { type: { const: 'for' }, minutes: { type: 'number' } } }] }, patches: { oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'null' }] } },
  clear: { value: { type: ['integer', 'null'] } },
  echo: { text: { type: 'string' } },
  write_note: { payload: { type: 'object' } },
  edit_file: { old_string: { type: 'string' }, indent: { type: 'integer' }, enabled: { type: 'boolean' } },
  search: { query: { type: 'string' }, limit: { type: 'integer' }, sort: { type: 'string' } },
  python: { code: { type: 'string' } },
  special_function: { arg1: { type: 'integer' } },
};
const tools: ToolSchema[] = NAMES.map((name) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: schema[name] ?? {} } } }));
const index = toolIndex(tools);

function feed(output: string, channel: 'text' | 'reasoning', pieces: 'whole' | 'bytes'): TextItem[] {
  const parser = new TextCallParser(index, { channel });
  const items: TextItem[] = [];
  if (pieces === 'whole') items.push(...parser.push(output));
  else for (const char of Array.from(output)) items.push(...parser.push(char));
  items.push(...parser.end());
  return items;
}

const MARKUP = /<\|START_THINKING\|>|<\|START_RESPONSE\|>|<\|END_RESPONSE\|>|<tool_call\|>|<\|"\|>|<\/?response>|<tool>|<tool_call>|<\|python_tag\|>|\[TOOL_CALLS\]|tool▁calls|<\|tool_call|<\|START_ACTION\|>|<\|action_start\|>|functools\[|<\|channel\|>|<\|message\|>|<arg_key>|<function=|<parameter=|```json|>>>|<\|python_start\|>|minimax|<\/?invoke|<parameter |｜DSML｜|\]<\]|steptml|_function_call>|<escape>|<\/?tool_calls|<tool_sep>|<\|tools_(prefix|suffix)\|>|<\|(open|close|sep)\|>|<\|inner_|<\|assistant_/;

test('every dialect in the table has recorded examples', (t) => {
  for (const dialect of DIALECTS) t.true((EXAMPLES[dialect.name]?.length ?? 0) > 0, `${dialect.name} has no examples`);
  for (const name of Object.keys(EXAMPLES)) t.truthy(DIALECTS.find((d) => d.name === name), `examples for an unknown dialect ${name}`);
});

for (const [dialect, examples] of Object.entries(EXAMPLES)) {
  examples.forEach((example, n) => {
    test(`dialect ${dialect} #${n + 1} (${example.source}): the calls, whole and byte at a time, in content and in reasoning`, (t) => {
      for (const channel of ['text', 'reasoning'] as const) {
        if (channel === 'reasoning' && example.contentOnly) continue; // line-start forms: plans in thoughts are not calls
        for (const pieces of ['whole', 'bytes'] as const) {
          const items = feed(example.output, channel, pieces);
          const where = `${channel}, ${pieces}`;
          const calls = items.filter((item) => item.type === 'call');
          t.deepEqual(
            calls.map((call) => (call.type === 'call' ? [call.name, call.arguments] : [])),
            example.calls.map(([name, args]) => [name, args ?? (calls[0]?.type === 'call' ? calls[0].arguments : undefined)]),
            where,
          );
          t.false(items.some((item) => item.type === 'malformed'), `${where}: nothing malformed`);
          const prose = items.filter((item) => item.type === 'text').map((item) => (item as { text: string }).text).join('');
          if (example.text !== undefined) t.is(prose, example.text, `${where}: the prose around the calls`);
          if (example.reasoning !== undefined) {
            const thoughts = items.filter((item) => item.type === 'reasoning').map((item) => (item as { text: string }).text).join('');
            t.is(thoughts, example.reasoning, `${where}: the thoughts the markup carried`);
          }
          t.false(MARKUP.test(prose), `${where}: no call markup left in the text: ${JSON.stringify(prose)}`);
        }
      }
    });
  });
}
