import type { ModelIoRequest } from '../protocol.js';

type ChatRequest = Extract<ModelIoRequest, { type: 'chat' }>;

/**
 * The JSON body of one `/chat/completions` request. Deterministic, because the engine's prefix
 * cache depends on byte-identical prefixes: messages and tools are serialised exactly as given
 * (their key order is the caller's), then the fixed settings follow in a fixed order. Usage is
 * always requested in the stream; a llama.cpp server also gets `return_progress` and `id_slot`.
 */
export function requestBody(request: ChatRequest): string {
  const body: Record<string, unknown> = { messages: request.messages };
  if (request.tools.length) body.tools = request.tools;
  if (request.endpoint.model) body.model = request.endpoint.model;
  body.stream = true;
  body.stream_options = { include_usage: true };
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.toolChoice !== undefined && request.tools.length) body.tool_choice = request.toolChoice;
  // llama.cpp's own fields (they change nothing of the prompt the cache keys on).
  const llama = request.endpoint.llamaCpp;
  if (llama?.progress) body.return_progress = true;
  if (llama?.slot !== undefined) body.id_slot = llama.slot;
  return JSON.stringify(body);
}

/** `{base}/{path}` without doubled slashes. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
