/* eslint-disable @typescript-eslint/no-explicit-any -- engines' JSON answers, read with `?.` and
   checked with `typeof` at every leaf before use. */
import { pollTurn } from '../../../runtime/poll-turn.js';
import type { Endpoint, ServerEngineInfo } from '../protocol.js';
import { endpointUrl } from '../http/request-body.js';
import { answerOf, askOnce, hasAnswer, type Answer } from './answers.js';
import { windowOfModel, windowOfProps } from './discover.js';
import { isLocalHost, originOf } from './hosts.js';

// Which engine serves an endpoint, and what it tells about itself, in one {@link ServerEngineInfo}
// record (what `reika doctor` shows; what the session uses for slots, prefill progress and the
// template check). Runs at session start beside the bootstrap scan, never before the first
// request: each question is a cheap GET (Ollama's `/api/show` a POST) with a short timeout, and
// an engine that answers none of them is `unknown`, not an error.
//
// Evidence, in order: the `/v1/models` entries' `owned_by` (`llamacpp`, `vllm`, `sglang`,
// LM Studio's `organization_owner`, Ollama's `library`) and the `Server` header (llama-server
// sends `llama.cpp`; mlx_lm.server is Python's `BaseHTTP`); then each engine's own endpoints:
// llama.cpp `/props` and `/slots`, vLLM `/version`, SGLang `/get_server_info`, Ollama
// `/api/version` and `/api/show`, LM Studio `/api/v0/models`. A host that is not this machine or a
// private network and names none of them is `hosted`.

/** Each detection question waits at most this long (a local server answers in milliseconds). */
const PROBE_TIMEOUT_MS = 3_000;

type Ask = (path: string, init?: { method?: 'GET' | 'POST'; body?: unknown; base?: 'origin' | 'api' }) => Promise<Answer | undefined>;

function asker(endpoint: Endpoint, signal: AbortSignal, answered: string[], clear: () => Promise<boolean>): Ask {
  const origin = originOf(endpoint.baseUrl);
  return async (path, init = {}) => {
    const url = init.base === 'api' ? endpointUrl(endpoint.baseUrl, path) : `${origin}${path}`;
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const headers: Record<string, string> = { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) };
    // An abort that reached this thread while the last answer was read is handled before the next
    // question goes, and the main thread (which sees signals) clears it: after an interrupt, no
    // probe of a later wave leaves.
    await pollTurn();
    if (signal.aborted || !(await clear()) || signal.aborted) return undefined;
    let answer: Answer;
    try {
      // GETs are shared with discovery (answers.ts): each is asked once per start.
      answer = body === undefined ? await answerOf(url, { headers, signal, idleTimeoutMs: PROBE_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024 }) : await askOnce(url, 'POST', { headers, body, signal, idleTimeoutMs: PROBE_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024 });
    } catch {
      return undefined;
    }
    if (answer.status === 200) answered.push(init.base === 'api' ? `/v1/${path}` : path);
    return answer;
  };
}

export { isLocalHost, originOf } from './hosts.js';

/** Hosted APIs by host name, for the doctor's line. */
const PROVIDERS: Array<[RegExp, string]> = [
  [/(^|\.)openai\.com$/, 'OpenAI'],
  [/(^|\.)openrouter\.ai$/, 'OpenRouter'],
  [/(^|\.)anthropic\.com$/, 'Anthropic'],
  [/(^|\.)deepseek\.com$/, 'DeepSeek'],
  [/(^|\.)groq\.com$/, 'Groq'],
  [/(^|\.)together\.(xyz|ai)$/, 'Together'],
  [/(^|\.)mistral\.ai$/, 'Mistral'],
  [/(^|\.)googleapis\.com$/, 'Google'],
  [/(^|\.)fireworks\.ai$/, 'Fireworks'],
  [/(^|\.)cerebras\.ai$/, 'Cerebras'],
  [/(^|\.)x\.ai$/, 'xAI'],
  [/(^|\.)moonshot\.(ai|cn)$/, 'Moonshot'],
  [/(^|\.)huggingface\.co$/, 'Hugging Face'],
  [/(^|\.)azure\.com$/, 'Azure'],
];

