import test from 'ava';
import { DIALECTS } from '../../actors/model-io/dialects/table.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/**
 * One `reika -p` session against the scripted server whose model writes one call in every text
 * dialect of the table, in that family's own shape (the shapes of the recorded examples in
 * test/actors/model-io/dialects/examples.ts, calling reika's `read`), streamed in random pieces.
 * Every call must run, and what reaches the user (`--stream` text deltas) must be the prose only.
 */
const CALLS: Record<string, (path: string) => { output: string; prose: string }> = {
  glm: (p) => ({ output: `Checking glm.<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>${p}</arg_value>\n</tool_call>`, prose: 'Checking glm.' }),
  hermes: (p) => ({ output: `Checking hermes.\n<tool_call>\n{"name": "read", "arguments": {"path": "${p}"}}\n</tool_call>`, prose: 'Checking hermes.' }),
  'qwen3-coder': (p) => ({ output: `Checking qwen3-coder.\n<tool_call>\n<function=read>\n<parameter=path>\n${p}\n</parameter>\n</function>\n</tool_call>`, prose: 'Checking qwen3-coder.' }),
  llama3: (p) => ({ output: `Checking llama3. <|python_tag|>{"name": "read", "parameters": {"path": "${p}"}}`, prose: 'Checking llama3.' }),
  mistral: (p) => ({ output: `Checking mistral.[TOOL_CALLS]read[ARGS]{"path": "${p}"}`, prose: 'Checking mistral.' }),
  deepseek: (p) => ({
    output: `Checking deepseek.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read\n\`\`\`json\n{"path": "${p}"}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    prose: 'Checking deepseek.',
  }),
  'kimi-k2': (p) => ({
    output: `Checking kimi-k2.<|tool_calls_section_begin|><|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{"path": "${p}"}<|tool_call_end|><|tool_calls_section_end|>`,
    prose: 'Checking kimi-k2.',
  }),
  // MiniMax-M2 after its thoughts, as the Ollama parser test has it (<think>…</think> then the call).
  'minimax-m2': (p) => ({ output: `<think>I should read it.</think>\nChecking minimax-m2.<minimax:tool_call>\n<invoke name="read">\n<parameter name="path">${p}</parameter>\n</invoke>\n</minimax:tool_call>`, prose: 'Checking minimax-m2.' }),
  'minimax-m3': (p) => ({ output: `Checking minimax-m3.\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="read">]<]minimax[>[<path>${p}]<]minimax[>[</path>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>`, prose: 'Checking minimax-m3.' }),
  // DeepSeek V4 after a bare </think> (the template opened the thinking block).
  dsml: (p) => ({ output: `</think>Checking dsml.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read">\n<｜DSML｜parameter name="path" string="true">${p}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`, prose: 'Checking dsml.' }),
  step3: (p) => ({ output: `Checking step3.<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="read"><steptml:parameter name="path">${p}</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`, prose: 'Checking step3.' }),
  'kimi-k3': (p) => ({
    output: `<|open|>response<|sep|>Checking kimi-k3.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="read" index="1"<|sep|><|open|>argument key="path" type="string"<|sep|>${p}<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`,
    prose: 'Checking kimi-k3.',
  }),
  hunyuan: (p) => ({ output: `Checking hunyuan.<tool_calls>\n<tool_call>read<tool_sep>\n<arg_key>path</arg_key>\n<arg_value>${p}</arg_value>\n</tool_call>\n</tool_calls>`, prose: 'Checking hunyuan.' }),
  apertus: (p) => ({ output: `Checking apertus. <|tools_prefix|>[{"read": {"path": "${p}"}}]<|tools_suffix|>`, prose: 'Checking apertus.' }),
  functiongemma: (p) => ({ output: `Checking functiongemma. <start_function_call>call:read{path:<escape>${p}<escape>}<end_function_call>`, prose: 'Checking functiongemma.' }),
  harmony: (p) => ({
    output: `<|channel|>analysis<|message|>Need the file.<|end|><|start|>assistant<|channel|>commentary to=functions.read <|constrain|>json<|message|>{"path": "${p}"}<|call|>`,
    prose: '',
  }),
  granite: (p) => ({ output: `Checking granite.\n<|tool_call|>[{"name": "read", "arguments": {"path": "${p}"}}]`, prose: 'Checking granite.' }),
  'command-r': (p) => ({
    output: `<|START_THINKING|>I should read it.<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "read", "parameters": {"path": "${p}"}}\n]<|END_ACTION|>`,
    prose: '',
  }),
  internlm: (p) => ({ output: `Checking internlm. <|action_start|><|plugin|>{"name": "read", "parameters": {"path": "${p}"}}<|action_end|>`, prose: 'Checking internlm.' }),
  phi4: (p) => ({ output: `Checking phi4. functools[{"name": "read", "arguments": {"path": "${p}"}}]`, prose: 'Checking phi4.' }),
  gemma4: (p) => ({ output: `Checking gemma4. <|tool_call>call:read{path:<|"|>${p}<|"|>}<tool_call|>`, prose: 'Checking gemma4.' }),
  functionary: (p) => ({ output: `all\nChecking functionary.\n>>>read\n{"path": "${p}"}`, prose: 'Checking functionary.' }),
  gemma: (p) => ({ output: `Checking gemma.\n\`\`\`tool_code\nread(path="${p}")\n\`\`\``, prose: 'Checking gemma.' }),
  fenced: (p) => ({ output: `Checking fenced. \`\`\`json\n{"name": "read", "arguments": {"path": "${p}"}}\n\`\`\``, prose: 'Checking fenced.' }),
  pythonic: (p) => ({ output: `Checking pythonic. [read(path='${p}')]`, prose: 'Checking pythonic.' }),
  json: (p) => ({ output: `Checking json.\n{"name": "read", "parameters": {"path": "${p}"}}`, prose: 'Checking json.' }),
  python: (p) => ({ output: `Checking python.\nread(path="${p}")\n`, prose: 'Checking python.' }),
};

const file = (family: string) => `f-${family}.txt`;

test('reika -p runs a call written in every dialect of the table, and the user sees only the prose', async (t) => {
  const families = DIALECTS.map((dialect) => dialect.name);
  t.deepEqual(Object.keys(CALLS).sort(), [...families].sort(), 'one end-to-end call per family of the table');
  const repo = gitRepo(Object.fromEntries(families.map((family) => [file(family), `the ${family} file\n`])));
  const replies = families.map((family, n) => ({ content: CALLS[family]!(file(family)).output, finishReason: 'stop' as const, split: { mode: 'random' as const, seed: n + 1, max: 7 } }));
  const server = await startScriptedServer([...replies, { content: 'Read them all.' }]);
  t.teardown(() => server.close());
  const run = await runReika(['-p', 'read every file', '--stream'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '200000' } });
  t.is(run.code, 0, run.stderr);
  const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
  // Text the user saw, per request.
  const prose: string[] = [];
  for (const event of events) {
    if (event.type === 'request') prose.push('');
    if (event.type === 'text-delta') prose[prose.length - 1] += event.text;
  }
  const done = events.filter((event) => event.type === 'tool-call' && event.state.status === 'done').map((event) => [event.state.call.name, event.state.call.arguments.path]);
  const result = events.at(-1);
  t.is(result.type, 'result');
  t.is(result.status, 'answered');
  t.is(result.answer, 'Read them all.');
  t.is(result.dialect, families.at(-1), 'the result names the dialect of the last reply with a call');
  const chats = server.chatRequests();
  t.is(chats.length, families.length + 1);
  families.forEach((family, n) => {
    t.deepEqual(done[n], ['read', file(family)], `${family}: the call ran`);
    t.is(prose[n]!.trim(), CALLS[family]!(file(family)).prose, `${family}: only the prose reached the user`);
    const results = chats[n + 1]!.json.messages.filter((m: { role: string }) => m.role === 'tool');
    t.regex(results.at(-1).content, new RegExp(`the ${family} file`), `${family}: the file's text went back to the model`);
  });
});

/** A format no entry of the table knows (invented for this test), calling reika's `read`. */
const UNKNOWN = 'Let me read it.\n<|tool_start|>read{"path": "a.txt"}<|tool_end|>';
const env = (url: string) => ({ REIKA_BASE_URL: url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '200000' });

test('reika -p: call markup in a format no table knows gets one note, and a second reply like it ends the turn with REIKA_ERR_UNREADABLE_TOOL_CALL; the markup is never the answer', async (t) => {
  const repo = gitRepo({ 'a.txt': 'hi\n' });
  for (const output of ['text', 'json'] as const) {
    const server = await startScriptedServer([{ content: UNKNOWN, split: { mode: 'random', seed: 3, max: 5 } }, { content: UNKNOWN }]);
    t.teardown(() => server.close());
    const run = await runReika(['-p', 'read a.txt', ...(output === 'json' ? ['--json'] : [])], { cwd: repo, env: env(server.url) });
    t.is(run.code, 1, run.stderr);
    t.false(run.stdout.includes('<|tool_start|>'), `${output}: stdout holds no markup: ${run.stdout}`);
    t.false(run.stdout.includes('"path"'), output);
    // The user's one line (plain mode prints notices on stderr).
    if (output === 'text') t.regex(run.stderr, /a format reika does not know \(it starts "<\|tool_start\|>"\)/);
    if (output === 'json') {
      const result = JSON.parse(run.stdout);
      t.is(result.error.code, 'REIKA_ERR_UNREADABLE_TOOL_CALL');
      t.is(result.toolCalls.length, 0);
    }
    const chats = server.chatRequests();
    t.is(chats.length, 2, `${output}: one retry after the note`);
    const note = JSON.stringify(chats[1]!.json.messages.at(-1));
    t.regex(note, /native tool-call format/);
    t.regex(note, /<tool_call>/);
  }
});

test('reika -p: after the note about an unknown format the model calls in the Hermes form, the tool runs, and the answer holds no markup', async (t) => {
  const repo = gitRepo({ 'a.txt': 'the unknown-format file\n' });
  const server = await startScriptedServer([{ content: UNKNOWN }, { content: '<tool_call>\n{"name": "read", "arguments": {"path": "a.txt"}}\n</tool_call>' }, { content: 'It says: the unknown-format file.' }]);
  t.teardown(() => server.close());
  const run = await runReika(['-p', 'read a.txt'], { cwd: repo, env: env(server.url) });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, 'It says: the unknown-format file.\n');
  const chats = server.chatRequests();
  t.is(chats.length, 3);
  t.regex(JSON.stringify(chats[2]!.json.messages.filter((m: { role: string }) => m.role === 'tool')), /the unknown-format file/);
});
