/**
 * A scripted OpenAI-compatible model server for tests: real HTTP on 127.0.0.1 (random port) that
 * answers like llama.cpp `llama-server` / vLLM on the wire. Stable API, used by many test suites:
 *
 * ```ts
 * const server = await startScriptedServer([
 *   { reasoning: 'Let me look.', content: 'Reading it.', toolCalls: [{ name: 'read', arguments: { path: 'a.ts' } }] },
 *   { content: 'Done.', split: { mode: 'random', seed: 7 } },
 *   { fault: { type: 'status', status: 429, retryAfter: 1 } },
 * ]);
 * // endpoint: { baseUrl: server.url, model: 'scripted-model', requestTimeoutMs: 0 }
 * server.requests[0].json.messages;  // what the client sent
 * await server.close();
 * ```
 *
 * - `startScriptedServer(script, options?)` → `{ url, origin, requests, close() }`. `url` is
 *   `http://127.0.0.1:PORT/v1`. `script` is an array of {@link ScriptedReply} (one per
 *   `POST /v1/chat/completions`, in order) or a function `(request, index) => reply`. A request
 *   past the end of an array gets a 500 whose message says so.
 * - `requests` lists EVERY request (any path, in arrival order): method, path, headers, raw `body`,
 *   parsed `json` (undefined when not JSON), and `outcome`, a promise that settles with how the
 *   response ended (`completed`, `client-closed` when the client hung up first, `dropped` when the
 *   script dropped it). Chat requests also get `index` (their position in the script).
 * - Streaming (`stream: true`, the default answer): a first chunk with the role, then reasoning
 *   deltas (`reasoning_content`, or `reasoning` with `reasoningField`), content deltas, native
 *   tool-call deltas (arguments in `fragments` pieces; ids sent in the first delta, late, or never),
 *   a final chunk with `finish_reason`, usage in a separate last chunk (`choices: []`, OpenAI/vLLM
 *   style) or in the finish chunk (`usageIn: 'finish'`, llama.cpp style, with `timings`), then
 *   `data: [DONE]` unless `done: false`.
 * - Usage defaults are derived from the request ({@link estimateTokens}: characters / 4):
 *   `prompt_tokens` from the serialised `messages` + `tools`, `completion_tokens` from the output,
 *   and `cached_tokens` from the byte prefix this request shares with the previous chat request
 *   (a fair model of an engine's prefix cache). Override any field with `usage`, or `usage: false`.
 * - Timing and framing: `latencyMs` before the first byte, `chunkDelayMs` between writes; `split`
 *   cuts the byte stream at seeded random boundaries, one byte at a time, or fixed sizes (so lines
 *   and UTF-8 characters are cut anywhere); `lineEnding: '\r\n'`; `keepAlive: true` adds `: ping`
 *   comment lines.
 * - Faults (`fault`): `status` (429 with `retryAfter`, 500, 401, 403, 404… with a JSON error body),
 *   `drop` (destroy the socket after `afterBytes` of the stream), `garbage` (a non-JSON `data:`
 *   line before event `atEvent`), `stall` (stop writing after `afterBytes` and keep the socket open
 *   until the client leaves or the server closes), `json` (ignore `stream` and answer one
 *   `chat.completion` object).
 * - `options.models` serves `GET /v1/models`: strings become plain entries, objects are sent as
 *   given (see {@link vllmModel}, {@link llamaCppModel}, {@link lmStudioModel}); `options.props`
 *   serves llama.cpp's `GET /props` (see {@link llamaCppProps}); `options.modelsStatus` fails it;
 *   `options.ollamaPs` serves Ollama's `GET /api/ps` (the loaded models and their context_length).
 * - `options.routes` serves any other path, keyed `'GET /version'`, `'POST /api/show'`: a value
 *   is sent as JSON with status 200, a {@link Route} as it says, a function sees the request.
 *   `options.serverHeader` sets the `Server` header of every answer (llama-server sends
 *   `llama.cpp`, mlx_lm.server Python's `BaseHTTP/0.6 Python/3.12`).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedToolCall {
  name: string;
  /** An object is serialised with JSON.stringify; a string is sent verbatim (may be invalid JSON). */
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_<n>`; `null` means the server never sends an id. */
  id?: string | null;
  /** Send the id in the second delta of this call instead of the first. */
  idLate?: boolean;
  /** How many pieces the arguments are cut into (default 3; 1 = one piece). */
  fragments?: number;
}

export type Split =
  | { mode: 'none' }
  | { mode: 'random'; seed: number; /** largest piece, default 64 bytes */ max?: number }
  | { mode: 'byte' }
  | { mode: 'fixed'; size: number };

export type Fault =
  | { type: 'status'; status: number; retryAfter?: number | string; message?: string; body?: unknown }
  | { type: 'drop'; afterBytes?: number }
  | { type: 'garbage'; line?: string; atEvent?: number }
  | { type: 'stall'; afterBytes?: number }
  | { type: 'json' };

export interface UsageOverride {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
}

export interface ScriptedReply {
  reasoning?: string;
  /** Field name for reasoning deltas (vLLM/SGLang/llama.cpp: `reasoning_content`; Ollama/OpenRouter: `reasoning`). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: `tool_calls` when toolCalls are given, else `stop`. `null` sends no finish reason. */
  finishReason?: string | null;
  /** Override derived usage fields, or `false` to send no usage at all. */
  usage?: UsageOverride | false;
  /** `separate` (default): an extra chunk with `choices: []`; `finish`: inside the finish chunk, plus llama.cpp `timings`. */
  usageIn?: 'separate' | 'finish';
  /** Characters of text per delta (default 4), so reasoning and content arrive as many deltas. */
  charsPerDelta?: number;
  latencyMs?: number;
  chunkDelayMs?: number;
  split?: Split;
  lineEnding?: '\n' | '\r\n';
  keepAlive?: boolean;
  /** Send `data: [DONE]` at the end (default true); false ends with a plain close. */
  done?: boolean;
  fault?: Fault;
  /** Replace the generated chunk objects (each sent as one `data:` event). */
  events?: unknown[];
  /** Replace the whole SSE body with these bytes (still split and delayed). */
  raw?: string;
  /** Model name echoed in chunks (default: the request's `model`). */
  model?: string;
}

/**
 * JSON off the wire (a request body as the client sent it, an agent's JSON-RPC answer), parsed.
 * `any` on purpose: tests read into it by the wire's field names (`json.messages[0].content`), and
 * a wrong path fails the assertion that reads it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type WireJson = any;

export interface ScriptedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: WireJson;
  /** Position in the script (chat requests only). */
  index?: number;
  outcome: Promise<'completed' | 'client-closed' | 'dropped'>;
}

export type Script = ScriptedReply[] | ((request: ScriptedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>);

/** An answer to one path (see `options.routes`). */
export interface Route {
  status: number;
  body: unknown;
}

export interface ServerOptions {
  /** Listen on this port (default: a free one). A bench keeps one URL across runs, as a user's server has. */
  port?: number;
  routes?: Record<string, unknown | Route | ((request: ScriptedRequest) => unknown | Route)>;
  serverHeader?: string;
  models?: Array<string | Record<string, unknown>>;
  modelsStatus?: number;
  props?: Record<string, unknown>;
  /** Ollama's `GET /api/ps`: the models loaded now; a function sees how many chat requests came so far. */
  ollamaPs?: (chatRequests: number) => Array<Record<string, unknown>>;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:PORT/v1` */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: ScriptedRequest[];
  /** Chat requests only, in order. */
  chatRequests(): ScriptedRequest[];
  close(): Promise<void>;
}