function providerOf(baseUrl: string): string | undefined {
  try {
    const host = new URL(baseUrl).hostname;
    return PROVIDERS.find(([pattern]) => pattern.test(host))?.[1] ?? host;
  } catch {
    return undefined;
  }
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The entry of the configured model in a `/v1/models` list (or the only one). */
function entryOf(data: any[], model: string): any {
  return data.find((m) => m?.id === model) ?? (model ? undefined : data[0]) ?? (data.length === 1 ? data[0] : undefined);
}

/**
 * Detects the engine behind `endpoint`. Never throws: what could not be learnt stays unset. Once
 * `signal` aborts no further question is asked, and what was learnt so far is returned. `clear`
 * is asked before each question (model-io: the main thread's clearance, runtime/clearance.ts); a
 * question it refuses is not asked.
 */
export async function detectEngine(endpoint: Endpoint, signal: AbortSignal, clear: () => Promise<boolean> = async () => true): Promise<ServerEngineInfo> {
  const answered: string[] = [];
  const ask = asker(endpoint, signal, answered, clear);
  const info: ServerEngineInfo = { kind: 'server', engine: 'unknown', baseUrl: endpoint.baseUrl, ...(endpoint.model ? { model: endpoint.model } : {}), answered };
  const models = await ask('models', { base: 'api' });
  if (signal.aborted) return info;
  if (!models) {
    info.unreachable = true;
    return info;
  }
  if (models.status === 401 || models.status === 403) info.authFailed = true;
  const data: any[] = models.status === 200 && Array.isArray(models.json?.data) ? models.json.data : [];
  const entry = entryOf(data, endpoint.model);
  if (!info.model && typeof entry?.id === 'string') info.model = entry.id;
  const owner = String(entry?.owned_by ?? data[0]?.owned_by ?? '');
  const modelsWindow = windowOfModel(entry);
  const local = isLocalHost(endpoint.baseUrl);

  if (owner === 'llamacpp' || /llama\.cpp/i.test(models.server) || entry?.meta !== undefined) return llamaCpp(info, ask, entry);
  if (owner === 'vllm') return vllm(info, ask, entry);
  if (owner === 'sglang') return sglang(info, ask, entry);
  if (owner === 'organization_owner') return lmStudio(info, ask, modelsWindow);
  if (owner === 'library' || owner === 'ollama') return ollama(info, ask);
  if (!local) {
    info.engine = 'hosted';
    const provider = providerOf(endpoint.baseUrl);
    if (provider) info.provider = provider;
    if (modelsWindow) setWindow(info, modelsWindow, 'models');
    return info;
  }
  // A local server that names no engine: each engine's own endpoint (a 404 costs one request).
  // When discovery already has llama.cpp's /props answer, that decides first and a llama.cpp is
  // asked nothing more; otherwise all of them at once, as the first request waits for detection.
  const propsKnown = hasAnswer(`${originOf(endpoint.baseUrl)}/props`, endpoint.apiKey ? `Bearer ${endpoint.apiKey}` : '');
  const props = propsKnown ? await ask('/props') : undefined;
  if (signal.aborted) return info;
  if (props?.status === 200 && props.json?.default_generation_settings) return llamaCpp(info, ask, entry, props);
  const [lateProps, ollamaVersion, serverInfo, version] = await Promise.all([propsKnown ? props : ask('/props'), ask('/api/version'), ask('/get_server_info'), ask('/version')]);
  if (signal.aborted) return info;
  if (lateProps?.status === 200 && lateProps.json?.default_generation_settings) return llamaCpp(info, ask, entry, lateProps);
  if (ollamaVersion?.status === 200 && text(ollamaVersion.json?.version)) return ollama(info, ask, ollamaVersion);
  if (serverInfo?.status === 200 && serverInfo.json && typeof serverInfo.json === 'object') return sglang(info, ask, entry, serverInfo);
  if (version?.status === 200 && text(version.json?.version)) return vllm(info, ask, entry, version);
  if (/^BaseHTTP/i.test(models.server) && data.length > 0 && data.every((m) => m?.owned_by === undefined)) {
    info.engine = 'mlx';
    if (modelsWindow) setWindow(info, modelsWindow, 'models');
    return info;
  }
  if (modelsWindow) setWindow(info, modelsWindow, 'models');
  return info;
}

function setWindow(info: ServerEngineInfo, window: number, source: NonNullable<ServerEngineInfo['windowSource']>): void {
  info.window = window;
  info.windowSource = source;
}

async function llamaCpp(info: ServerEngineInfo, ask: Ask, entry: any, known?: Answer): Promise<ServerEngineInfo> {
  info.engine = 'llama.cpp';
  const trained = positive(entry?.meta?.n_ctx_train);
  if (trained) info.trainedWindow = trained;
  const [props, slots] = await Promise.all([known ?? ask('/props'), ask('/slots')]);
  const p = props?.status === 200 ? props.json : undefined;
  if (p) {
    const window = windowOfProps(p);
    if (window) setWindow(info, window, 'props');
    const total = positive(p.total_slots);
    if (total) info.totalSlots = total;
    const build = text(p.build_info);
    if (build) info.version = build;
    const path = text(p.model_path);
    if (path) info.modelPath = path;
    const template = text(p.chat_template);
    if (template) info.chatTemplate = template;
    const toolTemplate = text(p.chat_template_tool_use);
    if (toolTemplate) info.chatTemplateToolUse = toolTemplate;
    if (typeof p.bos_token === 'string') info.bosToken = p.bos_token;
    if (typeof p.eos_token === 'string') info.eosToken = p.eos_token;
    if (p.chat_template_caps && typeof p.chat_template_caps === 'object') {
      const caps: Record<string, boolean> = {};
      for (const [key, value] of Object.entries(p.chat_template_caps)) if (typeof value === 'boolean') caps[key] = value;
      info.templateCaps = caps;
    }
    if (typeof p.modalities?.vision === 'boolean') info.vision = p.modalities.vision;
    if (typeof p.endpoint_slots === 'boolean') info.slotsEndpoint = p.endpoint_slots;
  } else if (trained) {
    setWindow(info, trained, 'models');
  }
  if (slots?.status === 200 && Array.isArray(slots.json)) {
    info.slotsEndpoint = true;
    info.totalSlots ??= slots.json.length;
    const windows = slots.json.map((slot: any) => positive(slot?.n_ctx)).filter((n: number | undefined): n is number => n !== undefined);
    if (windows.length) info.slotWindow = Math.min(...windows);
    info.busySlots = slots.json.filter((slot: any) => slot?.is_processing === true).length;
  } else if (slots?.status === 501) {
    info.slotsEndpoint = false;
  }
  return info;
}

async function vllm(info: ServerEngineInfo, ask: Ask, entry: any, known?: Answer): Promise<ServerEngineInfo> {
  info.engine = 'vllm';
  const window = positive(entry?.max_model_len);
  if (window) setWindow(info, window, 'models');
  if (text(entry?.root) && entry.root !== entry.id) info.modelPath = entry.root;
  const version = known ?? (await ask('/version'));
  if (version?.status === 200 && text(version.json?.version)) info.version = version.json.version;
  return info;
}

async function sglang(info: ServerEngineInfo, ask: Ask, entry: any, known?: Answer): Promise<ServerEngineInfo> {
  info.engine = 'sglang';
  const window = positive(entry?.max_model_len);
  if (window) setWindow(info, window, 'models');
  const server = known ?? (await ask('/get_server_info'));
  const s = server?.status === 200 ? server.json : undefined;
  if (s) {
    if (text(s.version)) info.version = s.version;
    if (text(s.model_path)) info.modelPath = s.model_path;
    const length = positive(s.context_length);
    if (!info.window && length) setWindow(info, length, 'server-info');
    if (text(s.tool_call_parser)) info.toolCallParser = s.tool_call_parser;
    if (text(s.reasoning_parser)) info.reasoningParser = s.reasoning_parser;
  }
  if (!info.version) {
    const version = await ask('/version');
    if (version?.status === 200 && text(version.json?.version)) info.version = version.json.version;
  }
  return info;
}

async function lmStudio(info: ServerEngineInfo, ask: Ask, modelsWindow: number | undefined): Promise<ServerEngineInfo> {
  info.engine = 'lmstudio';
  const listed = await ask('/api/v0/models');
  const entries: any[] = listed?.status === 200 && Array.isArray(listed.json?.data) ? listed.json.data : [];
  const entry = entryOf(entries, info.model ?? '');
  const loaded = positive(entry?.loaded_context_length);
  const max = positive(entry?.max_context_length) ?? modelsWindow;
  if (loaded) setWindow(info, loaded, 'server-info');
  else if (max) setWindow(info, max, 'models');
  if (max && max !== info.window) info.trainedWindow = max;
  if (text(entry?.arch)) info.architecture = entry.arch;
  if (text(entry?.compatibility_type)) info.format = entry.compatibility_type;
  if (Array.isArray(entry?.capabilities) && entry.capabilities.includes('tool_use')) info.nativeTools = true;
  return info;
}

async function ollama(info: ServerEngineInfo, ask: Ask, known?: Answer): Promise<ServerEngineInfo> {
  info.engine = 'ollama';
  const [version, show, ps] = await Promise.all([known ?? ask('/api/version'), info.model ? ask('/api/show', { method: 'POST', body: { model: info.model } }) : undefined, ask('/api/ps')]);
  if (version?.status === 200 && text(version.json?.version)) info.version = version.json.version;
  const s = show?.status === 200 ? show.json : undefined;
  if (s) {
    const modelInfo = s.model_info && typeof s.model_info === 'object' ? s.model_info : {};
    const arch = text(modelInfo['general.architecture']);
    if (arch) info.architecture = arch;
    const trained = positive(arch ? modelInfo[`${arch}.context_length`] : undefined);
    if (trained) info.trainedWindow = trained;
    const numCtx = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(String(s.parameters ?? ''))?.[1];
    if (numCtx) setWindow(info, Number(numCtx), 'server-info');
    if (Array.isArray(s.capabilities)) info.nativeTools = s.capabilities.includes('tools');
    if (text(s.template)) info.ollamaTemplate = s.template;
  }
  const names = info.model ? (info.model.includes(':') ? [info.model] : [info.model, `${info.model}:latest`]) : [];
  const loaded = Array.isArray(ps?.json?.models) ? ps!.json.models.find((m: any) => names.includes(m?.name) || names.includes(m?.model)) : undefined;
  const running = positive(loaded?.context_length);
  if (running) setWindow(info, running, 'server-info');
  else if (!info.window) info.windowNote = 'Ollama says the window only once the model is loaded (the default num_ctx is small: set it in a Modelfile or OLLAMA_CONTEXT_LENGTH)';
  return info;
}
