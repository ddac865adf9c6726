/* eslint-disable @typescript-eslint/no-explicit-any -- the wire objects of a dozen servers, read
   with `?.` and checked with `typeof` at every leaf before use; an `unknown` narrowing per level
   would add a cast per field without making a reader safer. */
import type { PrefillProgress, Usage } from '../protocol.js';

/**
 * Translation of OpenAI-compatible wire objects (stream chunks and whole `chat.completion`
 * answers) into small internal deltas. Tolerates the dialects of llama.cpp, vLLM, SGLang, Ollama,
 * LM Studio and hosted APIs: `reasoning_content` or `reasoning`, usage in the last chunk or in the
 * finish chunk, llama.cpp `timings`, arguments as a string or an object, missing indexes.
 */
export type WireDelta =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | {
      kind: 'tool';
      /** Position of the call in this turn (the wire `index`, or the array position when absent). */
      index: number;
      id?: string;
      name?: string;
      /** A fragment of the JSON arguments, or the whole arguments object. */
      args?: string | Record<string, unknown>;
    }
  | { kind: 'finish'; reason: string }
  | { kind: 'usage'; usage: Usage }
  /** llama.cpp `prompt_progress` (sent with `return_progress: true`). */
  | { kind: 'progress'; progress: PrefillProgress }
  /** The server reported an error inside the stream. */
  | { kind: 'error'; status?: number; message: string };

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * Usage with the real cache figures: llama.cpp's `timings` (`cache_n` taken from the cache,
 * `prompt_n` evaluated) win, as the engine's own meter; else `usage.prompt_tokens_details.cached_tokens`
 * (OpenAI, vLLM, SGLang), the prefilled tokens being the rest.
 */
function usageOf(json: any): Usage | undefined {
  const usage = json?.usage;
  const timings = json?.timings && typeof json.timings === 'object' ? json.timings : undefined;
  const cacheN = count(timings?.cache_n);
  const promptN = count(timings?.prompt_n);
  const fromTimings = cacheN !== undefined && promptN !== undefined;
  if (usage && typeof usage === 'object' && typeof usage.prompt_tokens === 'number') {
    const reported = count(usage.prompt_tokens_details?.cached_tokens) ?? count(usage.cached_tokens);
    const cached = fromTimings ? cacheN : (reported ?? 0);
    const out: Usage = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens ?? 0, cachedTokens: cached };
    if (fromTimings) Object.assign(out, { prefilledTokens: promptN, cacheFrom: 'timings' });
    else if (reported !== undefined) Object.assign(out, { prefilledTokens: Math.max(0, usage.prompt_tokens - reported), cacheFrom: 'usage' });
    return out;
  }
  if (timings && promptN !== undefined) {
    const cached = cacheN ?? 0;
    return { promptTokens: promptN + cached, completionTokens: timings.predicted_n ?? 0, cachedTokens: cached, prefilledTokens: promptN, cacheFrom: 'timings' };
  }
  return undefined;
}

function progressOf(json: any): PrefillProgress | undefined {
  const progress = json?.prompt_progress;
  if (!progress || typeof progress !== 'object') return undefined;
  const total = count(progress.total);
  const processed = count(progress.processed);
  if (total === undefined || processed === undefined) return undefined;
  return { processed, total, cached: count(progress.cache) ?? 0, elapsedMs: count(progress.time_ms) ?? 0 };
}

function toolDeltas(calls: unknown, out: WireDelta[]): void {
  if (!Array.isArray(calls)) return;
  calls.forEach((call: any, position) => {
    if (!call || typeof call !== 'object') return;
    const fn = call.function ?? {};
    const delta: WireDelta & { kind: 'tool' } = { kind: 'tool', index: typeof call.index === 'number' ? call.index : position };
    if (typeof call.id === 'string' && call.id) delta.id = call.id;
    if (typeof fn.name === 'string' && fn.name) delta.name = fn.name;
    if (typeof fn.arguments === 'string' || (fn.arguments && typeof fn.arguments === 'object')) delta.args = fn.arguments;
    out.push(delta);
  });
}

function errorDelta(json: any): WireDelta | undefined {
  const error = json?.error;
  if (!error) return undefined;
  const status = typeof error.code === 'number' ? error.code : typeof json.code === 'number' ? json.code : undefined;
  return { kind: 'error', status, message: typeof error === 'string' ? error : String(error.message ?? 'error') };
}

/**
 * One parsed stream chunk, or a whole `chat.completion` answer (a server that ignored `stream`),
 * → its deltas, in wire order (reasoning, text, tools, finish, usage).
 */
export function mapChunk(json: any): WireDelta[] {
  const out: WireDelta[] = [];
  const error = errorDelta(json);
  if (error) return [error];
  const choice = Array.isArray(json?.choices) ? json.choices[0] : undefined;
  if (choice) {
    const delta = choice.delta ?? choice.message ?? {};
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning) out.push({ kind: 'reasoning', text: reasoning });
    if (typeof delta.content === 'string' && delta.content) out.push({ kind: 'text', text: delta.content });
    else if (typeof choice.text === 'string' && choice.text) out.push({ kind: 'text', text: choice.text });
    toolDeltas(delta.tool_calls, out);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) out.push({ kind: 'finish', reason: choice.finish_reason });
  }
  const progress = progressOf(json);
  if (progress) out.push({ kind: 'progress', progress });
  const usage = usageOf(json);
  if (usage) out.push({ kind: 'usage', usage });
  return out;
}

