/* eslint-disable @typescript-eslint/no-explicit-any -- this file patches @huggingface/jinja's
   interpreter and runtime value classes, which its type declarations do not export. */
import type { ChatMessage, ToolSchema } from '../protocol.js';

/**
 * Renders a request through a model's own chat template (Jinja), as an engine would before the
 * model sees it: a check that what reika sends is accepted by the template (role order, ids,
 * content types). `@huggingface/jinja` is loaded on first use, so a session that never checks a
 * template never pays for it.
 */
export interface TemplateRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolSchema[];
  bosToken?: string;
  eosToken?: string;
  /**
   * The per-model message rewrite llama.cpp applies before rendering (common/chat.cpp): `gpt-oss`
   * moves reasoning to `thinking` and drops a call's content; `ministral-3` sends system and
   * assistant content as typed blocks, reasoning as a `thinking` block.
   */
  rewrite?: 'gpt-oss' | 'ministral-3';
  /** `add_generation_prompt` (default true); the template check compares prompts without it. */
  generationPrompt?: boolean;
  /** More template variables (llama.cpp's defaults for the preserve-reasoning flags, see template-check). */
  variables?: Record<string, unknown>;
}

type Jinja = typeof import('@huggingface/jinja');
let jinja: Promise<Jinja> | undefined;

function load(): Promise<Jinja> {
  jinja ??= import('@huggingface/jinja').then((module) => {
    addListMethods(module);
    undefinedKeysAreUndefined(module);
    integerKeys(module);
    dictMethodsFirst(module);
    return module;
  });
  return jinja;
}

/** Parsed templates by source: the template check renders the same one at every request. */
const parsed = new Map<string, InstanceType<Jinja['Template']>>();

/** Throws the template's own error (e.g. its `raise_exception` message) when it rejects the request. */
export async function renderChatTemplate(source: string, request: TemplateRequest): Promise<string> {
  const { Template } = await load();
  let template = parsed.get(source);
  if (!template) {
    template = new Template(source);
    if (parsed.size >= 8) parsed.delete(parsed.keys().next().value!);
    parsed.set(source, template);
  }
  return template.render({
    messages: engineMessages(request),
    tools: request.tools,
    add_generation_prompt: request.generationPrompt ?? true,
    bos_token: request.bosToken ?? '',
    eos_token: request.eosToken ?? '',
    ...request.variables,
  });
}

/**
 * The messages as the engines hand them to templates: a call's `arguments` JSON string becomes an
 * object (vLLM always; llama.cpp for templates that iterate them), plus the per-model rewrite.
 */
