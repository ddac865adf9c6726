import test from 'ava';
import { detectEngine, isLocalHost } from '../../../../actors/model-io/engine/detect-engine.js';
import type { Endpoint, ServerEngineInfo } from '../../../../actors/model-io/protocol.js';
import { llamaCppModel, lmStudioModel, startScriptedServer, vllmModel, type ScriptedRequest, type ServerOptions } from '../../../helpers/scripted-server.js';

/**
 * Engine detection against the scripted server answering as each engine does. The answers are
 * shaped after the engines' own code: llama.cpp tools/server (`get_res_props`, the slot JSON),
 * vLLM's `/version` and model card, SGLang's `/get_server_info` (its server args), Ollama's
 * `/api/version`, `/api/show` and `/api/ps`, LM Studio's `/api/v0/models`, mlx_lm.server's
 * model list behind Python's http.server.
 */

async function detectWith(options: ServerOptions, model: string): Promise<{ info: ServerEngineInfo; paths: string[] }> {
  const server = await startScriptedServer([], options);
  try {
    const endpoint: Endpoint = { baseUrl: server.url, model, requestTimeoutMs: 0 };
    return { info: await detectEngine(endpoint, new AbortController().signal), paths: server.requests.map((r) => `${r.method} ${r.path}`) };
  } finally {
    await server.close();
  }
}

const QWEN_TEMPLATE = "{%- for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{%- endfor %}";

function llamaSlots(n: number, nCtx: number, busy = 0): unknown[] {
  return Array.from({ length: n }, (_, id) => ({ id, n_ctx: nCtx, speculative: false, is_processing: id < busy, params: {} }));
}

test('llama.cpp: /props gives the window, slots, build, template and caps; /slots the per-slot window', async (t) => {
  const props = {
    default_generation_settings: { n_ctx: 8192, params: {} },
    total_slots: 4,
    model_alias: 'qwen',
    model_path: '/models/qwen2.5-7b-q4_k_m.gguf',
    modalities: { vision: false, video: false, audio: false },
    endpoint_slots: true,
    chat_template: QWEN_TEMPLATE,
    chat_template_caps: { supports_tools: true, supports_system_role: true, supports_preserve_reasoning: false, supports_string_content: true },
    bos_token: '',
    eos_token: '<|im_end|>',
    build_info: 'b6870-5a4ff43e',
    is_sleeping: false,
  };
  const { info, paths } = await detectWith({ models: [llamaCppModel('qwen', 32768)], props, routes: { 'GET /slots': llamaSlots(4, 8192, 1) }, serverHeader: 'llama.cpp' }, 'qwen');
  t.like(info, { kind: 'server', engine: 'llama.cpp', version: 'b6870-5a4ff43e', model: 'qwen', modelPath: '/models/qwen2.5-7b-q4_k_m.gguf', window: 8192, windowSource: 'props', trainedWindow: 32768, totalSlots: 4, slotWindow: 8192, busySlots: 1, slotsEndpoint: true, chatTemplate: QWEN_TEMPLATE, eosToken: '<|im_end|>', vision: false });
  t.is(info.templateCaps?.supports_system_role, true);
  t.deepEqual(paths.sort(), ['GET /props', 'GET /slots', 'GET /v1/models']);
});

test('llama.cpp with /slots turned off (501) and no /props: the training window from /v1/models', async (t) => {
  const { info } = await detectWith({ models: [llamaCppModel('m.gguf', 4096)], routes: { 'GET /slots': { status: 501, body: { error: { code: 501, message: 'This server does not support slots endpoint.', type: 'not_supported_error' } } } } }, '');
  t.like(info, { engine: 'llama.cpp', model: 'm.gguf', window: 4096, windowSource: 'models', slotsEndpoint: false });
  t.is(info.totalSlots, undefined);
});

test('vLLM: owned_by vllm, max_model_len and /version', async (t) => {
  const { info, paths } = await detectWith({ models: [vllmModel('Qwen/Qwen3-8B', 32768)], routes: { 'GET /version': { version: '0.10.1.1' } } }, 'Qwen/Qwen3-8B');
  t.like(info, { engine: 'vllm', version: '0.10.1.1', window: 32768, windowSource: 'models' });
  t.false(paths.includes('GET /props'), 'no llama.cpp question to a vLLM server');
});

