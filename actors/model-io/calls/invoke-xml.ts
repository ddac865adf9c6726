import { malformed, type Scan, type ScanContext, type TextItem } from '../dialects/dialect.js';
import { coerceValue, type ToolIndex } from './tool-index.js';

/**
 * The `<invoke name="X"><parameter name="k">v</parameter></invoke>` call that several families
 * wrap in their own markers, each tag behind a family prefix: MiniMax-M2 (none), DeepSeek V3.2 /
 * V4 DSML (`｜DSML｜`), Step-3 (`steptml:`). Values are the text between the tags, exactly (the
 * engines keep a string's white space: edits match on it), typed by the tool's schema.
 */
export interface InvokeTags {
  /** `<NSinvoke …>` (sticky); group 1: its attributes. */
  invoke: RegExp;
  invokeEnd: RegExp;
  /** `<NSparameter …>` (sticky); group 1: its attributes. */
  param: RegExp;
  /** `</NSparameter>` (global: searched for). */
  paramEnd: RegExp;
}

/** Tags behind the prefix `ns` (a regular expression source, e.g. `steptml:`). */
export function invokeTags(ns: string): InvokeTags {
  return {
    invoke: new RegExp(`<${ns}invoke\\b([^<>]*)>`, 'y'),
    invokeEnd: new RegExp(`</${ns}invoke\\s*>`, 'y'),
    param: new RegExp(`<${ns}parameter\\b([^<>]*)>`, 'y'),
    paramEnd: new RegExp(`</${ns}parameter\\s*>`, 'g'),
  };
}

export type InvokeRead =
  | { state: 'call'; name: string; arguments: Record<string, unknown>; end: number }
  | { state: 'incomplete' }
  | { state: 'none' }
  | { state: 'malformed'; end: number; reason: string; unknownTool?: string };

/** An attribute's value (`name="x"` or `name='x'`). */
export function attribute(attributes: string, name: string): string | undefined {
  const found = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return found ? (found[1] ?? found[2]) : undefined;
}

function at(pattern: RegExp, text: string, i: number): RegExpExecArray | null {
  pattern.lastIndex = i;
  return pattern.exec(text);
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}

/** The text from `i` may still grow into a tag (it starts with `<`, holds no `>` yet, and is short). */
function tagArriving(text: string, i: number): boolean {
  return text[i] === '<' && text.length - i < 80 && !text.includes('>', i);
}

export interface InvokeOptions {
  tools: ToolIndex;
  final: boolean;
  /** True where a tag that ends the call (the family's block or call closer) stands at `j`. */
  stop(text: string, j: number): boolean;
}

/**
 * Reads one call at `i` (spaces before it allowed). A parameter or call whose closing tag is
 * missing ends at the next tag of the call or at a `stop`, as the engines read it; at the end of
 * the stream whatever was written is taken.
 */
export function readInvoke(text: string, i: number, tags: InvokeTags, options: InvokeOptions): InvokeRead {
  const { tools, final } = options;
  i = skipSpace(text, i);
  if (i >= text.length || (!final && tagArriving(text, i))) return final ? { state: 'none' } : { state: 'incomplete' };
  const header = at(tags.invoke, text, i);
  if (!header) return { state: 'none' };
  const name = attribute(header[1]!, 'name') ?? '';
  const args: Record<string, unknown> = {};
  let j = i + header[0].length;
  const done = (end: number): InvokeRead => {
    if (!name) return { state: 'malformed', end, reason: 'a call has no name' };
    if (!tools.names.has(name)) return { state: 'malformed', end, reason: `there is no tool named "${name}"`, unknownTool: name };
    return { state: 'call', name, arguments: args, end };
  };
  for (;;) {
    j = skipSpace(text, j);
    if (j >= text.length) return final ? done(j) : { state: 'incomplete' };
    const close = at(tags.invokeEnd, text, j);
    if (close) return done(j + close[0].length);
    if (options.stop(text, j) || at(tags.invoke, text, j)) return done(j); // `</invoke>` missing
    const param = at(tags.param, text, j);
    if (!param) {
      if (!final && tagArriving(text, j)) return { state: 'incomplete' };
      return final ? done(j) : { state: 'malformed', end: j, reason: `the call to ${name || 'a tool'} holds something that is not a parameter` };
    }
    const key = attribute(param[1]!, 'name');
    if (!key) return { state: 'malformed', end: j + param[0].length, reason: `a parameter of ${name} has no name` };
    const valueStart = j + param[0].length;
    const value = valueEnd(text, valueStart, tags, options);
    if (value === 'incomplete') return { state: 'incomplete' };
    const raw = text.slice(valueStart, value.end);
    const stringAttribute = attribute(param[1]!, 'string');
    args[key] = coerceValue(tools, name, key, raw, stringAttribute === 'false');
    j = value.next;
  }
}

