import type { ToolIndex } from './tool-index.js';

/**
 * Python-style calls printed on a line of their own: `read(path="a.ts", limit=20)` or
 * `[read(path="a"), grep(pattern="x")]`. Keyword arguments with literal values only (strings,
 * numbers, True/False/None, lists, dicts), so prose such as `read(the file)` is never a call.
 */
export type PythonScan =
  | { state: 'calls'; calls: Array<{ name: string; arguments: Record<string, unknown> }>; end: number }
  | { state: 'incomplete' }
  | { state: 'none' };

/**
 * Control-flow signals of the reader, thrown and caught inside this file. Not `Error`s: capturing a
 * stack trace on every line of prose that is tried as a call was most of the scan's cost.
 */
class Incomplete {}
class NotACall {}

const IDENT = /[A-Za-z0-9_.]/;

class Reader {
  constructor(
    readonly text: string,
    public i: number,
  ) {}
  peek(): string {
    if (this.i >= this.text.length) throw new Incomplete();
    return this.text[this.i]!;
  }
  next(): string {
    const c = this.peek();
    this.i++;
    return c;
  }
  expect(c: string): void {
    if (this.next() !== c) throw new NotACall();
  }
  space(newlines = true): void {
    while (this.i < this.text.length && (this.text[this.i] === ' ' || this.text[this.i] === '\t' || (newlines && (this.text[this.i] === '\n' || this.text[this.i] === '\r')))) this.i++;
  }
  ident(): string {
    const start = this.i;
    while (IDENT.test(this.peek())) this.i++;
    return this.text.slice(start, this.i);
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', b: '\b', f: '\f' };

function stringLiteral(r: Reader): string {
  const quote = r.next();
  let triple = false;
  if (r.peek() === quote) {
    r.i++;
    if (r.i < r.text.length && r.text[r.i] !== quote) return ''; // an empty string
    r.peek();
    r.i++;
    triple = true;
  }
  let out = '';
  for (;;) {
    const c = r.next();
    if (c === '\\') {
      const e = r.next();
      if (e === 'u') {
        const hex = r.text.slice(r.i, r.i + 4);
        if (hex.length < 4) throw new Incomplete();
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new NotACall();
        out += String.fromCharCode(parseInt(hex, 16));
        r.i += 4;
      } else if (e === '\n') {
        // line continuation
      } else {
        out += ESCAPES[e] ?? `\\${e}`;
      }
    } else if (c === quote) {
      if (!triple) return out;
      if (r.peek() === quote) {
        r.i++;
        if (r.peek() === quote) {
          r.i++;
          return out;
        }
        out += quote;
      }
      out += quote;
    } else if (c === '\n' && !triple) {
      throw new NotACall();
    } else {
      out += c;
    }
  }
}

function value(r: Reader): unknown {
  r.space();
  const c = r.peek();
  if (c === '"' || c === "'") return stringLiteral(r);
  if (c === '[' || c === '(') {
    const close = c === '[' ? ']' : ')';
    r.i++;
    const items: unknown[] = [];
    for (;;) {
      r.space();
      if (r.peek() === close) {
        r.i++;
        return items;
      }
      items.push(value(r));
      r.space();
      const sep = r.next();
      if (sep === close) return items;
      if (sep !== ',') throw new NotACall();
    }
  }
  if (c === '{') {
    r.i++;
    const object: Record<string, unknown> = {};
    for (;;) {
      r.space();
      if (r.peek() === '}') {
        r.i++;
        return object;
      }
      const key = value(r);
      if (typeof key !== 'string' && typeof key !== 'number') throw new NotACall();
      r.space();
      r.expect(':');
      object[String(key)] = value(r);
      r.space();
      const sep = r.next();
      if (sep === '}') return object;
      if (sep !== ',') throw new NotACall();
    }
  }
  const start = r.i;
  while (/[A-Za-z0-9_.+\-]/.test(r.peek())) r.i++;
  const word = r.text.slice(start, r.i);
  if (word === 'True' || word === 'true') return true;
  if (word === 'False' || word === 'false') return false;
  if (word === 'None' || word === 'null') return null;
  if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(word)) return Number(word);
  throw new NotACall();
}

/** A known tool's name at the reader, or the unknown name when `unknown` collects them. */
function callName(r: Reader, tools: ToolIndex, unknown?: string[]): string {
  const start = r.i;
  let name: string;
  try {
    name = r.ident();
  } catch (error) {
    // The text ends inside the name: only worth waiting for if it can still become a tool name.
    const partial = r.text.slice(start, r.i);
    if (error instanceof Incomplete && (partial === '' || unknown || tools.isNamePrefix(partial) || tools.isNamePrefix(partial.replace(/^functions\./, '')))) throw error;
    throw new NotACall();
  }
  // `brave_search.call(query=…)` (Llama 3.1 built-in tools) and `functions.read(…)`.
  const bare = name.replace(/\.call$/, '').replace(/^functions\./, '');
  if (tools.names.has(bare)) return bare;
  if (unknown && /^[A-Za-z_][A-Za-z0-9_.]*$/.test(bare)) {
    unknown.push(bare);
    return bare;
  }
  throw new NotACall();
}

function call(r: Reader, tools: ToolIndex, unknown?: string[]): { name: string; arguments: Record<string, unknown> } {
  const name = callName(r, tools, unknown);
  r.space(false);
  r.expect('(');
  const args: Record<string, unknown> = {};
  for (;;) {
    r.space();
    if (r.peek() === ')') {
      r.i++;
      return { name, arguments: args };
    }
    const key = r.ident();
    if (!key || !/^[A-Za-z_]/.test(key)) throw new NotACall();
    r.space();
    r.expect('=');
    args[key] = value(r);
    r.space();
    const sep = r.next();
    if (sep === ')') return { name, arguments: args };
    if (sep !== ',') throw new NotACall();
  }
}

export interface PythonScanOptions {
  /** The calls must end their line (default true): `read(path="a") is the way` is prose. */
  lineEnd?: boolean;
  /** Calls one after another on their own lines (OLMo 3's `<function_calls>` body). */
  lines?: boolean;
  /** Collects names that are not offered tools instead of refusing them (behind a call marker). */
  unknown?: string[];
}

/** Tries to read a line of calls at `start` (the first non-blank character of a line). */
export function scanPythonCalls(text: string, start: number, tools: ToolIndex, final: boolean, options: PythonScanOptions = {}): PythonScan {
  const r = new Reader(text, start);
  try {
    const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
    if (r.peek() === '[') {
      r.i++;
      for (;;) {
        r.space();
        calls.push(call(r, tools, options.unknown));
        r.space();
        const sep = r.next();
        if (sep === ']') break;
        if (sep !== ',') throw new NotACall();
      }
    } else {
      calls.push(call(r, tools, options.unknown));
      while (options.lines) {
        const at = r.i;
        r.space();
        if (r.i >= text.length || !/[A-Za-z_]/.test(text[r.i]!)) {
          r.i = at;
          break;
        }
        calls.push(call(r, tools, options.unknown));
      }
    }
    if (options.lineEnd === false) return { state: 'calls', calls, end: r.i };
    r.space(false);
    if ((options.lineEnd ?? true) && r.i < text.length && text[r.i] !== '\n' && text[r.i] !== '\r') throw new NotACall();
    if ((options.lineEnd ?? true) && r.i >= text.length && !final) throw new Incomplete();
    return { state: 'calls', calls, end: r.i };
  } catch (error) {
    if (error instanceof Incomplete) return final ? { state: 'none' } : { state: 'incomplete' };
    // NotACall, or a pathological literal (nesting deep enough to overflow the stack): prose.
    return { state: 'none' };
  }
}

/**
 * A Python literal (strings in either quote, True/False/None, lists, dicts) at `start`: how models
 * write JSON with single quotes. `incomplete` when the text ends inside it.
 */
export function readPythonLiteral(text: string, start: number): { value: unknown; end: number } | 'incomplete' | undefined {
  const r = new Reader(text, start);
  try {
    const parsed = value(r);
    return { value: parsed, end: r.i };
  } catch (error) {
    return error instanceof Incomplete ? 'incomplete' : undefined;
  }
}
