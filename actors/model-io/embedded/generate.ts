import type { WireDelta } from '../calls/map-chunk.js';
import type { FinishReason, Usage } from '../protocol.js';
import { windowExceeded } from './errors.js';
import type { GrammarStateLike, ModelLike, NodeLlamaCpp, LlamaLike, SequenceLike, Token } from './llama-api.js';
import { dropNulls, literalGrammar, nameGrammar } from './tool-grammar.js';

/** Prompt tokens evaluated per step while prefilling (an abort waits for one step at most). */
const PREFILL_CHUNK = 256;

export interface CallSyntax {
  /** Text whose appearance in the output starts a call (the first line of the call prefix). */
  trigger: string;
  prefix: Token[];
  paramsPrefix: Token[];
  suffix: Token[];
  /** Between two calls of one reply (empty when the template has no parallel calls). */
  between: Token[];
  /** The template allows several calls in one reply. */
  parallel: boolean;
}

export interface GenerationJob {
  api: NodeLlamaCpp;
  llama: LlamaLike;
  model: ModelLike;
  sequence: SequenceLike;
  window: number;
  prompt: Token[];
  /** The prompt ends inside an open thought: the output starts as reasoning. */
  opensThought: boolean;
  push(delta: WireDelta): void;
  signal: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  /** Tools the model may call now (empty: text only), with the grammar schema of each. */
  tools: ReadonlyMap<string, { grammar: unknown; schema: unknown }>;
  syntax?: CallSyntax;
  /** Forced calls (a script step), in order: each tool with the grammar schema of its arguments. */
  force?: Array<{ name: string; grammar: unknown }>;
  /** A literal answer (script step). */
  literal?: string;
  makeId(): string;
}

export interface GenerationResult {
  finishReason: FinishReason;
  usage: Usage;
  /** Tokens evaluated after the prompt (kept in the cache). */
  evaluated: Token[];
  text: string;
  callIds: string[];
}

type Phase = 'text' | 'name' | 'params';

/**
 * One generation on one context sequence, token by token, as wire deltas for the turn assembler
 * (the same one the HTTP path feeds, so both paths stream the same events).
 *
 * The cache: the sequence keeps what it evaluated; the prompt is compared with it and only the
 * tokens after the first difference are evaluated, in chunks so that an abort lands between two.
 * Text streams as it is sampled. When the model starts a call in its template's syntax (or must
 * call: a forced step), the rest of the call's opening is put in by reika, the function name is
 * sampled under a grammar of the tool names, the arguments under the tool's JSON schema grammar,
 * and the closing is put in again — so a call is valid JSON for its schema whatever the weights.
 * Every token evaluated after the prompt is kept in `evaluated`: prompt + evaluated is the cache
 * the next request of the lane starts from.
 */
