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
