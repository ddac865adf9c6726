import test from 'ava';
import type { WireDelta } from '../../../../actors/model-io/calls/map-chunk.js';
import { toolIndex } from '../../../../actors/model-io/calls/tool-index.js';
import { TurnAssembler } from '../../../../actors/model-io/calls/turn-assembler.js';
import type { ChatReply, ModelEvent, ToolSchema } from '../../../../actors/model-io/protocol.js';

/**
 * The safety net behind the dialect table: call markup of a format no entry knows never becomes
 * the answer. The shapes below are invented (no engine's parser reads them, no table entry
 * knows them); the negative cases are ordinary answers with HTML, JSX and XML that must stream
 * as they are.
 */
const tool = (name: string, properties: Record<string, unknown>): ToolSchema => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties } } });
const tools = toolIndex([tool('read', { path: { type: 'string' } }), tool('edit', { path: { type: 'string' }, old_string: { type: 'string' } }), tool('bash', { command: { type: 'string' } })]);

function run(channel: 'text' | 'reasoning', output: string, pieces: 'whole' | 'bytes'): { reply: ChatReply; shown: string; notices: string[] } {
  const events: ModelEvent[] = [];
  let n = 0;
  const turn = new TurnAssembler(tools, (event) => events.push(event), () => `id${n++}`);
  const parts = pieces === 'whole' ? [output] : Array.from(output);
  for (const text of parts) turn.push({ kind: channel, text } as WireDelta);
  const reply = turn.finish(false);
  const shown = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
  const notices = events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));
  return { reply, shown, notices };
}

const UNKNOWN: Array<{ title: string; output: string; marker: string; prose?: string }> = [
  { title: 'special tokens around a name and JSON', output: '<|tool_start|>read{"path": "a.ts"}<|tool_end|>', marker: '<|tool_start|>' },
  { title: 'full-width special tokens', output: 'Let me look.\n<｜tool▁invoke｜>read<｜args｜>{"path":"a.ts"}<｜end｜>', marker: '<｜tool▁invoke｜>', prose: 'Let me look.\n' },
  { title: 'a namespace token before every tag', output: ']<]acme[>[<call name="read">]<]acme[>[<path>a.ts]<]acme[>[</path>]<]acme[>[</call>', marker: ']<]acme[>[' },
  { title: 'an XML tool_use block', output: 'Reading it now.\n<tool_use>\n<name>read</name>\n<input>{"path": "a.ts"}</input>\n</tool_use>', marker: '<tool_use>', prose: 'Reading it now.\n' },
  { title: 'a function_call tag with attributes', output: '<function_call name="read">{"path":"a.ts"}</function_call>', marker: '<function_call name="read">' },
  { title: 'namespaced invoke and argument tags', output: '<x:invoke tool="edit"><x:arg key="path">a.ts</x:arg><x:arg key="old_string">a</x:arg></x:invoke>', marker: '<x:invoke tool="edit">' },
  { title: 'a bare special token and a qualified name', output: 'Checking.<|call|>functions.bash\n{"command":"ls"}', marker: '<|call|>', prose: 'Checking.' },
];

for (const shape of UNKNOWN) {
  test(`unknown call markup is not the answer: ${shape.title} (whole and byte at a time)`, (t) => {
    for (const pieces of ['whole', 'bytes'] as const) {
      const { reply, shown, notices } = run('text', shape.output, pieces);
      t.deepEqual(reply.toolCalls, [], pieces);
      t.is(shown, shape.prose ?? '', `${pieces}: only the prose streamed`);
      t.is(reply.text, shape.prose ?? '', `${pieces}: the reply's text holds no markup`);
      t.is(notices.length, 1, `${pieces}: one line for the user`);
      t.true(notices[0]!.includes(JSON.stringify(shape.marker).slice(0, 40)), `${pieces}: the line names the format: ${notices[0]}`);
      t.regex(reply.correction ?? '', /native tool-call format/, pieces);
      t.regex(reply.correction ?? '', /<tool_call>\n\{"name":"read","arguments":\{"path":"…"\}\}\n<\/tool_call>/, pieces);
      t.is(reply.dialect, 'unknown');
    }
  });
}

test('markup no table knows in the reasoning is left alone (a model may think about formats)', (t) => {
  const { reply, notices } = run('reasoning', '<|tool_start|>read{"path": "a.ts"}<|tool_end|>', 'whole');
  t.is(reply.reasoning, '<|tool_start|>read{"path": "a.ts"}<|tool_end|>');
  t.deepEqual(notices, []);
  t.is(reply.correction, undefined);
});

const ORDINARY: Array<{ title: string; output: string }> = [
  { title: 'HTML in a code fence', output: 'Here is the markup:\n```html\n<div class="tool"><button onclick="read()">Read</button></div>\n```\nThat is all.' },
  { title: 'JSX in a code fence naming a tool', output: '```tsx\nexport function Tools({ call }) {\n  return <ToolCallView name="read" onRun={() => run(call)} />;\n}\n```' },
  { title: 'XML invoke markup in a code fence', output: 'The format looks like this:\n```xml\n<invoke name="read"><parameter name="path">a.ts</parameter></invoke>\n```\n' },
  { title: 'a call tag in inline code', output: 'Write `<tool_call name="read">` to call it, then `</tool_call>`.' },
  { title: 'a stray special token after the answer', output: 'Done. You can read a.ts now.<|im_end|>' },
  { title: 'prose with HTML tags and tool names', output: 'I will read the file <b>now</b> and then edit it, <i>carefully</i>.' },
  { title: 'a call-like tag that names no tool', output: 'A <function> in C has a <parameter> list; see <call-stack> too.' },
  { title: 'a partial DSML token in prose (vLLM test_false_partial_marker_emitted)', output: '<｜DSM some regular text' },
  { title: 'comparisons', output: 'if a < b and c > d then read < edit' },
  { title: 'a React component in prose without a tool', output: 'Render <ToolCallList calls={calls} /> in the sidebar.' },
];

for (const answer of ORDINARY) {
  test(`an ordinary answer streams as it is: ${answer.title}`, (t) => {
    for (const pieces of ['whole', 'bytes'] as const) {
      const { reply, shown, notices } = run('text', answer.output, pieces);
      t.is(shown, answer.output, pieces);
      t.is(reply.text, answer.output, pieces);
      t.deepEqual(notices, [], pieces);
      t.is(reply.correction, undefined, pieces);
    }
  });
}

test('unknown markup after a call that ran still reaches the model as a note, not the user as text', (t) => {
  const { reply, shown } = run('text', '<tool_call>{"name": "read", "arguments": {"path": "a.ts"}}</tool_call>\n<|tool_start|>edit{"path": "a.ts"}', 'whole');
  t.deepEqual(reply.toolCalls.map((call) => call.name), ['read']);
  t.is(shown, '\n');
  t.regex(reply.correction ?? '', /native tool-call format/);
});

test('a wrapper no table knows around a call a family reads: the family reads the call, no note', (t) => {
  // Seed-OSS wraps Qwen3-Coder's XML in `<seed:tool_call>` (ByteDance-Seed-OSS.jinja in test/fixtures/chat-templates).
  const { reply, notices } = run('text', '<seed:tool_call>\n<function=read>\n<parameter=path>\na.ts\n</parameter>\n</function>\n</seed:tool_call>', 'bytes');
  t.deepEqual(reply.toolCalls.map((call) => [call.name, call.arguments]), [['read', { path: 'a.ts' }]]);
  t.deepEqual(notices, []);
  t.is(reply.correction, undefined);
});