/** Realistic token estimate used for default usage: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The part of a chat request that counts as prompt, in the order an engine's chat template renders
 * it: tools first (they go into the system block), then the messages. So an append-only
 * conversation shares its whole previous prompt as a prefix, as it does in a real prefix cache.
 */
export function promptText(json: WireJson): string {
  return (json?.tools ? JSON.stringify(json.tools) : '') + JSON.stringify(json?.messages ?? []);
}

/** A vLLM `/v1/models` entry. */
export function vllmModel(id: string, maxModelLen: number): Record<string, unknown> {
  return { id, object: 'model', created: 1, owned_by: 'vllm', root: id, parent: null, max_model_len: maxModelLen };
}

/** A llama.cpp `/v1/models` entry (training context in `meta.n_ctx_train`). */
export function llamaCppModel(id: string, nCtxTrain: number): Record<string, unknown> {
  return { id, object: 'model', created: 1, owned_by: 'llamacpp', meta: { vocab_type: 2, n_vocab: 151936, n_ctx_train: nCtxTrain, n_embd: 4096, n_params: 8e9, size: 5e9 } };
}

/** An LM Studio style entry (`max_context_length`, as its `/api/v0/models` reports). */
export function lmStudioModel(id: string, maxContextLength: number): Record<string, unknown> {
  return { id, object: 'model', owned_by: 'organization_owner', max_context_length: maxContextLength };
}

/** llama.cpp's `GET /props` answer with the configured context size. */
export function llamaCppProps(nCtx: number): Record<string, unknown> {
  return { default_generation_settings: { n_ctx: nCtx, params: {} }, total_slots: 1, model_path: '/models/model.gguf' };
}

