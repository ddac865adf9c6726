/* eslint-disable @typescript-eslint/no-explicit-any -- engines' JSON answers, read with `?.` and
   checked with `typeof` at every leaf before use. */
import { authError, serverUnreachable } from '../errors.js';
import { connectionFailure } from '../http/classify-failure.js';
import type { DiscoverReply, Endpoint } from '../protocol.js';
import { endpointUrl } from '../http/request-body.js';
import { answerOf, forgetAnswers } from './answers.js';
import { isLocalHost, originOf } from './hosts.js';

/** Discovery never waits longer than this, whatever REIKA_REQUEST_TIMEOUT_MS says. */
const DISCOVER_TIMEOUT_MS = 10_000;

function headers(endpoint: Endpoint): Record<string, string> {
  return { accept: 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) };
}

function getJson(url: string, endpoint: Endpoint, signal: AbortSignal): Promise<{ status: number; json: any }> {
  const timeout = endpoint.requestTimeoutMs > 0 ? Math.min(endpoint.requestTimeoutMs, DISCOVER_TIMEOUT_MS) : DISCOVER_TIMEOUT_MS;
  return answerOf(url, { headers: headers(endpoint), signal, idleTimeoutMs: timeout, maxBytes: 16 * 1024 * 1024 });
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

/** The window a `/v1/models` entry states, in the dialects servers use. */
export function windowOfModel(entry: any): number | undefined {
  return (
    positive(entry?.max_model_len) ?? // vLLM, SGLang
    positive(entry?.context_length) ?? // OpenRouter, LM Studio, several hosted APIs
    positive(entry?.max_context_length) ?? // LM Studio /api/v0
    positive(entry?.context_window) ??
    positive(entry?.meta?.n_ctx) ??
    positive(entry?.meta?.n_ctx_train) // llama.cpp: the training window; /props has the real one
  );
}

/** llama.cpp `GET /props`: the context the server was started with (per slot). */
export function windowOfProps(props: any): number | undefined {
  return positive(props?.default_generation_settings?.n_ctx) ?? positive(props?.n_ctx);
}

/**
 * Ollama `GET /api/ps`: the context a LOADED model runs with (`context_length`, its num_ctx), which
 * its OpenAI endpoint never states. Undefined when the model is not loaded (yet) or this is no Ollama.
 */
export function windowOfOllamaPs(ps: any, model: string): number | undefined {
  if (!Array.isArray(ps?.models)) return undefined;
  const names = model.includes(':') ? [model] : [model, `${model}:latest`];
  const entry = ps.models.find((m: any) => names.includes(m?.name) || names.includes(m?.model));
  return positive(entry?.context_length);
}

/** The model ids the server offers ([] when it cannot say). */
export async function listModels(endpoint: Endpoint, signal: AbortSignal = new AbortController().signal): Promise<string[]> {
  const { status, json } = await getJson(endpointUrl(endpoint.baseUrl, 'models'), endpoint, signal);
  if (status !== 200 || !Array.isArray(json?.data)) return [];
  return json.data.map((m: any) => m?.id).filter((id: unknown): id is string => typeof id === 'string');
}

/**
 * Asks the server for its models and the configured model's context window: `GET {base}/models`
 * (vLLM `max_model_len`, LM Studio/OpenRouter `context_length`, llama.cpp `meta.n_ctx_train`),
 * refined by llama.cpp's `GET /props` `n_ctx`, the window it actually runs with, or Ollama's
 * `GET /api/ps` `context_length` once the model is loaded. A configured
 * window (REIKA_CONTEXT_WINDOW) wins over both. Unreachable servers and bad keys throw; anything
 * else just leaves the window unknown.
 */
export async function discover(endpoint: Endpoint, configuredWindow: number | undefined, signal: AbortSignal, fresh = false): Promise<DiscoverReply> {
  const origin = originOf(endpoint.baseUrl);
  if (fresh) forgetAnswers(origin);
  let response: { status: number; json: any };
  try {
    response = await getJson(endpointUrl(endpoint.baseUrl, 'models'), endpoint, signal);
  } catch (error) {
    if (signal.aborted) return { models: [], ...(configuredWindow ? { contextWindow: configuredWindow } : {}) };
    const failure = connectionFailure(error, endpoint.baseUrl, false, endpoint.urlVariable);
    throw failure.error.code === 'REIKA_ERR_SERVER_UNREACHABLE' ? failure.error : serverUnreachable(endpoint.baseUrl, failure.error.message, endpoint.urlVariable);
  }
  if (response.status === 401 || response.status === 403) throw authError(endpoint.baseUrl, response.status, endpoint.keyVariable);
  const data: any[] = response.status === 200 && Array.isArray(response.json?.data) ? response.json.data : [];
  const models = data.map((m) => m?.id).filter((id: unknown): id is string => typeof id === 'string');
  if (configuredWindow) return { models, contextWindow: configuredWindow };
  const entry = data.find((m) => m?.id === endpoint.model) ?? (endpoint.model ? undefined : data[0]) ?? (data.length === 1 ? data[0] : undefined);
  let contextWindow = positive(entry?.max_model_len) ?? windowOfModel(entry);
  // A hosted API is asked /v1/models only: the engines' own endpoints are for servers here.
  if (!isLocalHost(endpoint.baseUrl)) return contextWindow ? { models, contextWindow } : { models };
  const llamaCpp = entry?.owned_by === 'llamacpp' || entry?.meta !== undefined || data.length === 0 || contextWindow === undefined;
  let props: { status: number; json: any } | undefined;
  if (llamaCpp && positive(entry?.max_model_len) === undefined) {
    try {
      props = await getJson(`${origin}/props`, endpoint, signal);
      if (props.status === 200) contextWindow = windowOfProps(props.json) ?? contextWindow;
    } catch {
      // not llama.cpp after all
    }
  }
  // A llama.cpp that answered /props is known: no other engine's endpoint is asked.
  if (contextWindow === undefined && props?.status !== 200) {
    // Perhaps Ollama: ask what the loaded model runs with (a 404 elsewhere costs one request).
    try {
      const ps = await getJson(`${origin}/api/ps`, endpoint, signal);
      if (ps.status === 200) contextWindow = windowOfOllamaPs(ps.json, endpoint.model || String(entry?.id ?? ''));
    } catch {
      // no /api/ps: the window stays unknown
    }
  }
  return contextWindow ? { models, contextWindow } : { models };
}