/**
 * Where a value ends: at the first `</parameter>` followed by another tag of the call or its end
 * (a value may itself hold `</parameter>` text); without one, at the next tag of the call.
 */
function valueEnd(text: string, start: number, tags: InvokeTags, options: InvokeOptions): { end: number; next: number } | 'incomplete' {
  const follows = (k: number) => {
    const j = skipSpace(text, k);
    if (j >= text.length) return options.final ? true : 'incomplete';
    if (at(tags.param, text, j) || at(tags.invokeEnd, text, j) || at(tags.invoke, text, j) || options.stop(text, j)) return true;
    return !options.final && tagArriving(text, j) ? 'incomplete' : false;
  };
  tags.paramEnd.lastIndex = start;
  for (let found = tags.paramEnd.exec(text); found; found = tags.paramEnd.exec(text)) {
    const after = found.index + found[0].length;
    const verdict = follows(after);
    if (verdict === 'incomplete') return 'incomplete';
    if (verdict) return { end: found.index, next: after };
    tags.paramEnd.lastIndex = after;
  }
  // No closing tag fits: the value runs to the next tag of the call (or the end of the stream).
  if (!options.final) return 'incomplete';
  for (let k = text.indexOf('<', start); k !== -1; k = text.indexOf('<', k + 1)) {
    if (at(tags.invokeEnd, text, k) || at(tags.param, text, k) || at(tags.invoke, text, k) || options.stop(text, k)) return { end: k, next: k };
  }
  return { end: text.length, next: text.length };
}

/** After a call ends at `i`: past the block's closer (`closer`, sticky) when it stands there, spaces before it allowed. */
function closeBlock(text: string, i: number, closer: RegExp, final: boolean): number | 'incomplete' {
  const j = skipSpace(text, i);
  closer.lastIndex = j;
  const found = closer.exec(text);
  if (found) return j + found[0].length;
  if (!final && (j >= text.length || (text[j] === '<' && text.length - j < 40 && !text.includes('>', j)))) return 'incomplete';
  return i;
}

/**
 * Calls inside a block that opened at `start` (its opener ends at `i`): `invoke` calls one after
 * another up to the block's `closer` (sticky), which may be missing (the stream ended, prose
 * follows). `repair` adjusts a call's arguments as the family's engine parser does.
 */
export function invokeBlock(text: string, start: number, i: number, tags: InvokeTags, closer: RegExp, dialect: string, context: ScanContext, repair?: (name: string, args: Record<string, unknown>) => Record<string, unknown>): Scan {
  const items: TextItem[] = [];
  const stop = (t: string, j: number) => {
    closer.lastIndex = j;
    return closer.test(t);
  };
  for (;;) {
    const read = readInvoke(text, i, tags, { tools: context.tools, final: context.final, stop });
    if (read.state === 'incomplete') return read;
    if (read.state === 'malformed') {
      // The rest of the block goes with it (up to its closer, or the end of the stream).
      let end = -1;
      for (let k = text.indexOf('<', read.end); k !== -1 && end === -1; k = text.indexOf('<', k + 1)) {
        closer.lastIndex = k;
        const found = closer.exec(text);
        if (found) end = k + found[0].length;
      }
      if (end === -1 && !context.final) return { state: 'incomplete' };
      return malformed(text, start, end === -1 ? text.length : end, dialect, read.reason, read.unknownTool);
    }
    if (read.state === 'none') break;
    items.push({ type: 'call', name: read.name, arguments: repair ? repair(read.name, read.arguments) : read.arguments, dialect });
    i = read.end;
  }
  const end = closeBlock(text, i, closer, context.final);
  if (end === 'incomplete') return { state: 'incomplete' };
  if (items.length === 0) return malformed(text, start, end === i ? skipSpace(text, end) : end, dialect, 'no call followed');
  return { state: 'items', items, end };
}
