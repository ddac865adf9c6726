import { parseArguments } from './parse-arguments.js';
import { scanJson } from './json-scan.js';
import { scanPythonCalls } from './python-call.js';
import type { ToolIndex } from './tool-index.js';
import { scanXmlCall } from './xml-call.js';

/**
 * Text-fallback tool calls: models that print their calls instead of using native `tool_calls`.
 * Recognised, best effort, and only for tools offered in the request:
 * - `<tool_call>{"name": …, "arguments": {…} | "…json…"}</tool_call>` (Hermes/Qwen; `parameters`
 *   works for `arguments`; a JSON array of calls too), several per message, prose around them;
 * - `<function=name><parameter=key>value</parameter></function>`, wrapped in `<tool_call>` or not;
 * - Python-style `name(k="v", n=3)` or `[a(…), b(…)]` on a line of their own.
 *
 * {@link scanTextCalls} is a pure function of the text so far: it returns what is settled and how
 * far, holding back anything that may still become a call (a partial tag, an unclosed block, a
 * line that starts like a call). Feeding text in any pieces therefore gives the same items as
 * parsing it whole, and the user never sees half a tag.
 */
export type TextItem =
  | { type: 'text'; text: string }
  | { type: 'call'; name: string; arguments: Record<string, unknown> }
  /** A malformed or unknown call: its text is kept as a `text` item next to this. */
  | { type: 'notice'; message: string };

const TOOL_OPEN = '<tool_call>';
const TOOL_CLOSE = '</tool_call>';
const FN_OPEN = '<function=';

type Block = { state: 'items'; items: TextItem[]; end: number } | { state: 'incomplete' } | { state: 'none' };

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/** True when the text from `i` to its end is a proper prefix of `tag` (it may still become it). */
function partialTag(text: string, i: number, tag: string): boolean {
  const rest = text.length - i;
  return rest > 0 && rest < tag.length && tag.startsWith(text.slice(i));
}

function malformed(text: string, reason: string): TextItem[] {
  return [
    { type: 'text', text },
    { type: 'notice', message: `A tool call written as text could not be used (${reason}); it was kept as text.` },
  ];
}

/** Validates one JSON call object `{name, arguments|parameters}`. */
function jsonCall(value: any, tools: ToolIndex): { type: 'call'; name: string; arguments: Record<string, unknown> } | string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'it is not a JSON object';
  const fn = value.function && typeof value.function === 'object' ? value.function : value;
  const name = typeof fn.name === 'string' ? fn.name : typeof value.function === 'string' ? value.function : undefined;
  if (!name) return 'it has no "name"';
  if (!tools.names.has(name)) return `there is no tool named "${name}"`;
  const args = parseArguments(fn.arguments ?? fn.parameters ?? value.arguments ?? value.parameters);
  if (!args.ok) return `the arguments of ${name} are ${args.error}`;
  return { type: 'call', name, arguments: args.value };
}

/** After a call's body ends at `i`: consume an optional `</tool_call>` (waiting while it may still come). */
function closeWrapper(text: string, i: number, final: boolean): number | 'incomplete' {
  const j = skipSpace(text, i);
  if (text.startsWith(TOOL_CLOSE, j)) return j + TOOL_CLOSE.length;
  if (!final && (j >= text.length || partialTag(text, j, TOOL_CLOSE))) return 'incomplete';
  return i; // the closing tag is missing: accept the call anyway
}

function wrappedBlock(text: string, start: number, tools: ToolIndex, final: boolean): Block {
  const j = skipSpace(text, start + TOOL_OPEN.length);
  if (j >= text.length) return final ? { state: 'items', items: malformed(text.slice(start), 'the call was empty'), end: text.length } : { state: 'incomplete' };
  const c = text[j];
  if (c === '{' || c === '[') {
    const scan = scanJson(text, j, TOOL_CLOSE);
    if (scan.state === 'incomplete') {
      return final ? { state: 'items', items: malformed(text.slice(start), 'its JSON never closed'), end: text.length } : { state: 'incomplete' };
    }
    if (scan.state === 'broken') {
      const end = text.startsWith(TOOL_CLOSE, scan.at) ? scan.at + TOOL_CLOSE.length : scan.at + 1;
      return { state: 'items', items: malformed(text.slice(start, end), 'its JSON is unbalanced'), end };
    }
    const end = closeWrapper(text, scan.end, final);
    if (end === 'incomplete') return { state: 'incomplete' };
    let value: unknown;
    try {
      value = JSON.parse(text.slice(j, scan.end));
    } catch (error) {
      return { state: 'items', items: malformed(text.slice(start, end), `its JSON is invalid: ${(error as Error).message}`), end };
    }
    const items: TextItem[] = [];
    for (const one of Array.isArray(value) ? value : [value]) {
      const call = jsonCall(one, tools);
      if (typeof call === 'string') return { state: 'items', items: malformed(text.slice(start, end), call), end };
      items.push(call);
    }
    return { state: 'items', items, end };
  }
  if (text.startsWith(FN_OPEN, j)) {
    const scan = scanXmlCall(text, j, tools, final);
    if (scan.state === 'incomplete') return scan;
    if (scan.state === 'none') return { state: 'none' };
    const end = closeWrapper(text, scan.end, final);
    if (end === 'incomplete') return { state: 'incomplete' };
    if (scan.state === 'malformed') return { state: 'items', items: malformed(text.slice(start, end), scan.reason), end };
    return { state: 'items', items: [{ type: 'call', name: scan.name, arguments: scan.arguments }], end };
  }
  if (!final && partialTag(text, j, FN_OPEN)) return { state: 'incomplete' };
  return { state: 'none' }; // `<tool_call>` mentioned in prose
}

