import test from 'ava';
import { readFileSync } from 'node:fs';
import { llamaCppModel, startScriptedServer, vllmModel } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** `reika doctor` as a user runs it: against a scripted llama-server, a vLLM, and no server at all. */

const templates = new URL('../../../test/fixtures/chat-templates/', import.meta.url);

function llamaProps(slots: number, template: string): Record<string, unknown> {
  return { default_generation_settings: { n_ctx: 16384, params: {} }, total_slots: slots, model_path: '/models/nemo.gguf', chat_template: template, chat_template_caps: { supports_tools: true, supports_tool_calls: true, supports_system_role: true }, bos_token: '<s>', eos_token: '</s>', build_info: 'b6870-5a4ff43e', endpoint_slots: true };
}

test('reika doctor: a one-slot llama-server with Mistral-Nemo’s template — engine, window and source, slots, template findings, each with its fix', async (t) => {
  const nemo = readFileSync(new URL('mistralai-Mistral-Nemo-Instruct-2407.jinja', templates), 'utf8');
  const server = await startScriptedServer([], { models: [llamaCppModel('nemo', 131072)], props: llamaProps(1, nemo), routes: { 'GET /slots': [{ id: 0, n_ctx: 16384, is_processing: false }] } });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_SANDBOX: 'off' } });
  t.is(run.code, 0, run.stderr);
  t.is(run.stderr, '');
  const out = run.stdout;
  t.regex(out, /^engine: +llama\.cpp \(llama-server\) b6870-5a4ff43e$/m);
  t.regex(out, /^model: +nemo$/m);
  t.regex(out, /^window: +16384 tokens, from llama\.cpp \/props n_ctx \(per slot\)$/m);
  t.regex(out, /^slots: +1 × 16384 tokens$/m);
  t.regex(out, /drops or moves the system prompt: reika puts its instructions at the start of the first user message/);
  t.regex(out, /tools block before the newest user message/);
  t.regex(out, /fix: start llama-server with -np 5/);
  t.regex(out, /fix: start llama-server with --chat-template-file/);
  t.true(out.split('\n').length <= 30, 'one screen');

  const json = await runReika(['doctor', '--json'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_SANDBOX: 'off' } });
  t.is(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  t.like(report, { reachable: true, model: 'nemo', window: 16384, slots: { total: 1, window: 16384 } });
  t.is(report.detected.engine, 'llama.cpp');
  t.is(report.detected.chatTemplate, undefined, 'the template source is not repeated');
  t.true(report.problems.some((p: { fix: string }) => /-np 5/.test(p.fix)));
});

test('reika doctor with no server: exit 1, the fix first, no stack trace; --json says the same', async (t) => {
  const server = await startScriptedServer([]);
  const url = server.url;
  await server.close();
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: url, REIKA_SANDBOX: 'off' } });
  t.is(run.code, 1);
  t.regex(run.stdout, /^server: +http:\/\/127\.0\.0\.1:\d+\/v1 — not reachable$/m);
  // Said once: no engine, template or cache line guessing about a server that did not answer.
  t.notRegex(run.stdout, /^(engine|template|tool calls|cache|window):/m);
  t.notRegex(run.stdout, /unknown/);
  t.regex(run.stdout, /✗ No model server answers at http:\/\/127\.0\.0\.1:\d+\/v1/);
  t.regex(run.stdout, /fix: start the server .* or set REIKA_BASE_URL\./);
  t.notRegex(run.stdout + run.stderr, /\n\s+at /, 'no stack trace');
  const json = await runReika(['doctor', '--json'], { cwd: repo, env: { REIKA_BASE_URL: url, REIKA_SANDBOX: 'off' } });
  t.is(json.code, 1);
  t.false(JSON.parse(json.stdout).reachable);
});

test('reika doctor on vLLM: the window from max_model_len, no template to check, tool calls known after the first call', async (t) => {
  const server = await startScriptedServer([], { models: [vllmModel('Qwen/Qwen3-8B', 32768)], routes: { 'GET /version': { version: '0.10.1.1' } } });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_SANDBOX: 'off' } });
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^engine: +vLLM 0\.10\.1\.1$/m);
  t.regex(run.stdout, /^window: +32768 tokens, from \/v1\/models$/m);
  t.regex(run.stdout, /^template: +vLLM does not expose its chat template/m);
  t.notRegex(run.stdout, /^slots:/m);
});

