import { open } from 'node:fs/promises';
import type { EmbeddedSettings, EmbeddedEngineInfo } from '../protocol.js';
import { modelMissing, noBinary, notGguf, outOfMemory, packageMissing, unsupportedModel } from './errors.js';
import { installedEngineEntry } from './engine-location.js';
import type { ChatWrapperLike, ContextLike, LlamaLike, ModelLike, NodeLlamaCpp } from './llama-api.js';

// Loading the embedded engine: node-llama-cpp (lazily, so that reika without it loses nothing),
// its prebuilt llama.cpp binary (never a build from source), the GGUF's weights and the main
// context. Every failure a user can hit becomes one sentence (errors.ts).

export interface LoadedEngine {
  api: NodeLlamaCpp;
  /** Shared by every engine of the thread: not disposed with one. */
  llama: LlamaLike;
  model: ModelLike;
  /** The main agent's context: one sequence of the full window. */
  main: ContextLike;
  wrapper: ChatWrapperLike;
  threads: number;
  info: EmbeddedEngineInfo;
}

/** Keeps llama.cpp's last log lines: a failed load says why only there. */
class LogTail {
  private readonly lines: string[] = [];

  add = (level: string, message: string): void => {
    const line = message.trim();
    if (!line || (level !== 'error' && level !== 'fatal' && level !== 'warn')) return;
    this.lines.push(line);
    if (this.lines.length > 20) this.lines.shift();
  };

  /** The most telling line: llama.cpp's first "error loading model" reason, else its last error, else the thrown message. */
  reason(fallback: string): string {
    const loading = this.lines.find((line) => /error loading model:/.test(line));
    if (loading) return loading.replace(/^.*error loading model:\s*/, '');
    const error = this.lines.filter((line) => /error|unknown|unsupported|failed|invalid/i.test(line) && !/Falling back/.test(line)).at(-1);
    return (error ?? fallback).replace(/^[a-z_]+:\s*/i, '');
  }
}

/**
 * node-llama-cpp, or a one-sentence error saying how to get it: the one `reika engine install` put
 * in reika's data folder first (engine-location.ts), else one installed beside reika (a checkout's
 * dev install, or `npm install node-llama-cpp` by hand).
 */
export async function loadNodeLlamaCpp(specifier = 'node-llama-cpp', folder?: string): Promise<NodeLlamaCpp> {
  const installed = specifier === 'node-llama-cpp' ? installedEngineEntry(folder) : undefined;
  // A variable specifier: the module is optional, so the compiler must not resolve it.
  try {
    return (await import(installed ?? specifier)) as NodeLlamaCpp;
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw packageMissing(code === 'ERR_MODULE_NOT_FOUND' ? undefined : (error as Error).message);
  }
}

/** Fails early, before node-llama-cpp is even loaded, for a missing file or one that is no GGUF. */
export async function checkModelFile(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    throw modelMissing(path);
  }
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0).catch(() => {
      throw modelMissing(path);
    });
    if (bytesRead < 4 || head.toString('latin1') !== 'GGUF') throw notGguf(path);
  } finally {
    await handle.close();
  }
}

