import { mintCallId } from '../calls/call-id.js';
import type { WireDelta } from '../calls/map-chunk.js';
import type { ChatRequest } from '../http/stream-chat.js';
import type { ChatReply, DiscoverReply, EmbeddedSettings, EmbeddedEngineInfo, ModelEvent } from '../protocol.js';
import { toolIndex } from '../calls/tool-index.js';
import { TurnAssembler } from '../calls/turn-assembler.js';
import { outOfMemory } from './errors.js';
import { generate, type CallSyntax } from './generate.js';
import { LanePool } from './lanes.js';
import type { LlamaTextLike, Token } from './llama-api.js';
import { fits, loadEngine, type LoadedEngine } from './load.js';
import { promptTokens, render } from './render.js';
import { scriptFromEnvironment, type Script } from './script.js';
import { documentedFunctions, grammarSchema, pinnedSchema } from './tool-grammar.js';

// The embedded engine: llama.cpp inside the model-io thread, answering the same `chat` and
// `discover` requests as the HTTP path. The main agent's requests run on a context sequence of
// their own; each subagent of a wave gets another (a second context, made at the first wave), so
// a wave never evicts the main conversation from the KV cache. Requests on one sequence run one
// at a time; sequences run side by side.

export interface EmbeddedChatContext {
  signal: AbortSignal;
  emit(event: ModelEvent): void;
  /** The caller's address: `subagent/…` callers get a subagent sequence, anyone else the main one. */
  from: string;
}

/** Ids in the one shape the history keeps (9 letters and digits), so the next request names the same calls. */
const makeId = mintCallId;

/** Calls remembered per reply, for putting a reply's calls back together (see toHistory). */
const REMEMBERED_CALLS = 10_000;

/** Subagent sequences asked for at the first wave (a wave has at most 4). */
const SUBAGENT_SEQUENCES = 4;

export class EmbeddedEngine {
  private readonly main: LanePool;
  private subagents: Promise<LanePool> | undefined;
  private readonly script: Script | undefined;
  private readonly endMarks: string[];
  private readonly syntax: CallSyntax | undefined;
  /** Call id → the first call id of the reply it came in (replies with several calls only). */
  private readonly replyOf = new Map<string, string>();
  private documentedKey = '';
  private documented: ReturnType<typeof documentedFunctions> = {};

  private constructor(private readonly loaded: LoadedEngine) {
    this.main = LanePool.single(loaded.main.getSequence());
    this.script = scriptFromEnvironment();
    const { model } = loaded;
    this.endMarks = [model.tokens.eot, model.tokens.eos].filter((t): t is Token => t !== null && t !== undefined).map((t) => model.detokenize([t], true)).filter(Boolean);
    this.syntax = callSyntax(loaded);
  }

  static async open(path: string, settings: EmbeddedSettings): Promise<EmbeddedEngine> {
    return new EmbeddedEngine(await loadEngine(path, settings));
  }

  get info(): EmbeddedEngineInfo {
    return this.loaded.info;
  }

  discover(): DiscoverReply {
    return { models: [this.loaded.info.model], contextWindow: this.loaded.info.window, engine: { ...this.loaded.info } };
  }

  async chat(request: ChatRequest, context: EmbeddedChatContext): Promise<ChatReply> {
    const tools = toolIndex(request.tools);
    const turn = new TurnAssembler(tools, context.emit, makeId);
    const subagent = context.from.startsWith('subagent/');
    const pool = subagent ? await this.subagentPool() : undefined;
    const functions = this.functionsFor(request);
    const text = render(this.loaded.wrapper, request.messages, functions, (a, b) => this.replyOf.get(a) !== undefined && this.replyOf.get(a) === this.replyOf.get(b));
    const toolsKey = JSON.stringify(request.tools);
    const lane = pool ? await pool.acquire(context.from, (memory) => commonPrefix(memory?.promptText ?? '', text.toString()), context.signal) : await this.main.acquire();
    if (!lane) return turn.finish(true);
    try {
      const prompt = promptTokens(this.loaded.api, this.loaded.model, text, request.messages, lane.memory, toolsKey, this.endMarks);
      lane.memory = undefined;
      const step = this.script?.take();
      const forced = step && 'answer' in step ? [] : (step && 'calls' in step ? step.calls : step ? [step] : []).flatMap((c) => {
        const tool = request.tools.find((t) => t.function.name === c.call);
        return tool ? [{ name: tool.function.name, grammar: pinnedSchema(tool.function.parameters, c.arguments) }] : [];
      });
      const offered = request.toolChoice === 'none' || (step && 'answer' in step) ? [] : request.tools;
      const batch = new TextBatcher((delta) => turn.push(delta));
      const result = await generate({
        api: this.loaded.api,
        llama: this.loaded.llama,
        model: this.loaded.model,
        sequence: lane.sequence,
        window: this.loaded.info.window,
        prompt: prompt.tokens,
        opensThought: prompt.opensThought,
        push: (delta) => batch.push(delta),
        signal: context.signal,
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        tools: new Map(offered.map((t) => [t.function.name, { grammar: grammarSchema(t.function.parameters), schema: t.function.parameters }])),
        ...(this.syntax ? { syntax: this.syntax } : {}),
        ...(forced.length ? { force: forced } : {}),
        ...(step && 'answer' in step ? { literal: step.answer } : {}),
        makeId,
      });
      batch.flush();
      const reply = turn.finish(result.finishReason === 'aborted' || context.signal.aborted);
      this.remember(reply.toolCalls.map((call) => call.id));
      lane.memory = {
        messages: request.messages,
        promptText: prompt.text,
        tokens: [...prompt.tokens, ...result.evaluated],
        reply: { text: reply.text, callIds: reply.toolCalls.map((call) => call.id) },
        toolsKey,
      };
      return reply;
    } finally {
      lane.release();
    }
  }

