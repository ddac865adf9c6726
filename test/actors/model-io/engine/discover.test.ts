import test from 'ava';
import { discover } from '../../../../actors/model-io/engine/discover.js';
import type { Endpoint } from '../../../../actors/model-io/protocol.js';
import type { ReikaError } from '../../../../runtime/errors.js';
import { llamaCppModel, llamaCppProps, lmStudioModel, startScriptedServer, vllmModel, type ServerOptions } from '../../../helpers/scripted-server.js';

async function discoverWith(options: ServerOptions, model: string, configured?: number) {
  const server = await startScriptedServer([], options);
  try {
    const endpoint: Endpoint = { baseUrl: server.url, model, requestTimeoutMs: 0 };
    return { reply: await discover(endpoint, configured, new AbortController().signal), paths: server.requests.map((r) => r.path) };
  } finally {
    await server.close();
  }
}

test('vLLM: the window is the model’s max_model_len', async (t) => {
  const { reply } = await discoverWith({ models: [vllmModel('other', 4096), vllmModel('Qwen/Qwen3-8B', 32768)] }, 'Qwen/Qwen3-8B');
  t.deepEqual(reply, { models: ['other', 'Qwen/Qwen3-8B'], contextWindow: 32768 });
});

test('llama.cpp: /props n_ctx (what the server runs with) wins over meta.n_ctx_train', async (t) => {
  const { reply, paths } = await discoverWith({ models: [llamaCppModel('model.gguf', 131072)], props: llamaCppProps(16384) }, '');
  t.deepEqual(reply, { models: ['model.gguf'], contextWindow: 16384 });
  t.deepEqual(paths, ['/v1/models', '/props']);
  const trainOnly = await discoverWith({ models: [llamaCppModel('model.gguf', 131072)] }, 'model.gguf');
  t.is(trainOnly.reply.contextWindow, 131072);
});

test('LM Studio style context length is read, and plain lists leave the window unknown', async (t) => {
  t.is((await discoverWith({ models: [lmStudioModel('m', 8192)] }, 'm')).reply.contextWindow, 8192);
  t.deepEqual((await discoverWith({ models: ['a', 'b'] }, 'a')).reply, { models: ['a', 'b'] });
});

test('a configured window wins over what the server says', async (t) => {
  t.is((await discoverWith({ models: [vllmModel('m', 32768)] }, 'm', 20000)).reply.contextWindow, 20000);
});

test('a bad key is reported naming REIKA_API_KEY; no server names REIKA_BASE_URL', async (t) => {
  const error = (await t.throwsAsync(discoverWith({ modelsStatus: 401 }, 'm'))) as ReikaError;
  t.is(error.code, 'REIKA_ERR_AUTH');
  t.regex(error.message, /set REIKA_API_KEY\.$/);
  const server = await startScriptedServer([]);
  const url = server.url;
  await server.close();
  const gone = (await t.throwsAsync(discover({ baseUrl: url, model: 'm', requestTimeoutMs: 0 }, undefined, new AbortController().signal))) as ReikaError;
  t.is(gone.code, 'REIKA_ERR_SERVER_UNREACHABLE');
  t.regex(gone.message, /REIKA_BASE_URL/);
});

test('a bad key on a profile is reported naming that profile’s key variable', async (t) => {
  const server = await startScriptedServer([], { modelsStatus: 401 });
  t.teardown(() => server.close());
  const endpoint: Endpoint = { baseUrl: server.url, model: '', keyVariable: 'REIKA_CLOUD_API_KEY', requestTimeoutMs: 0 };
  const error = (await t.throwsAsync(discover(endpoint, undefined, new AbortController().signal))) as ReikaError;
  t.is(error.code, 'REIKA_ERR_AUTH');
  t.regex(error.message, /refused the API key \(HTTP 401\) — set REIKA_CLOUD_API_KEY\.$/);
});

test('Ollama: the loaded model’s context_length from /api/ps, with or without the :latest tag', async (t) => {
  const loaded = () => [{ name: 'qwen2.5-coder:latest', model: 'qwen2.5-coder:latest', context_length: 8192, size_vram: 1 }];
  const { reply, paths } = await discoverWith({ models: [{ id: 'qwen2.5-coder:latest', object: 'model', owned_by: 'library' }], ollamaPs: loaded }, 'qwen2.5-coder');
  t.deepEqual(reply, { models: ['qwen2.5-coder:latest'], contextWindow: 8192 });
  t.true(paths.includes('/api/ps'));
  const notLoaded = await discoverWith({ models: [{ id: 'llama3:8b', object: 'model', owned_by: 'library' }], ollamaPs: () => [] }, 'llama3:8b');
  t.deepEqual(notLoaded.reply, { models: ['llama3:8b'] }, 'a model not loaded yet leaves the window unknown');
});
