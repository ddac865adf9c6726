import type { ToolIndex } from '../calls/tool-index.js';

/**
 * One family of text tool calls, as one engine's parser knows it (SPEC §10): its name, the
 * openers that start its calls while streaming, how a complete call reads, and the format to ask
 * for when a call of it could not be used. The table is `table.ts`; each family's recorded real
 * examples are in `test/actors/model-io/dialects/examples.ts`.
 */
export interface Dialect {
  /** Short stable id, e.g. `hermes`, `mistral`; what `/tokens` shows. */
  name: string;
  /** For people: `Hermes/Qwen <tool_call>`. */
  label: string;
  /** Literal strings that start a call of this family. */
  openers: readonly string[];
  /**
   * True when the openers are markup that means "a call" (special tokens, dedicated tags): a
   * call that then cannot be read is reported to the model. False for text that is often prose or
   * code (`{`, `[`, a line starting with a name): those stay text when they are not a call.
   */
  marked: boolean;
  /** Only where a line starts (the Python line style). */
  lineStart?: boolean;
  /** Reads the call(s) at `start`, where `opener` matched. */
  scan(text: string, start: number, opener: string, context: ScanContext): Scan;
  /** One call written the way this family writes it, for the corrective note. */
  example(name: string, args: Record<string, unknown>): string;
}

export interface ScanContext {
  tools: ToolIndex;
  /** No more text will come: close what can be closed, never answer `incomplete`. */
  final: boolean;
  /** The channel being scanned. */
  channel: 'text' | 'reasoning';
  /** Where the reply's first character is in the text scanned (-1: it was settled earlier). */
  messageStart: number;
  /** Scans for a call of any family at `i` (for wrappers such as code fences around a call). */
  inner(text: string, i: number): Scan;
  /** True when `i` is inside code: a fenced block or `inline code` (markup there is text). */
  codeAt?(i: number): boolean;
}

/** A call read from text, before it gets an id. */
export interface TextCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The dialect it was written in. */
  dialect: string;
}

/** What a scan of the text so far yields, in order. */
export type TextItem =
  | { type: 'text'; text: string }
  /** Thoughts written with the content's markup (gpt-oss `analysis` channel): they go to reasoning. */
  | { type: 'reasoning'; text: string }
  | ({ type: 'call' } & TextCall)
  /**
   * Text that is a call's markup but could not be used: kept as text, and reported to the user
   * and to the model. `unknownTool` is set when the only fault is the tool's name.
   */
  | { type: 'malformed'; text: string; dialect: string; reason: string; unknownTool?: string };

export type Scan =
  | { state: 'items'; items: TextItem[]; end: number }
  /** More text may still complete it: hold it back. */
  | { state: 'incomplete' }
  /** Not a call of this family: the opener is ordinary text. */
  | { state: 'none' };

/** A scan that found one malformed call of `dialect` spanning `text.slice(start, end)`. */
export function malformed(text: string, start: number, end: number, dialect: string, reason: string, unknownTool?: string): Scan {
  return { state: 'items', items: [{ type: 'malformed', text: text.slice(start, end), dialect, reason, ...(unknownTool ? { unknownTool } : {}) }], end };
}

export function callItems(calls: readonly Omit<TextCall, 'dialect'>[], dialect: string, end: number): Scan {
  return { state: 'items', items: calls.map((call) => ({ type: 'call', name: call.name, arguments: call.arguments, dialect })), end };
}

export function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

export function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/** True when the text from `i` to its end is a proper prefix of `tag` (it may still become it). */
export function partialTag(text: string, i: number, tag: string): boolean {
  const rest = text.length - i;
  return rest > 0 && rest < tag.length && tag.startsWith(text.slice(i));
}

/**
 * After a call ends at `i`: consumes an optional closing tag (one of `closers`, spaces before it
 * allowed). While the text ends before one can be seen, answers `incomplete` (unless final).
 */
export function closeTag(text: string, i: number, closers: readonly string[], final: boolean): number | 'incomplete' {
  const j = skipSpace(text, i);
  for (const closer of closers) if (text.startsWith(closer, j)) return j + closer.length;
  if (!final && (j >= text.length || closers.some((closer) => partialTag(text, j, closer)))) return 'incomplete';
  return i;
}

/** The JSON text of `args`, compact, for examples. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}
