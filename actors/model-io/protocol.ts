import { actorAddress, type Protocol } from '../../runtime/actor.js';
import type { TemplateProbe } from './template-check/probe.js';

// The model-IO actor's contract. It speaks OpenAI-compatible `/chat/completions` with streaming
// to any server and emits one normalised stream of {@link ModelEvent}s; raw SSE never leaves it.

/** Where and how to reach one model (one profile). */
export interface Endpoint {
  /** e.g. `http://localhost:8080/v1` (no trailing slash needed). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The setting that holds the key (REIKA_API_KEY, or a profile's REIKA_<NAME>_API_KEY): a refused key names it. */
  keyVariable?: string;
  /** The setting that holds `baseUrl` (default REIKA_BASE_URL): a server that does not answer names it. */
  urlVariable?: string;
  /** The setting that holds `model` (default REIKA_MODEL): a model the server does not have names it. */
  modelVariable?: string;
  /** 0 = wait forever. */
  requestTimeoutMs: number;
  /**
   * `embedded`: model-io runs the GGUF file named by `model` itself, through node-llama-cpp
   * (actors/model-io/embedded/); `baseUrl` is then unused.
   */
  engine?: 'embedded';
  /** Settings of the embedded engine (REIKA_CONTEXT_WINDOW, REIKA_THREADS, REIKA_GPU). */
  embedded?: EmbeddedSettings;
  /**
   * What a llama.cpp server takes beside the OpenAI fields, set once the engine is detected:
   * `progress` sends `return_progress: true` (prefill progress chunks), `slot` sends `id_slot`
   * (this actor's own slot, so a subagent never evicts the main agent's cache).
   */
  llamaCpp?: { progress?: boolean; slot?: number };
}

export interface EmbeddedSettings {
  /** The window to run with; default: the model's trained window, capped by what fits in memory. */
  contextWindow?: number;
  /** CPU threads for generation; default: the math cores less one (the terminal keeps a core). */
  threads?: number;
  /** `auto` (default) takes the best GPU backend that loads; `off` runs on the CPU. */
  gpu?: 'auto' | 'off' | 'cuda' | 'vulkan' | 'metal';
}

/** OpenAI chat message, exactly as sent on the wire (key order matters for the prefix cache). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | { role: 'assistant'; content: string; tool_calls?: WireToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A tool offered to the model (OpenAI `tools` entry). */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A complete, validated tool call. */
export interface ToolCall {
  /** The server's id, or one reika minted (9 letters and digits, see `mintCallId`) when the server gave none. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Where it was found: native `tool_calls`, printed in the content, or leaked into reasoning. */
  source: 'native' | 'text' | 'reasoning';
  /**
   * Present only when a native call's arguments were not valid JSON (e.g. cut off by
   * `max_tokens`): the raw text, so the agent loop can tell the model. `arguments` is then `{}`.
   */
  rawArguments?: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the engine's prefix cache (0 when the server does not say). */
  cachedTokens: number;
  /**
   * Prompt tokens the engine evaluated for this request, by its own count (the embedded engine:
   * llama.cpp's decode meter). Absent when the engine does not say.
   */
  prefilledTokens?: number;
  /** Where the cache figures came from: llama.cpp `timings` or `usage.prompt_tokens_details`. */
  cacheFrom?: 'timings' | 'usage';
}

/** llama.cpp `prompt_progress` while it prefills: tokens of the prompt processed so far (cached ones included) of `total`. */
export interface PrefillProgress {
  processed: number;
  total: number;
  /** Tokens taken from the cache. */
  cached: number;
  /** The engine's time on this prompt so far. */
  elapsedMs: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'aborted' | (string & {});

/** The normalised stream, sent as deltas of a `chat` request. */
export type ModelEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; call: ToolCall }
  /**
   * A retry is about to happen (429/5xx/connection loss). Deltas streamed before it belong to the
   * failed attempt: discard them; the next attempt streams the turn from the start.
   */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  /** Something the model produced that could not be used (malformed call, unknown tool…). */
  | { type: 'notice'; message: string }
  /** The engine is reading the prompt (llama.cpp with `return_progress`); the stream is alive. */
  | ({ type: 'prefill-progress' } & PrefillProgress)
  | { type: 'finish'; finishReason: FinishReason; usage: Usage | null };

export type ModelIoRequest =
  | {
      type: 'chat';
      endpoint: Endpoint;
      messages: ChatMessage[];
      tools: ToolSchema[];
      maxTokens?: number;
      temperature?: number;
      /**
       * `none` asks for an answer without tool calls (a subagent's forced report). The tools
       * array is still sent, so the prompt, and the engine's prefix cache, stay the same.
       */
      toolChoice?: 'none';
    }
  /**
   * Asks the server for its models and context window. `contextWindow` is the configured
   * REIKA_CONTEXT_WINDOW (or the profile's): it wins over what the server says.
   */
  | { type: 'discover'; endpoint: Endpoint; contextWindow?: number; /** Ask the server again instead of reusing this start's answers (engine/answers.ts). */ fresh?: boolean }
  /**
   * Which engine serves the endpoint and what it says of itself (`detect-engine.ts`); the embedded
   * engine answers its own record. Never fails: what could not be learnt stays unset.
   */
  | { type: 'detect'; endpoint: Endpoint; /** Also probe the chat template it exposes (template-check/probe.ts). */ probeTemplate?: boolean };