test('reika doctor names the model family and the exact flag that makes the engine parse its calls: llama.cpp from the template, vLLM and SGLang from the model name', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const doctor = async (server: { url: string }) => {
    const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_SANDBOX: 'off' } });
    t.is(run.code, 0, run.stderr);
    return run.stdout;
  };
  const minimax = readFileSync(new URL('MiniMax-M2.jinja', templates), 'utf8');
  const llama = await startScriptedServer([], { models: [llamaCppModel('minimax-m2', 196608)], props: llamaProps(5, minimax) });
  t.teardown(() => llama.close());
  t.regex(await doctor(llama), /^family: +MiniMax-M2 \(from the chat template\): llama\.cpp parses its tool calls natively when llama-server runs with --jinja$/m);

  const vllm = await startScriptedServer([], { models: [vllmModel('MiniMaxAI/MiniMax-M2', 196608)], routes: { 'GET /version': { version: '0.11.0' } } });
  t.teardown(() => vllm.close());
  t.regex(await doctor(vllm), /^family: +MiniMax-M2 \(from the model name\): vLLM parses its tool calls only with --enable-auto-tool-choice --tool-call-parser minimax_m2$/m);

  const entry = { id: 'dsv32', object: 'model', created: 1, owned_by: 'sglang', root: 'deepseek-ai/DeepSeek-V3.2', max_model_len: 65536 };
  const serverInfo = { model_path: 'deepseek-ai/DeepSeek-V3.2', tool_call_parser: 'qwen25', reasoning_parser: null, version: '0.5.5' };
  const sglang = await startScriptedServer([], { models: [entry], routes: { 'GET /get_server_info': serverInfo } });
  t.teardown(() => sglang.close());
  const out = await doctor(sglang);
  t.regex(out, /^family: +DeepSeek V3\.2 \(from the model name\): SGLang does not parse its tool calls \(add --tool-call-parser deepseekv32\)$/m);
  t.regex(out, /✗ SGLang runs the qwen25 tool-call parser: DeepSeek V3\.2's calls reach reika as text\.\n +fix: start SGLang with --tool-call-parser deepseekv32\./);
});

test('reika doctor with a refused key names the key, not the server: reachable, exit 1, the profile’s own variable', async (t) => {
  const server = await startScriptedServer([], { modelsStatus: 401 });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_API_KEY: 'sk-wrong', REIKA_SANDBOX: 'off' } });
  t.is(run.code, 1);
  t.notRegex(run.stdout, /not reachable|start the server/);
  t.regex(run.stdout, /✗ The server at http:\/\/127\.0\.0\.1:\d+\/v1 refused the API key\./);
  t.regex(run.stdout, /fix: set REIKA_API_KEY to a key this server accepts\./);
  const profiled = await runReika(['doctor', '--profile', 'cloud'], { cwd: repo, env: { REIKA_PROFILES: 'cloud', REIKA_CLOUD_BASE_URL: server.url, REIKA_CLOUD_API_KEY: 'sk-wrong', REIKA_SANDBOX: 'off' } });
  t.regex(profiled.stdout, /fix: set REIKA_CLOUD_API_KEY to a key this server accepts\./);
});

test('reika doctor with a model name the server does not have: the model is the problem, with what it offers', async (t) => {
  const server = await startScriptedServer([], { models: [vllmModel('Qwen/Qwen3-8B', 32768)], routes: { 'GET /version': { version: '0.10.1.1' } } });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'qwen3-typo', REIKA_SANDBOX: 'off' } });
  t.is(run.code, 1);
  t.notRegex(run.stdout, /not reachable|start the server/);
  t.regex(run.stdout, /✗ The server has no model "qwen3-typo"; it offers Qwen\/Qwen3-8B\./);
  t.regex(run.stdout, /fix: set REIKA_MODEL to one of the models it offers\./);
});

test('reika doctor on a one-model llama-server passes whatever model name is set (llama-server ignores it); 4 slots is a tip, not a fault', async (t) => {
  const server = await startScriptedServer([], { models: [llamaCppModel('nemo', 131072)], props: { ...llamaProps(4, ''), chat_template: undefined } });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor', '--json'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'my-local-model', REIKA_SANDBOX: 'off' } });
  t.is(run.code, 0, run.stdout);
  const report = JSON.parse(run.stdout);
  t.false(report.problems.some((p: { problem: string }) => /no model/.test(p.problem)));
  t.false(report.problems.some((p: { fix: string }) => /-np 5/.test(p.fix)));
  t.true(report.tips.some((p: { fix: string }) => /-np 5/.test(p.fix)));
  const text = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'my-local-model', REIKA_SANDBOX: 'off' } });
  t.regex(text.stdout, /^tip: llama-server has 4 slots/m);
  t.notRegex(text.stdout, /✗ llama-server has 4 slots/);
});

test('reika doctor on a server that does not say which engine it is: the template line names the server, not "unknown"', async (t) => {
  const server = await startScriptedServer([], { models: [{ id: 'local-model' }] });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['doctor'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_SANDBOX: 'off' } });
  t.regex(run.stdout, /^template: +the server does not expose its chat template/m);
  t.notRegex(run.stdout, /^template: +unknown/m);
});
