import test from 'ava';
import type { WireDelta } from '../../../../actors/model-io/calls/map-chunk.js';
import { toolIndex } from '../../../../actors/model-io/calls/tool-index.js';
import { TurnAssembler } from '../../../../actors/model-io/calls/turn-assembler.js';
import type { ChatReply, ModelEvent, ToolSchema } from '../../../../actors/model-io/protocol.js';

/**
 * The 2026 families through the whole assembler (think splitting, both channels), where the
 * engines' tests put the call after thoughts or in the reasoning channel.
 */
const tool = (name: string, properties: Record<string, unknown>): ToolSchema => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties } } });
const tools = toolIndex([tool('get_weather', { location: { type: 'string' } }), tool('special_function', { arg1: { type: 'integer' } }), tool('search', { query: { type: 'string' } })]);

function assemble(deltas: WireDelta[], pieces: 'whole' | 'bytes'): { reply: ChatReply; shown: string } {
  const events: ModelEvent[] = [];
  let n = 0;
  const turn = new TurnAssembler(tools, (event) => events.push(event), () => `id${n++}`);
  for (const delta of deltas) {
    if (pieces === 'bytes' && (delta.kind === 'text' || delta.kind === 'reasoning')) for (const text of Array.from(delta.text)) turn.push({ kind: delta.kind, text });
    else turn.push(delta);
  }
  const reply = turn.finish(false);
  return { reply, shown: events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('') };
}

const calls = (reply: ChatReply) => reply.toolCalls.map((call) => [call.name, call.arguments, call.source]);

test('a DeepSeek V4 call written in the reasoning channel is not dropped: it runs when the reply makes no other call', (t) => {
  // vllm-project/vllm tests/tool_parsers/test_deepseekv4_tool_parser.py build_tool_call("search", {"query": "deepseek v4"}).
  const dsml = '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">deepseek v4</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>';
  for (const pieces of ['whole', 'bytes'] as const) {
    const { reply, shown } = assemble([{ kind: 'reasoning', text: `I need to search.\n\n${dsml}` }, { kind: 'finish', reason: 'stop' }], pieces);
    t.deepEqual(calls(reply), [['search', { query: 'deepseek v4' }, 'reasoning']], pieces);
    t.is(reply.reasoning, 'I need to search.\n\n', pieces);
    t.is(shown, '', pieces);
    t.is(reply.finishReason, 'tool_calls', pieces);
  }
});

test('MiniMax-M2 after its <think> block: the thoughts go to the reasoning, the call runs, nothing is shown', (t) => {
  // ollama/ollama model/parsers/minimaxm2_test.go, "thinking then tool call".
  const output = '<think>I should check the weather.</think>\n<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>';
  for (const pieces of ['whole', 'bytes'] as const) {
    const { reply, shown } = assemble([{ kind: 'text', text: output }], pieces);
    t.deepEqual(calls(reply), [['get_weather', { location: 'Tokyo' }, 'text']], pieces);
    t.is(reply.reasoning, 'I should check the weather.', pieces);
    t.is(shown, '', pieces);
  }
});

test('MiniMax-M2 with the thinking block opened by the template: the bare </think> never shows, the call runs, the prose after it stays', (t) => {
  // ggml-org/llama.cpp tests/test-chat.cpp, MiniMax-M2 (thinking_forced_open); read in ochafik/llama.cpp
  // tests/chat-parsers/test-minimax-m2.cpp, where that suite is split per family. llama.cpp's parser
  // makes "I'm\nthinking" the reasoning; here it has streamed as text before the </think> came.
  const output = 'I\'m\nthinking</think><minimax:tool_call>\n<invoke name="special_function">\n<parameter name="arg1">1</parameter>\n</invoke>\n</minimax:tool_call>Hello, world!\nWhat\'s up?';
  for (const pieces of ['whole', 'bytes'] as const) {
    const { reply, shown } = assemble([{ kind: 'text', text: output }], pieces);
    t.deepEqual(calls(reply), [['special_function', { arg1: 1 }, 'text']], pieces);
    t.is(shown, "I'm\nthinkingHello, world!\nWhat's up?", pieces);
    t.false(shown.includes('</think>'), pieces);
  }
});

test('DeepSeek V3.2 DSML after a bare </think> and after prose: the call runs, no markup shows', (t) => {
  const dsml = '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="location" string="true">Tokyo</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>';
  for (const pieces of ['whole', 'bytes'] as const) {
    for (const [output, prose] of [[`</think>\n\n${dsml}`, ''], [`Here is the weather: ${dsml}`, 'Here is the weather: ']] as const) {
      const { reply, shown } = assemble([{ kind: 'text', text: output }], pieces);
      t.deepEqual(calls(reply), [['get_weather', { location: 'Tokyo' }, 'text']], `${pieces}: ${output.slice(0, 20)}`);
      t.is(shown, prose, pieces);
    }
  }
});