test('SGLang: owned_by sglang and /get_server_info (version, parsers)', async (t) => {
  const entry = { id: 'qwen3-coder', object: 'model', created: 1, owned_by: 'sglang', root: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', max_model_len: 65536 };
  const serverInfo = { model_path: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', tp_size: 1, context_length: null, tool_call_parser: 'qwen3_coder', reasoning_parser: null, version: '0.5.0rc2', max_total_num_tokens: 412000 };
  const { info } = await detectWith({ models: [entry], routes: { 'GET /get_server_info': serverInfo } }, 'qwen3-coder');
  t.like(info, { engine: 'sglang', version: '0.5.0rc2', modelPath: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', window: 65536, toolCallParser: 'qwen3_coder' });
  t.is(info.reasoningParser, undefined);
});

test('Ollama: /api/version, /api/show (num_ctx, capabilities, training window) and /api/ps once loaded', async (t) => {
  const show = {
    modelfile: '# Modelfile',
    parameters: 'num_ctx                        16384\nstop                           "<|im_end|>"',
    template: '{{- if .Messages }}…',
    details: { format: 'gguf', family: 'qwen2', parameter_size: '7.6B', quantization_level: 'Q4_K_M' },
    model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 },
    capabilities: ['completion', 'tools', 'insert'],
  };
  const { info } = await detectWith(
    { models: [{ id: 'qwen2.5-coder:7b', object: 'model', created: 1, owned_by: 'library' }], routes: { 'GET /api/version': { version: '0.12.3' }, 'POST /api/show': (r: ScriptedRequest) => (r.json?.model === 'qwen2.5-coder:7b' ? show : { status: 404, body: { error: 'model not found' } }) }, ollamaPs: () => [] },
    'qwen2.5-coder:7b',
  );
  t.like(info, { engine: 'ollama', version: '0.12.3', architecture: 'qwen2', trainedWindow: 32768, window: 16384, windowSource: 'server-info', nativeTools: true });
  const loaded = await detectWith({ models: [{ id: 'llama3.2:latest', object: 'model', owned_by: 'library' }], routes: { 'GET /api/version': { version: '0.12.3' } }, ollamaPs: () => [{ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 4096 }] }, 'llama3.2');
  t.like(loaded.info, { engine: 'ollama', window: 4096 });
  const cold = await detectWith({ models: [{ id: 'llama3.2:latest', object: 'model', owned_by: 'library' }], routes: { 'GET /api/version': { version: '0.12.3' } }, ollamaPs: () => [] }, 'llama3.2');
  t.is(cold.info.window, undefined);
  t.regex(cold.info.windowNote ?? '', /num_ctx/);
});

test('LM Studio: owned_by organization_owner, /api/v0/models (loaded and max context, format, tool use)', async (t) => {
  const v0 = { object: 'list', data: [{ id: 'qwen2.5-7b-instruct', object: 'model', type: 'llm', publisher: 'lmstudio-community', arch: 'qwen2', compatibility_type: 'gguf', quantization: 'Q4_K_M', state: 'loaded', max_context_length: 32768, loaded_context_length: 8192, capabilities: ['tool_use'] }] };
  const { info } = await detectWith({ models: [lmStudioModel('qwen2.5-7b-instruct', 32768)], routes: { 'GET /api/v0/models': v0 } }, 'qwen2.5-7b-instruct');
  t.like(info, { engine: 'lmstudio', window: 8192, windowSource: 'server-info', trainedWindow: 32768, architecture: 'qwen2', format: 'gguf', nativeTools: true });
});

test('MLX (mlx_lm.server): Python http.server, entries without owned_by, none of the engines’ endpoints', async (t) => {
  const { info, paths } = await detectWith({ models: [{ id: 'mlx-community/Qwen2.5-Coder-7B-Instruct-4bit', object: 'model', created: 1 }], serverHeader: 'BaseHTTP/0.6 Python/3.12.4' }, '');
  t.like(info, { engine: 'mlx', model: 'mlx-community/Qwen2.5-Coder-7B-Instruct-4bit' });
  t.true(paths.includes('GET /props') && paths.includes('GET /api/version'), 'the local server was asked each engine’s question');
});

test('a local server that names nothing and answers /props is llama.cpp; one that answers nothing stays unknown', async (t) => {
  const { info } = await detectWith({ models: ['a'], props: { default_generation_settings: { n_ctx: 2048 }, total_slots: 2 } }, 'a');
  t.like(info, { engine: 'llama.cpp', window: 2048, totalSlots: 2 });
  const plain = await detectWith({ models: ['a'] }, 'a');
  t.is(plain.info.engine, 'unknown');
});

test('a server that is down is a record saying so, not an error', async (t) => {
  const server = await startScriptedServer([]);
  const url = server.url;
  await server.close();
  const info = await detectEngine({ baseUrl: url, model: 'm', requestTimeoutMs: 0 }, new AbortController().signal);
  t.like(info, { engine: 'unknown', unreachable: true });
});

test('hosted or local is decided by the host', (t) => {
  for (const url of ['http://localhost:8080/v1', 'http://127.0.0.1:1234/v1', 'http://192.168.1.20:11434/v1', 'http://10.0.0.5/v1', 'http://[::1]:8000/v1', 'http://gpu-box:8000/v1', 'http://studio.local:1234/v1']) t.true(isLocalHost(url), url);
  for (const url of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'https://api.deepseek.com/v1', 'http://8.8.8.8/v1']) t.false(isLocalHost(url), url);
});

test('detection asks nothing more once its signal aborted: after /v1/models answered, no probe of the next wave goes', async (t) => {
  const server = await startScriptedServer([], { models: ['m'] });
  t.teardown(() => server.close());
  const controller = new AbortController();
  const endpoint: Endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 };
  // The abort comes with the first answer, as an interrupt would while the next wave is being prepared.
  let asked = 0;
  const info = await detectEngine(endpoint, controller.signal, async () => {
    if (++asked === 2) controller.abort('interrupted');
    return true;
  });
  t.deepEqual(server.requests.map((r) => r.path), ['/v1/models']);
  t.is(info.engine, 'unknown');
  t.falsy(info.unreachable, 'an aborted detection does not call the server unreachable');
});

test('a question the clearance refuses is not asked (the main thread saw an interrupt first)', async (t) => {
  const server = await startScriptedServer([], { models: ['m'] });
  t.teardown(() => server.close());
  let asked = 0;
  await detectEngine({ baseUrl: server.url, model: 'm', requestTimeoutMs: 0 }, new AbortController().signal, async () => ++asked === 1);
  t.deepEqual(server.requests.map((r) => r.path), ['/v1/models'], 'the 4-probe wave was refused');
  t.is(asked, 5, 'each question asked for its clearance');
});