/** Final reply of a `chat` request: the whole assistant turn, assembled. */
export interface ChatReply {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage | null;
  /** Notices raised while parsing (also streamed as `notice` events). */
  notices: string[];
  /**
   * How the model wrote its calls in this reply: `native`, or the text dialect's name (`hermes`,
   * `mistral`… see `dialects/table.ts`). Absent when it made none.
   */
  dialect?: string;
  /**
   * Set when the reply held call markup that could not be used (malformed, unknown tool): the
   * corrective note for the model, in its own dialect.
   */
  correction?: string;
}

export interface DiscoverReply {
  models: string[];
  /** Context window of the configured model, when the server exposes it. */
  contextWindow?: number;
  /** The embedded engine, when it runs the model (what `reika doctor` shows). */
  engine?: EmbeddedEngineInfo;
}

/**
 * What reika knows of the engine that runs the model: one record, for `reika doctor`, the status
 * line, slots, prefill progress and the template check. `embedded` is llama.cpp inside reika;
 * `server` is whatever answers at REIKA_BASE_URL (see `detect-engine.ts`).
 */
export type EngineInfo = EmbeddedEngineInfo | ServerEngineInfo;

/** The engine behind an HTTP endpoint, as it described itself at session start. */
export interface ServerEngineInfo {
  kind: 'server';
  engine: 'llama.cpp' | 'vllm' | 'sglang' | 'ollama' | 'lmstudio' | 'mlx' | 'hosted' | 'unknown';
  baseUrl: string;
  /** Hosted APIs: the provider, from the host name. */
  provider?: string;
  /** The engine's version (llama.cpp `build_info`, vLLM/SGLang/Ollama `version`). */
  version?: string;
  /** The model id the server names. */
  model?: string;
  /** The file or repository the server loaded (llama.cpp `model_path`, vLLM `root`, SGLang `model_path`). */
  modelPath?: string;
  architecture?: string;
  /** LM Studio: `gguf` or `mlx`. */
  format?: string;
  /** The window the server runs the model with, and which answer said so. */
  window?: number;
  windowSource?: 'props' | 'models' | 'server-info';
  /** The model's training window, when the server says and it differs. */
  trainedWindow?: number;
  /** Why the window is unknown, when the engine explains it (Ollama before the model loads). */
  windowNote?: string;
  /** llama.cpp: parallel slots (`-np`), each slot's window, slots busy at detection, `/slots` served. */
  totalSlots?: number;
  slotWindow?: number;
  busySlots?: number;
  slotsEndpoint?: boolean;
  /** llama.cpp `/props`: the chat template it renders with (Jinja source), and the tool-use variant. */
  chatTemplate?: string;
  chatTemplateToolUse?: string;
  bosToken?: string;
  eosToken?: string;
  /**
   * What the exposed chat template does to a recorded reika session (where the system prompt must
   * go, whether it keeps past reasoning, each kind of break), when detection was asked to probe it.
   */
  templateProbe?: TemplateProbe;
  /** llama.cpp `chat_template_caps` (supports_tools, supports_system_role, supports_preserve_reasoning…). */
  templateCaps?: Record<string, boolean>;
  vision?: boolean;
  /** The engine says the model takes native tool calls (Ollama `capabilities`, LM Studio `tool_use`). */
  nativeTools?: boolean;
  /** SGLang's parsers for calls and reasoning, when it was started with them. */
  toolCallParser?: string;
  reasoningParser?: string;
  /** Ollama's prompt template (Go template syntax, not rendered by reika). */
  ollamaTemplate?: string;
  /** Nothing answered at the base URL / the key was refused. */
  unreachable?: boolean;
  authFailed?: boolean;
  /** The paths that answered 200, in order (what the record is based on). */
  answered: string[];
}

/** What the embedded engine runs and how: one record, for `reika doctor` and the status line. */
export interface EmbeddedEngineInfo {
  kind: 'embedded';
  /** Absolute path of the GGUF file. */
  model: string;
  /** `general.name` of the file, when it has one. */
  name?: string;
  architecture?: string;
  /** Bytes of the weights in memory. */
  modelBytes: number;
  /** The window the model was trained with (`<arch>.context_length`). */
  trainedWindow: number;
  /** The window each context sequence runs with. */
  window: number;
  /** Where the window came from: REIKA_CONTEXT_WINDOW, the trained window, or less because memory is short. */
  windowSource: 'configured' | 'trained' | 'memory';
  threads: number;
  /** `cpu`, `cuda`, `vulkan` or `metal`. */
  backend: string;
  /** Layers offloaded to the GPU (0 on the CPU). */
  gpuLayers: number;
  /** How the prompt is rendered: node-llama-cpp's chat wrapper for the GGUF's template (`JinjaTemplate` = the template itself). */
  chatTemplate: string;
  /** Tool calls in the template's own syntax (`template`), node-llama-cpp's generic syntax (`generic`), or none. */
  toolCalls: 'template' | 'generic' | 'none';
  /** Subagent context sequences allocated so far (beside the main one). */
  subagentSequences: number;
  /** node-llama-cpp's version and llama.cpp's release inside it. */
  nodeLlamaCpp: string;
  /** Time to load the binary, the weights and the main context. */
  loadMs: number;
}

export interface ModelIoProtocol extends Protocol<ModelIoRequest> {
  replies: { chat: ChatReply; discover: DiscoverReply; detect: EngineInfo };
  /** Streamed by `chat` only. */
  delta: ModelEvent;
}

/** The model-IO actor (a worker thread). */
export const MODEL_IO = actorAddress<ModelIoProtocol>('model-io');