/** Deterministic PRNG (mulberry32) so a failing random split can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts bytes into pieces as a `split` asks. */
export function splitBytes(bytes: Buffer, split: Split = { mode: 'none' }): Buffer[] {
  if (split.mode === 'none' || bytes.length === 0) return [bytes];
  const pieces: Buffer[] = [];
  const random = split.mode === 'random' ? seededRandom(split.seed) : undefined;
  for (let at = 0; at < bytes.length; ) {
    const size = split.mode === 'byte' ? 1 : split.mode === 'fixed' ? Math.max(1, split.size) : 1 + Math.floor(random!() * (split.max ?? 64));
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

interface Built {
  usage: Record<string, unknown> | undefined;
  timings: Record<string, unknown> | undefined;
  calls: Array<{ id: string | null; name: string; arguments: string }>;
}

function buildUsage(reply: ScriptedReply, json: WireJson, previousPrompt: string | undefined, calls: Built['calls']): Pick<Built, 'usage' | 'timings'> {
  if (reply.usage === false) return { usage: undefined, timings: undefined };
  const prompt = promptText(json);
  const output = (reply.reasoning ?? '') + (reply.content ?? '') + calls.map((c) => c.name + c.arguments).join('');
  const promptTokens = reply.usage?.prompt_tokens ?? estimateTokens(prompt);
  const completionTokens = reply.usage?.completion_tokens ?? estimateTokens(output);
  const cached = Math.min(promptTokens, reply.usage?.cached_tokens ?? (previousPrompt === undefined ? 0 : Math.floor(commonPrefix(previousPrompt, prompt) / 4)));
  return {
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens, prompt_tokens_details: { cached_tokens: cached } },
    timings: { cache_n: cached, prompt_n: promptTokens - cached, prompt_ms: 12.5, predicted_n: completionTokens, predicted_ms: 40.1 },
  };
}

function chatEvents(reply: ScriptedReply, json: WireJson, built: Built): unknown[] {
  const model = reply.model ?? json?.model ?? 'scripted-model';
  const base = { id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra });
  const size = reply.charsPerDelta ?? 4;
  const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
  const field = reply.reasoningField ?? 'reasoning_content';
  for (const piece of pieces(reply.reasoning ?? '', size)) events.push(chunk({ [field]: piece }));
  for (const piece of pieces(reply.content ?? '', size)) events.push(chunk({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const spec = built.calls[index]!;
    const fragments = Math.max(1, call.fragments ?? 3);
    const step = Math.ceil(spec.arguments.length / fragments) || 1;
    const argPieces: string[] = [];
    for (let i = 0; i < spec.arguments.length; i += step) argPieces.push(spec.arguments.slice(i, i + step));
    const first: Record<string, unknown> = { index, type: 'function', function: { name: spec.name, arguments: '' } };
    if (spec.id !== null && !call.idLate) first.id = spec.id;
    events.push(chunk({ tool_calls: [first] }));
    argPieces.forEach((piece, i) => {
      const delta: Record<string, unknown> = { index, function: { arguments: piece } };
      if (i === 0 && call.idLate && spec.id !== null) delta.id = spec.id;
      events.push(chunk({ tool_calls: [delta] }));
    });
    if (argPieces.length === 0 && call.idLate && spec.id !== null) events.push(chunk({ tool_calls: [{ index, id: spec.id }] }));
  });
  const finish = reply.finishReason === undefined ? (reply.toolCalls?.length ? 'tool_calls' : 'stop') : reply.finishReason;
  if (reply.usageIn === 'finish' && built.usage) {
    events.push(chunk({}, finish, { usage: built.usage, timings: built.timings }));
  } else {
    events.push(chunk({}, finish));
    if (built.usage) events.push({ ...base, choices: [], usage: built.usage });
  }
  return events;
}

function completionObject(reply: ScriptedReply, json: WireJson, built: Built): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content ?? null };
  if (reply.reasoning) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
  if (built.calls.length) message.tool_calls = built.calls.map((c, i) => ({ id: c.id ?? `call_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  const finish = reply.finishReason === undefined ? (built.calls.length ? 'tool_calls' : 'stop') : reply.finishReason;
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: reply.model ?? json?.model ?? 'scripted-model',
    choices: [{ index: 0, message, finish_reason: finish }],
    ...(built.usage ? { usage: built.usage } : {}),
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function errorBody(status: number, message?: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : status === 404 ? 'not_found_error' : 'server_error';
  return { error: { message: message ?? `scripted ${status}`, type, code: status } };
}

/** Starts the server; see the module comment for the full behaviour. */
export async function startScriptedServer(script: Script, options: ServerOptions = {}): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const sockets = new Set<Socket>();
  let chatCount = 0;
  let previousPrompt: string | undefined;

  const respondChat = async (reply: ScriptedReply, json: WireJson, res: ServerResponse, socket: Socket, settle: (o: 'completed' | 'dropped') => void) => {
    const calls = (reply.toolCalls ?? []).map((c, i) => ({
      id: c.id === null ? null : (c.id ?? `call_${i}`),
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    const prompt = promptText(json);
    const built: Built = { calls, ...buildUsage(reply, json, previousPrompt, calls) };
    previousPrompt = prompt;
    if (reply.latencyMs) await delay(reply.latencyMs);
    const fault = reply.fault;
    if (fault?.type === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      res.writeHead(fault.status, headers).end(JSON.stringify(fault.body ?? errorBody(fault.status, fault.message)));
      return settle('completed');
    }
    if (fault?.type === 'json' || json?.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completionObject(reply, json, built)));
      return settle('completed');
    }
    const eol = reply.lineEnding ?? '\n';
    let sse: string;
    if (reply.raw !== undefined) {
      sse = reply.raw;
    } else {
      const events = reply.events ?? chatEvents(reply, json, built);
      const lines = events.map((event) => `data: ${JSON.stringify(event)}${eol}${eol}`);
      if (fault?.type === 'garbage') lines.splice(Math.min(fault.atEvent ?? 1, lines.length), 0, `${fault.line ?? 'data: {"choices":[{"delta":{"content":"oops'}${eol}${eol}`);
      if (reply.keepAlive) for (let i = lines.length; i >= 0; i -= 2) lines.splice(i, 0, `: ping${eol}${eol}`);
      if (reply.done !== false) lines.push(`data: [DONE]${eol}${eol}`);
      sse = lines.join('');
    }
    let bytes = Buffer.from(sse, 'utf8');
    const cut = fault?.type === 'drop' || fault?.type === 'stall' ? Math.min(fault.afterBytes ?? Math.floor(bytes.length / 2), bytes.length) : undefined;
    if (cut !== undefined) bytes = bytes.subarray(0, cut);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    for (const piece of splitBytes(bytes, reply.split)) {
      if (res.destroyed || socket.destroyed) return;
      res.write(piece);
      if (reply.chunkDelayMs) await delay(reply.chunkDelayMs);
    }
    if (fault?.type === 'drop') {
      // Let the written bytes leave before the reset so the client sees a mid-stream loss.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      socket.destroy();
      return settle('dropped');
    }
    if (fault?.type === 'stall') return; // stays open until the client leaves or close()
    res.end();
    settle('completed');
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: WireJson;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      let settle!: (o: 'completed' | 'client-closed' | 'dropped') => void;
      let settled = false;
      const outcome = new Promise<'completed' | 'client-closed' | 'dropped'>((resolve) => {
        settle = (o) => {
          if (!settled) resolve(o);
          settled = true;
        };
      });
      res.on('close', () => settle(res.writableFinished ? 'completed' : 'client-closed'));
      const path = (req.url ?? '/').split('?')[0]!;
      const record: ScriptedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, json, outcome };
      requests.push(record);
      const socket = req.socket;
      if (options.serverHeader) res.setHeader('server', options.serverHeader);
      const route = options.routes?.[`${req.method} ${path}`];
      void (async () => {
        try {
          if (route !== undefined) {
            const answer = typeof route === 'function' ? route(record) : route;
            const isRoute = answer !== null && typeof answer === 'object' && 'status' in answer && 'body' in answer && Object.keys(answer).length === 2;
            const status = isRoute ? (answer as Route).status : 200;
            const body = isRoute ? (answer as Route).body : answer;
            res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
          } else if (req.method === 'POST' && path === '/v1/chat/completions') {
            const index = chatCount++;
            record.index = index;
            const reply = typeof script === 'function' ? await script(record, index) : script[index];
            if (!reply) {
              res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(500, `scripted server: no reply scripted for chat request #${index}`)));
              return;
            }
            await respondChat(reply, json, res, socket, settle);
          } else if (req.method === 'GET' && path === '/v1/models') {
            if (options.modelsStatus) {
              res.writeHead(options.modelsStatus, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(options.modelsStatus)));
              return;
            }
            const data = (options.models ?? ['scripted-model']).map((m) => (typeof m === 'string' ? { id: m, object: 'model', created: 1, owned_by: 'scripted' } : m));
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
          } else if (req.method === 'GET' && path === '/props' && options.props) {
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(options.props));
          } else if (req.method === 'GET' && path === '/api/ps' && options.ollamaPs) {
            const chats = requests.filter((r) => r.path === '/v1/chat/completions').length;
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ models: options.ollamaPs(chats) }));
          } else {
            res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'File Not Found', type: 'not_found_error', code: 404 } }));
          }
        } catch (error) {
          if (!res.headersSent) res.writeHead(500).end(String(error));
          else res.destroy();
        }
      })();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    chatRequests: () => requests.filter((r) => r.index !== undefined),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