  private remember(ids: readonly string[]): void {
    if (ids.length < 2) return;
    for (const id of ids) this.replyOf.set(id, ids[0]!);
    for (const key of this.replyOf.keys()) {
      if (this.replyOf.size <= REMEMBERED_CALLS) break;
      this.replyOf.delete(key);
    }
  }

  /** The tool list the template documents; the same array gives the same object (and prompt). */
  private functionsFor(request: ChatRequest): ReturnType<typeof documentedFunctions> | undefined {
    if (request.tools.length === 0) return undefined;
    const key = JSON.stringify(request.tools);
    if (key !== this.documentedKey) {
      this.documentedKey = key;
      this.documented = documentedFunctions(request.tools);
    }
    return this.documented;
  }

  /** The subagents' context, made at the first subagent request with as many sequences as memory allows. */
  private subagentPool(): Promise<LanePool> {
    this.subagents ??= (async () => {
      const { model, main, threads, info } = this.loaded;
      let lastError: unknown;
      for (let sequences = SUBAGENT_SEQUENCES; sequences >= 1; sequences = Math.floor(sequences / 2)) {
        try {
          if (!(await fits(this.loaded.llama, model, main.contextSize, sequences))) continue;
          const context = await model.createContext({ contextSize: main.contextSize, sequences, threads });
          info.subagentSequences = sequences;
          return LanePool.of(context, sequences);
        } catch (error) {
          lastError = error;
        }
      }
      throw outOfMemory(info.model, `a subagent context of ${main.contextSize} tokens beside the main one`, (lastError as Error)?.message);
    })();
    this.subagents.catch(() => (this.subagents = undefined));
    return this.subagents;
  }

  async dispose(): Promise<void> {
    const pool = await this.subagents?.catch(() => undefined);
    await pool?.dispose();
    await this.loaded.main.dispose().catch(() => {});
    await this.loaded.model.dispose().catch(() => {});
  }
}

/** The template's call syntax as node-llama-cpp read it from the template, as tokens. */
function callSyntax(loaded: LoadedEngine): CallSyntax | undefined {
  const call = loaded.wrapper.settings.functions?.call;
  if (!call) return undefined;
  const { api, model } = loaded;
  const text = (value: unknown): LlamaTextLike => api.LlamaText(value);
  const prefixText = text(call.prefix);
  const parallelism = loaded.wrapper.settings.functions?.parallelism;
  const trigger = (prefixText.toString().trim().split('\n')[0] ?? '').trim();
  if (!trigger) return undefined;
  return {
    trigger,
    prefix: prefixText.tokenize(model.tokenizer, 'trimLeadingSpace'),
    paramsPrefix: text(call.paramsPrefix).tokenize(model.tokenizer, 'trimLeadingSpace'),
    suffix: text(call.suffix).tokenize(model.tokenizer, 'trimLeadingSpace'),
    between: parallelism?.call.betweenCalls ? text(parallelism.call.betweenCalls).tokenize(model.tokenizer, 'trimLeadingSpace') : [],
    parallel: Boolean(parallelism),
  };
}

/**
 * Text deltas at most every {@link TEXT_BATCH_MS}: a small model samples hundreds of tokens a
 * second, and a delta per token is a message to the main thread and a redraw of the terminal per
 * token. Anything that is not text goes at once, after the text before it.
 */
const TEXT_BATCH_MS = 30;

class TextBatcher {
  private text = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: (delta: WireDelta) => void) {}

  push(delta: WireDelta): void {
    if (delta.kind !== 'text') {
      this.flush();
      this.out(delta);
      return;
    }
    this.text += delta.text;
    this.timer ??= setTimeout(() => this.flush(), TEXT_BATCH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    this.out({ kind: 'text', text });
  }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