/** llama.cpp logs from its own threads; the lines of a failed call arrive a turn of the event loop later. */
async function logsDelivered(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** llama.cpp's log goes to the load in progress (never to the terminal). */
let logs = new LogTail();
/** One llama.cpp binding per thread and GPU setting: loading it tests the binary in a child process. */
const bindings = new Map<string, Promise<LlamaLike>>();

function binding(api: NodeLlamaCpp, gpu: EmbeddedSettings['gpu']): Promise<LlamaLike> {
  const key = gpu ?? 'auto';
  let promise = bindings.get(key);
  if (!promise) {
    const option = key === 'auto' ? 'auto' : key === 'off' ? false : key;
    promise = api.getLlama({ build: 'never', skipDownload: true, progressLogs: false, gpu: option, logLevel: 'warn', logger: (level, message) => logs.add(level, message) });
    bindings.set(key, promise);
    promise.catch(() => bindings.delete(key));
  }
  return promise;
}

export async function loadEngine(path: string, settings: EmbeddedSettings = {}): Promise<LoadedEngine> {
  const started = Date.now();
  await checkModelFile(path);
  const api = await loadNodeLlamaCpp();
  logs = new LogTail();
  let llama: LlamaLike;
  try {
    llama = await binding(api, settings.gpu);
  } catch (error) {
    throw noBinary(logs.reason((error as Error).message));
  }
  let model: ModelLike;
  try {
    model = await llama.loadModel({ modelPath: path });
  } catch (error) {
    if (error instanceof api.InsufficientMemoryError) throw outOfMemory(path, 'the weights', (error as Error).message);
    await logsDelivered();
    throw unsupportedModel(path, logs.reason((error as Error).message));
  }
  const threads = settings.threads && settings.threads > 0 ? settings.threads : Math.max(1, llama.cpuMathCores - 1);
  const trainedWindow = model.trainContextSize;
  let main: ContextLike;
  try {
    if (settings.contextWindow !== undefined && !(await fits(llama, model, settings.contextWindow, 1))) throw new api.InsufficientMemoryError();
    main = await model.createContext({ contextSize: settings.contextWindow ?? { max: trainedWindow }, sequences: 1, threads });
  } catch (error) {
    await model.dispose().catch(() => {});
    const what = settings.contextWindow ? `a window of ${settings.contextWindow} tokens` : 'even a small window';
    if (error instanceof api.InsufficientMemoryError || /memory|alloc/i.test((error as Error).message)) throw outOfMemory(path, what, (error as Error).message);
    await logsDelivered();
    throw unsupportedModel(path, logs.reason((error as Error).message));
  }
  // The GGUF's own template, rendered as is: node-llama-cpp's search for an equivalent built-in
  // wrapper renders dozens of probe chats (12 s on a busy 2-core machine) for the same prompt.
  const wrapper = api.resolveChatWrapper(model, { type: templateOf(model) ? 'jinjaTemplate' : 'auto', warningLogs: false });
  const general = model.fileInfo.metadata?.general ?? {};
  const version = (await api.getModuleVersion?.().catch(() => undefined)) ?? 'unknown';
  const release = (llama as { llamaCppRelease?: { release?: string } }).llamaCppRelease?.release;
  const info: EmbeddedEngineInfo = {
    kind: 'embedded',
    model: path,
    ...(general.name ? { name: general.name } : {}),
    ...(general.architecture ? { architecture: general.architecture } : {}),
    modelBytes: model.size,
    trainedWindow,
    window: main.contextSize,
    windowSource: settings.contextWindow ? 'configured' : main.contextSize < trainedWindow ? 'memory' : 'trained',
    threads,
    backend: llama.gpu === false ? 'cpu' : llama.gpu,
    gpuLayers: model.gpuLayers,
    chatTemplate: wrapper.wrapperName,
    toolCalls: !wrapper.settings.functions ? 'none' : wrapper.wrapperName === 'JinjaTemplate' && !/\btools\b/.test(templateOf(model)) ? 'generic' : 'template',
    subagentSequences: 0,
    nodeLlamaCpp: release ? `${version} (llama.cpp ${release})` : version,
    loadMs: Date.now() - started,
  };
  return { api, llama, model, main, wrapper, threads, info };
}

/**
 * Whether a context of `window` tokens × `sequences` fits in the free RAM (and VRAM), by
 * node-llama-cpp's formula. A fixed size is otherwise allocated as asked: a window far past what
 * the machine has would not fail, it would make the system swap.
 */
export async function fits(llama: LlamaLike, model: ModelLike, window: number, sequences: number): Promise<boolean> {
  const need = model.fileInsights.estimateContextResourceRequirements({ contextSize: window, modelGpuLayers: model.gpuLayers, sequences });
  const ram = await llama.getRamState();
  if (need.cpuRam > ram.free) return false;
  if (need.gpuVram > 0 && need.gpuVram > (await llama.getVramState()).free) return false;
  return true;
}

/** The GGUF's chat template ('' when it has none). A template without `tools` gets node-llama-cpp's generic call syntax. */
function templateOf(model: ModelLike): string {
  return (model.fileInfo.metadata as { tokenizer?: { chat_template?: string } } | undefined)?.tokenizer?.chat_template ?? '';
}