function engineMessages(request: TemplateRequest): unknown[] {
  return request.messages.map((message) => {
    const out: Record<string, any> = { ...message };
    if (message.role === 'assistant' && message.tool_calls) {
      out.tool_calls = message.tool_calls.map((call) => ({ ...call, function: { name: call.function.name, arguments: parsedArguments(call.function.arguments) } }));
    }
    if (request.rewrite === 'gpt-oss' && message.role === 'assistant') {
      if (out.reasoning_content !== undefined) out.thinking = out.reasoning_content;
      delete out.reasoning_content;
      if (out.tool_calls) delete out.content;
    }
    if (request.rewrite === 'ministral-3' && (message.role === 'system' || message.role === 'assistant')) {
      const blocks: unknown[] = [];
      if (typeof out.reasoning_content === 'string') blocks.push({ type: 'thinking', thinking: out.reasoning_content });
      if (typeof out.content === 'string') blocks.push({ type: 'text', text: out.content });
      out.content = blocks;
      delete out.reasoning_content;
    }
    return out;
  });
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * `list.append/pop/insert/extend`, which real templates use (Kimi-K2-Thinking queues call ids
 * with them) and `@huggingface/jinja` 0.5 lacks. Added to the library's list value by reaching its
 * classes through values it makes; `length` is then computed on each access, not cached.
 */
function addListMethods({ Environment }: Jinja): void {
  const env = new Environment();
  const list = env.set('list', []) as any;
  const fn = env.set('fn', () => null) as any;
  const none = env.set('none_', null) as any;
  const integer = env.set('int_', 0) as any;
  const ArrayValue = list.constructor;
  const FunctionValue = fn.constructor;
  const NullValue = none.constructor;
  const IntegerValue = integer.constructor;
  const proto = ArrayValue.prototype;
  const original = Object.getOwnPropertyDescriptor(proto, 'builtins');
  if (!original?.get || proto.__reikaListMethods) return;
  Object.defineProperty(proto, '__reikaListMethods', { value: true });
  Object.defineProperty(proto, 'builtins', {
    configurable: true,
    get(this: { value: unknown[]; _builtins?: unknown }) {
      this._builtins = undefined;
      const builtins: Map<string, unknown> = original.get!.call(this);
      const items = this.value;
      const index = (arg: any, fallback: number) => (arg instanceof IntegerValue ? (arg as any).value : fallback);
      builtins.set('append', new FunctionValue(([item]: unknown[]) => (items.push(item), new NullValue())));
      builtins.set('extend', new FunctionValue(([other]: any[]) => (items.push(...(other?.value ?? [])), new NullValue())));
      builtins.set('insert', new FunctionValue(([at, item]: unknown[]) => (items.splice(index(at, items.length), 0, item), new NullValue())));
      builtins.set(
        'pop',
        new FunctionValue(([at]: unknown[]) => {
          if (items.length === 0) throw new Error('pop from empty list');
          const i = index(at, -1);
          return items.splice(i < 0 ? items.length + i : i, 1)[0];
        }),
      );
      return builtins;
    },
  });
}

/**
 * `mapping[undefined]` is undefined in Python's Jinja (what vLLM and llama.cpp's minja run); the
 * library throws. Hermes 3's tool-schema macro relies on it (`basic_type_map[json_spec.type]` for
 * a schema without `type`).
 */
function undefinedKeysAreUndefined({ Interpreter, Environment }: Jinja): void {
  const proto = Interpreter.prototype as any;
  if (proto.__reikaUndefinedKeys) return;
  Object.defineProperty(proto, '__reikaUndefinedKeys', { value: true });
  const undefinedValue = new Environment().lookupVariable('no_such_variable');
  const original = proto.evaluateMemberExpression;
  proto.evaluateMemberExpression = function (this: unknown, ...args: unknown[]) {
    try {
      return original.apply(this, args);
    } catch (error) {
      if ((error as Error).message === 'Cannot access property with non-string: got UndefinedValue') return undefinedValue;
      throw error;
    }
  };
}

/** Marks an object value built from a dict literal with integer keys: which of its keys were integers. */
const INTEGER_KEYS = Symbol('reika.integerKeys');
/** A node holding a value already evaluated (lets a member access reuse its object). */
const EVALUATED = 'ReikaEvaluated';

/**
 * Dict literals with integer keys (`{0: 0, 512: 128}`), which Python's Jinja takes and Seed-OSS's
 * template uses for its thinking-budget table; the library only takes string keys. Keys are kept
 * as strings in the library's map, and the integer ones given back as integers where a template
 * sees them: `items()`, `keys()`, `dictsort` (so `budget <= k` compares numbers) and `d[512]`.
 */
function integerKeys({ Environment, Interpreter }: Jinja): void {
  const proto = Interpreter.prototype as any;
  if (proto.__reikaIntegerKeys) return;
  Object.defineProperty(proto, '__reikaIntegerKeys', { value: true });
  const env = new Environment();
  const ObjectValue = (env.set('object_', {}) as any).constructor;
  const IntegerValue = (env.set('int_', 1) as any).constructor;
  const StringValue = (env.set('string_', '') as any).constructor;
  const ArrayValue = (env.set('list_', []) as any).constructor;
  const FunctionValue = (env.set('fn_', () => null) as any).constructor;
  const undefinedValue = env.lookupVariable('no_such_variable');
  const keyValue = (object: any, key: string) => (object[INTEGER_KEYS]?.has(key) ? new IntegerValue(Number(key)) : new StringValue(key));

  const evaluate = proto.evaluate;
  proto.evaluate = function (this: unknown, statement: any, environment: unknown) {
    if (statement?.type === EVALUATED) return statement.value;
    if (statement?.type !== 'ObjectLiteral') return evaluate.call(this, statement, environment);
    const map = new Map<string, unknown>();
    const integers = new Set<string>();
    for (const [keyNode, valueNode] of statement.value) {
      const key = evaluate.call(this, keyNode, environment);
      if (key instanceof IntegerValue) integers.add(String(key.value));
      else if (!(key instanceof StringValue)) throw new Error(`Object keys must be strings or integers: got ${key.type}`);
      map.set(String(key.value), proto.evaluate.call(this, valueNode, environment));
    }
    const object = new ObjectValue(map);
    if (integers.size) object[INTEGER_KEYS] = integers;
    return object;
  };

  const objects = ObjectValue.prototype;
  const items = objects.items;
  const keys = objects.keys;
  objects.items = function (this: any) {
    if (!this[INTEGER_KEYS]) return items.call(this);
    return new ArrayValue([...this.value].map(([key, value]: [string, unknown]) => new ArrayValue([keyValue(this, key), value])));
  };
  objects.keys = function (this: any) {
    if (!this[INTEGER_KEYS]) return keys.call(this);
    return new ArrayValue([...this.value.keys()].map((key: string) => keyValue(this, key)));
  };
  const builtins = Object.getOwnPropertyDescriptor(objects, 'builtins')!;
  const patched = new WeakSet<object>();
  Object.defineProperty(objects, 'builtins', {
    configurable: true,
    get(this: any) {
      const map: Map<string, any> = builtins.get!.call(this);
      if (!this[INTEGER_KEYS] || patched.has(map)) return map;
      patched.add(map);
      // The library's dictsort checks the arguments and orders the pairs by their stored (string)
      // keys; the keys are given back as integers, and all-integer keys are ordered as numbers.
      const dictsort = map.get('dictsort');
      const allIntegers = this[INTEGER_KEYS].size === this.value.size;
      map.set(
        'dictsort',
        new FunctionValue((args: any[]) => {
          const pairs: any[][] = dictsort.value(args).value.map((pair: any) => [keyValue(this, pair.value[0].value), pair.value[1]]);
          const keywords: Map<string, any> = args.find((arg) => arg?.type === 'KeywordArgumentsValue')?.value ?? new Map();
          const positional = args.filter((arg) => arg?.type !== 'KeywordArgumentsValue');
          const by = (positional[1] ?? keywords.get('by'))?.value ?? 'key';
          const reverse = (positional[2] ?? keywords.get('reverse'))?.value === true;
          if (allIntegers && by === 'key') pairs.sort((a, b) => (a[0].value - b[0].value) * (reverse ? -1 : 1));
          return new ArrayValue(pairs.map((pair) => new ArrayValue(pair)));
        }),
      );
      return map;
    },
  });

  const member = proto.evaluateMemberExpression;
  proto.evaluateMemberExpression = function (this: unknown, expr: any, environment: unknown) {
    if (!expr.computed || expr.property?.type !== 'IntegerLiteral') return member.call(this, expr, environment);
    const object = proto.evaluate.call(this, expr.object, environment);
    if (object instanceof ObjectValue) return (object as any).value.get(String(expr.property.value)) ?? undefinedValue;
    return member.call(this, { ...expr, object: { type: EVALUATED, value: object } }, environment);
  };
}

/** The methods of a Python dict that a template calls by attribute (`d.items()`). */
const DICT_METHODS = new Set(['items', 'keys', 'values', 'get']);

/**
 * `d.items()` where the dict also has a key `items` (a tool parameter named `items`, as todo's):
 * Python's Jinja (and llama.cpp's minja) look an attribute up before a key, so `.items` is the
 * method; the library looks the key up first, and gpt-oss's template, which walks every tool's
 * `parameters.properties.items()`, failed on it ("Cannot call something that is not a
 * function"). A template that wants the key writes `d['items']`, which stays a key lookup.
 */
function dictMethodsFirst({ Environment, Interpreter }: Jinja): void {
  const proto = Interpreter.prototype as any;
  if (proto.__reikaDictMethods) return;
  Object.defineProperty(proto, '__reikaDictMethods', { value: true });
  const ObjectValue = (new Environment().set('object_', {}) as any).constructor;
  const member = proto.evaluateMemberExpression;
  proto.evaluateMemberExpression = function (this: unknown, expr: any, environment: unknown) {
    const name = !expr.computed && expr.property?.type === 'Identifier' ? expr.property.value : undefined;
    if (name === undefined || !DICT_METHODS.has(name)) return member.call(this, expr, environment);
    const object = proto.evaluate.call(this, expr.object, environment);
    const method = object instanceof ObjectValue ? (object as any).builtins.get(name) : undefined;
    if (method !== undefined) return method;
    return member.call(this, { ...expr, object: { type: 'ReikaEvaluated', value: object } }, environment);
  };
}