export async function generate(job: GenerationJob): Promise<GenerationResult> {
  const { api, llama, model, sequence, prompt, signal } = job;
  if (prompt.length >= job.window) throw windowExceeded(prompt.length, job.window);
  const meter = () => {
    const state = sequence.tokenMeter.getState();
    return state.usedInputTokens + state.usedOutputTokens;
  };
  const before = meter();

  // The cache: keep the longest common prefix (at least the last prompt token is evaluated again
  // when the whole prompt is cached, for its logits).
  const cachedTokens = sequence.contextTokens;
  let cached = 0;
  const limit = Math.min(cachedTokens.length, prompt.length - 1);
  while (cached < limit && cachedTokens[cached] === prompt[cached]) cached++;
  if (cached < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: cached, end: sequence.nextTokenIndex }]);
  const rest = prompt.slice(cached);
  for (let i = 0; i < rest.length - 1; i += PREFILL_CHUNK) {
    if (signal.aborted) return aborted(job, prompt.length, cached, meter() - before);
    await sequence.evaluateWithoutGeneratingNewTokens(rest.slice(i, Math.min(i + PREFILL_CHUNK, rest.length - 1)));
  }
  if (signal.aborted) return aborted(job, prompt.length, cached, meter() - before);

  const evaluated: Token[] = [];
  const callIds: string[] = [];
  let phase = 'text' as Phase;
  let grammar: GrammarStateLike | undefined = job.literal !== undefined ? state(api, llama, model, literalGrammar(job.literal)) : undefined;
  const callable = job.syntax && job.tools.size > 0 ? job.syntax : undefined;
  const names = [...job.tools.keys()];
  let sampled = 0;
  let text = '';
  let pendingText = '';
  const textTokens: Token[] = [];
  let decodedUpTo = 0;
  let nameTokens: Token[] = [];
  let paramsTokens: Token[] = [];
  let callName = '';
  let callIndex = 0;
  let finishReason: FinishReason = 'stop';
  let prefilled = 0;
  let stopAfterInjection = false;
  let keepLast = false;
  let last: Token | undefined;

  if (job.opensThought) job.push({ kind: 'text', text: '<think>' });
  const emitText = (final: boolean) => {
    if (decodedUpTo < textTokens.length) {
      const piece = model.detokenize(textTokens.slice(decodedUpTo), true, textTokens.slice(Math.max(0, decodedUpTo - 4), decodedUpTo));
      if (final || !piece.endsWith('\uFFFD') || textTokens.length - decodedUpTo > 8) {
        pendingText += piece;
        decodedUpTo = textTokens.length;
      }
    }
    let safe = pendingText.length;
    if (callable && !final) {
      // Hold back a tail that could still become the call trigger.
      for (let n = Math.min(callable.trigger.length - 1, pendingText.length); n > 0; n--) {
        if (callable.trigger.startsWith(pendingText.slice(-n))) {
          safe = pendingText.length - n;
          break;
        }
      }
    }
    const out = pendingText.slice(0, safe);
    pendingText = pendingText.slice(safe);
    // Between calls only whitespace is expected; it is not content.
    if (out && !(callIds.length > 0 && out.trim() === '')) {
      text += out;
      job.push({ kind: 'text', text: out });
    }
  };

  const iterator = sequence.evaluate([rest.at(-1)!], {
    temperature: job.temperature ?? 0.7,
    topK: 40,
    topP: 0.95,
    minP: 0.05,
    grammarEvaluationState: () => grammar,
    yieldEogToken: true,
  });
  let step = await iterator.next();
  prefilled = meter() - before;
  try {
    if (job.force?.length && callable) {
      // The first sample is not used: the call's opening goes in instead.
      startName();
      step = await advance(callable.prefix);
    }
    while (!step.done) {
      const token = step.value;
      if (signal.aborted) {
        finishReason = 'aborted';
        break;
      }
      const eog = model.isEogToken(token);
      if (phase === 'text') {
        if (eog) break;
        textTokens.push(token);
        last = token;
        sampled++;
        emitText(false);
        if (callable && pendingText.includes(callable.trigger)) {
          // The model opened a call: what came before it is text, the rest of the opening goes in.
          const at = pendingText.indexOf(callable.trigger);
          const before = pendingText.slice(0, at);
          pendingText = '';
          if (before && !(callIds.length > 0 && before.trim() === '')) {
            text += before;
            job.push({ kind: 'text', text: before });
          }
          const remainder = callable.prefix.length > 0 ? tokensAfterTrigger(model, callable) : [];
          startName();
          step = await advance([token, ...remainder]);
          continue;
        }
      } else if (phase === 'name') {
        if (eog) {
          callName = model.detokenize(nameTokens, false).trim();
          const forced = job.force?.[callIndex];
          const tool = forced?.name === callName ? { grammar: forced.grammar } : job.tools.get(callName);
          phase = 'params';
          paramsTokens = [];
          grammar = state(api, llama, model, undefined, tool?.grammar ?? {});
          step = await advance(callable!.paramsPrefix);
          continue;
        }
        nameTokens.push(token);
        last = token;
        sampled++;
      } else {
        if (eog) {
          finishCall(false);
          if (job.force && callIndex < job.force.length) {
            // The next forced call of the same reply.
            startName();
            step = await advance([...callable!.suffix, ...callable!.between, ...callable!.prefix]);
            continue;
          }
          grammar = undefined;
          phase = 'text';
          if (job.force || !callable!.parallel) stopAfterInjection = true;
          step = await advance(callable!.suffix);
          if (stopAfterInjection) {
            finishReason = 'tool_calls';
            last = undefined;
            break;
          }
          continue;
        }
        paramsTokens.push(token);
        last = token;
        sampled++;
      }
      if (job.maxTokens !== undefined && sampled >= job.maxTokens) {
        finishReason = 'length';
        keepLast = true;
        break;
      }
      if (prompt.length + evaluated.length + 2 >= job.window) {
        finishReason = 'length';
        keepLast = true;
        break;
      }
      step = await advance(undefined);
    }
  } finally {
    await iterator.return();
  }
  if (phase === 'params' && finishReason !== 'tool_calls') finishCall(true);
  if (keepLast && last !== undefined && !signal.aborted) {
    await sequence.evaluateWithoutGeneratingNewTokens([last]);
    evaluated.push(last);
  }
  if (phase === 'text') emitText(true);
  if (finishReason === 'stop' && callIds.length > 0) finishReason = 'tool_calls';
  const usage: Usage = { promptTokens: prompt.length, completionTokens: evaluated.length, cachedTokens: cached, prefilledTokens: prefilled };
  job.push({ kind: 'usage', usage });
  job.push({ kind: 'finish', reason: finishReason });
  return { finishReason, usage, evaluated, text, callIds };

  /** Evaluates the last sample (or `replacement` instead) and samples the next token. */
  async function advance(replacement: Token[] | undefined) {
    if (replacement === undefined) {
      if (step.done) return step;
      evaluated.push(step.value);
    } else evaluated.push(...replacement);
    return iterator.next(replacement ?? undefined);
  }

  function startName(): void {
    phase = 'name';
    nameTokens = [];
    const forced = job.force?.[callIndex];
    grammar = state(api, llama, model, nameGrammar(forced ? [forced.name] : names));
  }

  function finishCall(cut: boolean): void {
    const raw = model.detokenize(paramsTokens, false);
    const id = job.makeId();
    callIds.push(id);
    let args: string | Record<string, unknown> = raw;
    if (!cut) {
      try {
        const parsed = JSON.parse(raw) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = dropNulls(parsed as Record<string, unknown>, job.tools.get(callName)?.schema);
      } catch {
        // left as text: the assembler reports arguments that are not JSON
      }
    }
    job.push({ kind: 'tool', index: callIndex++, id, name: callName, args });
  }
}