function bareXmlBlock(text: string, start: number, tools: ToolIndex, final: boolean): Block {
  const scan = scanXmlCall(text, start, tools, final);
  if (scan.state === 'incomplete' || scan.state === 'none') return scan;
  if (scan.state === 'malformed') return { state: 'items', items: malformed(text.slice(start, scan.end), scan.reason), end: scan.end };
  return { state: 'items', items: [{ type: 'call', name: scan.name, arguments: scan.arguments }], end: scan.end };
}

export interface ScanResult {
  items: TextItem[];
  /** Characters settled; the rest must be scanned again with more text. */
  consumed: number;
}

/** Which formats to look for. */
export interface ScanOptions {
  /**
   * Python-style lines (default true). Off for the reasoning channel, where a line such as
   * `read(path="a.ts")` is usually a plan, not a call; tagged calls there are real leaks.
   */
  python?: boolean;
}

/**
 * Scans `text` for calls. `atLineStart` says whether `text` begins a line (Python-style calls
 * must stand on their own line); `final` says no more text will come.
 */
export function scanTextCalls(text: string, atLineStart: boolean, tools: ToolIndex, final: boolean, options: ScanOptions = {}): ScanResult {
  const python = options.python ?? true;
  if (tools.names.size === 0) return { items: text ? [{ type: 'text', text }] : [], consumed: text.length };
  const items: TextItem[] = [];
  let settled = 0; // text before this index is plain text not yet pushed
  let i = 0;
  const pushText = (to: number) => {
    if (to > settled) items.push({ type: 'text', text: text.slice(settled, to) });
  };
  while (i < text.length) {
    let block: Block = { state: 'none' };
    const c = text[i];
    if (python && (i === 0 ? atLineStart : text[i - 1] === '\n')) {
      let j = i;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
      if (j >= text.length) {
        if (!final) break;
      } else {
        const scan = scanPythonCalls(text, j, tools, final);
        if (scan.state === 'incomplete') break;
        if (scan.state === 'calls') block = { state: 'items', items: scan.calls.map((call) => ({ type: 'call', ...call })), end: scan.end };
      }
    }
    if (block.state === 'none' && c === '<') {
      if (text.startsWith(TOOL_OPEN, i)) block = wrappedBlock(text, i, tools, final);
      else if (text.startsWith(FN_OPEN, i)) block = bareXmlBlock(text, i, tools, final);
      else if (!final && (partialTag(text, i, TOOL_OPEN) || partialTag(text, i, FN_OPEN))) block = { state: 'incomplete' };
    }
    if (block.state === 'incomplete') break;
    if (block.state === 'items') {
      pushText(i);
      items.push(...block.items);
      settled = i = block.end;
      continue;
    }
    // Jump to the next place a call could start: a `<` or a line break (the next line's start).
    let next = i + 1;
    if (c !== '<' && c !== '\n') {
      const lt = text.indexOf('<', next);
      const nl = python ? text.indexOf('\n', next) : -1;
      next = Math.min(lt === -1 ? text.length : lt, nl === -1 ? text.length : nl);
    }
    i = next;
  }
  pushText(i);
  return { items, consumed: i };
}

/** Past this many held-back characters, rescans are rationed (see `push`). */
const LARGE_HOLD = 2048;
const CLOSERS = [TOOL_CLOSE, '</function>'];

/** The incremental driver: push text as it streams, `end()` when the stream is over. */
export class TextCallParser {
  private buffer = '';
  private atLineStart = true;
  /** Buffer length when it was last scanned and held back whole. */
  private heldAt = 0;

  constructor(
    private readonly tools: ToolIndex,
    private readonly options: ScanOptions = {},
  ) {}

  push(text: string): TextItem[] {
    this.buffer += text;
    // A large block still being written (a whole file as a call argument) would be rescanned on
    // every delta: quadratic. Rescan it only when a closing tag may have arrived or it grew by
    // half; `end()` always scans, so the items are the same, only possibly found a little later.
    if (this.heldAt > LARGE_HOLD && this.buffer.length < this.heldAt * 1.5) {
      const tail = this.buffer.slice(Math.max(0, this.buffer.length - text.length - 12));
      if (!CLOSERS.some((closer) => tail.includes(closer))) return [];
    }
    return this.run(false);
  }

  end(): TextItem[] {
    return this.run(true);
  }

  /** Text held back so far (a possible call still being written). */
  get pending(): string {
    return this.buffer;
  }

  private run(final: boolean): TextItem[] {
    if (this.buffer.length === 0) return [];
    const { items, consumed } = scanTextCalls(this.buffer, this.atLineStart, this.tools, final, this.options);
    if (consumed > 0) {
      this.atLineStart = this.buffer[consumed - 1] === '\n';
      this.buffer = this.buffer.slice(consumed);
    }
    this.heldAt = consumed === 0 ? this.buffer.length : 0;
    return items;
  }
}
