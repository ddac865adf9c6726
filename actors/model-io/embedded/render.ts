import type { ChatMessage } from '../protocol.js';
import type { ChatWrapperLike, FunctionDoc, HistoryItem, LlamaTextLike, ModelLike, ModelResponseItem, NodeLlamaCpp, Token } from './llama-api.js';

// The prompt of one request, rendered by the GGUF's own chat template (through node-llama-cpp's
// chat wrapper), as tokens. When the request extends the lane's previous one (its messages, then
// the reply the engine gave, then more), the prompt is the lane's KV cache exactly as evaluated —
// prompt and generated tokens alike — plus the tokens of what the template renders after that
// reply. Re-rendering the reply would not give back the sampled tokens (the template reformats
// arguments, and sampled tokens need not be the tokenizer's own split), so every request would
// re-evaluate the last reply and all after it. Anything else (the first request, a compaction, a
// template that rewrites earlier turns) is rendered whole and evaluated from the first token that
// differs from the cache.

/** What a lane remembers of its last request. */
export interface LaneMemory {
  messages: ChatMessage[];
  /** The rendered prompt text of that request. */
  promptText: string;
  /** Prompt tokens, then every token evaluated while generating (the KV cache). */
  tokens: Token[];
  /** The reply as the agent loop will send it back. */
  reply: { text: string; callIds: string[] };
  toolsKey: string;
}

export interface Prompt {
  tokens: Token[];
  text: string;
  /** `extended`: the cache plus the appended messages; `rendered`: the whole conversation rendered. */
  mode: 'extended' | 'rendered';
  /** The generation prompt ends inside an opened thought block (e.g. Qwen3's `<think>\n`). */
  opensThought: boolean;
}

/**
 * OpenAI-style messages → node-llama-cpp chat history (tool results go inside the model turn that
 * called them). The agent loop sends the calls of one reply one per assistant message, each
 * followed by its result; `sameReply` says which calls the engine generated together, and those
 * are put back into one chunk, as the model wrote them (and as the cache holds them).
 */
export function toHistory(messages: readonly ChatMessage[], sameReply: (a: string, b: string) => boolean = () => false): HistoryItem[] {
  const history: HistoryItem[] = [];
  const pending = new Map<string, { type: 'functionCall'; name: string; params: unknown; result: unknown }>();
  let lastCallId: string | undefined;
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        history.push({ type: 'system', text: message.content });
        break;
      case 'user':
        history.push({ type: 'user', text: userText(message.content) });
        lastCallId = undefined;
        break;
      case 'assistant': {
        const response: ModelResponseItem[] = [];
        if (message.reasoning_content) response.push({ type: 'segment', segmentType: 'thought', text: message.reasoning_content, ended: true });
        if (message.content) response.push(message.content);
        for (const [index, call] of (message.tool_calls ?? []).entries()) {
          // Each assistant message's calls are one chunk, unless the model wrote them with the previous ones.
          const joins = index > 0 || (lastCallId !== undefined && !message.content && sameReply(lastCallId, call.id));
          const item = { type: 'functionCall' as const, name: call.function.name, params: parseArguments(call.function.arguments), result: '', ...(joins ? {} : { startsNewChunk: true }) };
          pending.set(call.id, item);
          response.push(item);
          lastCallId = call.id;
        }
        if (!message.tool_calls?.length) lastCallId = undefined;
        const last = history.at(-1);
        // After tool results the model goes on in the same turn, as node-llama-cpp models it.
        if (last?.type === 'model' && last.response.some((item) => typeof item === 'object' && item.type === 'functionCall')) last.response.push(...response);
        else history.push({ type: 'model', response });
        break;
      }
      case 'tool': {
        const call = pending.get(message.tool_call_id);
        if (call) call.result = message.content;
        else history.push({ type: 'user', text: message.content });
        break;
      }
    }
  }
  return history;
}

function userText(content: ChatMessage & { role: 'user' } extends { content: infer C } ? C : never): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '[an image: the embedded engine reads no images]')).join('\n');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Renders the conversation with the generation prompt (a model turn to fill, or the one to continue after tool results). */
export function render(wrapper: ChatWrapperLike, messages: readonly ChatMessage[], functions: Record<string, FunctionDoc> | undefined, sameReply?: (a: string, b: string) => boolean): LlamaTextLike {
  const history = toHistory(messages, sameReply);
  const last = history.at(-1);
  if (last?.type !== 'model') history.push({ type: 'model', response: [] });
  return wrapper.generateContextState({ chatHistory: history, ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}) }).contextText;
}

/** True when `messages` are `memory.messages`, then the reply the engine gave, then more. */
export function extendsMemory(memory: LaneMemory, messages: readonly ChatMessage[], toolsKey: string): boolean {
  if (toolsKey !== memory.toolsKey || messages.length <= memory.messages.length + 1) return false;
  for (let i = 0; i < memory.messages.length; i++) if (JSON.stringify(messages[i]) !== JSON.stringify(memory.messages[i])) return false;
  // The reply as the agent loop records it: its text with its first call (the others follow, one per message).
  const reply = messages[memory.messages.length]!;
  if (reply.role !== 'assistant') return false;
  const first = reply.tool_calls?.[0]?.id;
  return first === memory.reply.callIds[0] && (reply.content ?? '').trim() === memory.reply.text.trim();
}

/**
 * The prompt tokens: the lane's cache plus the appended part when the conversation extends it
 * and the template renders the old prompt unchanged, else the whole rendering.
 */
export function promptTokens(api: NodeLlamaCpp, model: ModelLike, text: LlamaTextLike, messages: readonly ChatMessage[], memory: LaneMemory | undefined, toolsKey: string, endMarks: readonly string[]): Prompt {
  const full = text.toString();
  const opensThought = /<think>\s*$/.test(full);
  if (memory && extendsMemory(memory, messages, toolsKey) && full.startsWith(memory.promptText)) {
    // The reply ends where the template closes the model's turn (its end-of-turn token).
    let cut = -1;
    for (const mark of endMarks) {
      const at = full.indexOf(mark, memory.promptText.length);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) {
      const appended = sliceText(api, text, cut).tokenize(model.tokenizer, 'trimLeadingSpace');
      return { tokens: [...memory.tokens, ...appended], text: full, mode: 'extended', opensThought };
    }
  }
  return { tokens: text.tokenize(model.tokenizer), text: full, mode: 'rendered', opensThought };
}

/** The part of a LlamaText from character `offset` on, special-token text kept special. */
export function sliceText(api: NodeLlamaCpp, text: LlamaTextLike, offset: number): LlamaTextLike {
  const values: unknown[] = [];
  let position = 0;
  for (const value of text.values) {
    const string = String(value);
    const end = position + string.length;
    if (end > offset) {
      if (position >= offset) values.push(value);
      else if (typeof value === 'string') values.push(value.slice(offset - position));
      else if (value instanceof (api.SpecialTokensText as unknown as abstract new (...args: never[]) => unknown)) values.push(new api.SpecialTokensText(string.slice(offset - position)));
      else values.push(value);
    }
    position = end;
  }
  return api.LlamaText(values);
}
