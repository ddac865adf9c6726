import { scanJson } from '../calls/json-scan.js';
import { parseArguments } from '../calls/parse-arguments.js';
import { readPythonLiteral } from '../calls/python-call.js';
import type { ToolIndex } from '../calls/tool-index.js';

/**
 * JSON calls as models print them, in every family that uses JSON: one object or a list of them;
 * the name in `name`, `function` (a string or `{name, arguments}`), `tool_name` or `tool`; the
 * arguments in `arguments`, `parameters`, `args` or `input`, as an object or a JSON string; an
 * OpenAI `{"tool_calls": [...]}` printed as text. Read leniently: single quotes and Python
 * literals, and at the end of the stream a value missing its last closing brackets.
 */
export type JsonRead =
  | { state: 'value'; value: unknown; end: number }
  | { state: 'incomplete' }
  /** `end`: where the broken value's text ends (its closing bracket or the stop). */
  | { state: 'broken'; end: number; reason: string };

/** The closers a JSON value opened at `start` still needs (for a value cut off at the end). */
function missingClosers(text: string, start: number): string {
  const stack: string[] = [];
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') stack.pop();
  }
  return quote + stack.reverse().join('');
}

function parseLenient(source: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    const literal = readPythonLiteral(source, 0);
    if (literal && literal !== 'incomplete' && source.slice(literal.end).trim() === '') return { ok: true, value: literal.value };
    return { ok: false, reason: `its JSON is invalid: ${(error as Error).message.replace(/\s+/g, ' ')}` };
  }
}

/**
 * Reads the JSON value that starts at `start` (`{` or `[`). `stop` is a closing tag that, outside
 * a string, means the value ended early (unbalanced).
 */
export function readJson(text: string, start: number, final: boolean, stop?: string): JsonRead {
  const scan = scanJson(text, start, stop);
  if (scan.state === 'broken') return { state: 'broken', end: scan.at, reason: 'its JSON is unbalanced' };
  if (scan.state === 'incomplete') {
    if (!final) return { state: 'incomplete' };
    let body = text.slice(start);
    if (stop) {
      const at = body.indexOf(stop);
      if (at !== -1) body = body.slice(0, at);
    }
    const parsed = parseLenient(body.trimEnd() + missingClosers(body.trimEnd(), 0));
    return parsed.ok ? { state: 'value', value: parsed.value, end: start + body.length } : { state: 'broken', end: start + body.length, reason: 'its JSON never closed' };
  }
  const parsed = parseLenient(text.slice(start, scan.end));
  return parsed.ok ? { state: 'value', value: parsed.value, end: scan.end } : { state: 'broken', end: scan.end, reason: parsed.reason };
}

export type JsonCalls =
  | { ok: true; calls: Array<{ name: string; arguments: Record<string, unknown> }> }
  /** `named`: the value did name a tool (or looks like a call), so a failure is worth reporting. */
  | { ok: false; reason: string; named: boolean; unknownTool?: string };

const NAME_KEYS = ['name', 'tool_name', 'tool', 'function_name'] as const;
const ARG_KEYS = ['arguments', 'parameters', 'args', 'input', 'params'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a model's JSON, every field read is checked with typeof
function one(value: any, tools: ToolIndex): JsonCalls {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'it is not a JSON object', named: false };
  const fn = value.function && typeof value.function === 'object' && !Array.isArray(value.function) ? value.function : value;
  let name: unknown = typeof value.function === 'string' ? value.function : undefined;
  for (const key of NAME_KEYS) if (name === undefined && typeof fn[key] === 'string') name = fn[key];
  if (typeof name !== 'string' || !name) return { ok: false, reason: 'it has no "name"', named: false };
  const bare = name.replace(/^functions\./, '');
  let raw: unknown;
  for (const key of ARG_KEYS) if (raw === undefined) raw = fn[key] ?? value[key];
  if (!tools.names.has(bare)) {
    const looksLikeCall = raw !== undefined || Object.keys(value).length === 1;
    return { ok: false, reason: `there is no tool named "${bare}"`, named: looksLikeCall, ...(looksLikeCall ? { unknownTool: bare } : {}) };
  }
  const args = parseArguments(raw);
  if (!args.ok) return { ok: false, reason: `the arguments of ${bare} are ${args.error}`, named: true };
  return { ok: true, calls: [{ name: bare, arguments: args.value }] };
}

/** The calls in a parsed JSON value (one call, a list of calls, or `{"tool_calls": [...]}`). */
export function callsFromJson(value: unknown, tools: ToolIndex): JsonCalls {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' && Array.isArray((value as { tool_calls?: unknown }).tool_calls) ? (value as { tool_calls: unknown[] }).tool_calls : [value];
  if (list.length === 0) return { ok: false, reason: 'the list of calls is empty', named: false };
  const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
  for (const item of list) {
    const got = one(item, tools);
    if (!got.ok) return got;
    calls.push(...got.calls);
  }
  return { ok: true, calls };
}

const KEY_START = /^\{\s*(?:"|')(?:name|function|tool_name|tool|function_name|type|tool_calls)(?:"|')\s*:/;
const KEY_PARTIAL = /^\{\s*(?:(?:"|')[a-z_]*(?:(?:"|')\s*)?)?$/;
const NAME_VALUE = /^\{\s*(?:"|')(?:name|tool_name|tool|function_name)(?:"|')\s*:\s*(?:"|')([^"'\n]*)("|')?/;

/**
 * Whether the object at `start` can still be a call, from its first characters: `{"name": "read"`
 * can; `{ return 1; }` and `{"name": "my-package"` cannot. Lets `{` in prose and code stream on
 * at once instead of being held until it closes.
 */
export function jsonCallStart(text: string, start: number, tools: ToolIndex): 'yes' | 'no' | 'partial' {
  const head = text.slice(start, start + 200);
  const named = NAME_VALUE.exec(head);
  if (named) {
    const name = named[1]!.replace(/^functions\./, '');
    if (named[2]) return tools.names.has(name) ? 'yes' : 'no';
    return tools.isNamePrefix(name) || 'functions.'.startsWith(named[1]!) || named[1]!.startsWith('functions.') ? (head.length === text.length - start ? 'partial' : 'no') : 'no';
  }
  if (KEY_START.test(head)) return 'yes';
  if (head.length === text.length - start && (KEY_PARTIAL.test(head) || /^\{\s*(?:"|')(?:name|tool_name|tool|function_name)(?:"|')\s*:\s*(?:"|')?$/.test(head))) {
    const key = /[a-z_]+/.exec(head)?.[0] ?? '';
    if (['name', 'function', 'tool_name', 'tool', 'function_name', 'type', 'tool_calls'].some((k) => k.startsWith(key))) return 'partial';
  }
  return 'no';
}