function aborted(job: GenerationJob, promptTokens: number, cached: number, prefilled: number): GenerationResult {
  const usage: Usage = { promptTokens, completionTokens: 0, cachedTokens: cached, prefilledTokens: prefilled };
  job.push({ kind: 'usage', usage });
  return { finishReason: 'aborted', usage, evaluated: [], text: '', callIds: [] };
}

/** A grammar state from GBNF text, or from a JSON schema. */
function state(api: NodeLlamaCpp, llama: LlamaLike, model: ModelLike, gbnf: string | undefined, schema?: unknown): GrammarStateLike {
  const grammar = gbnf !== undefined ? new api.LlamaGrammar(llama, { grammar: gbnf }) : new api.LlamaJsonSchemaGrammar(llama, schema);
  return new api.LlamaGrammarEvaluationState({ model, grammar });
}

/** The tokens of the call prefix after its trigger (e.g. `\n{"name": "` after `<tool_call>`). */
function tokensAfterTrigger(model: ModelLike, syntax: CallSyntax): Token[] {
  const full = model.detokenize(syntax.prefix, true);
  const at = full.indexOf(syntax.trigger);
  if (at < 0) return syntax.prefix;
  const after = full.slice(at + syntax.trigger.length);
  return after ? model.tokenize(after, true, 'trimLeadingSpace') : [];
}
