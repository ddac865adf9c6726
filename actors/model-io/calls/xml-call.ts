import { coerceParameter, type ToolIndex } from './tool-index.js';

/**
 * The XML call style of Qwen3-Coder and others:
 *
 * ```
 * <function=edit>
 * <parameter=path>
 * src/a.ts
 * </parameter>
 * </function>
 * ```
 *
 * Values may span lines and contain markup; they are typed from the tool's schema. The body may
 * also be one JSON object (`<function=read>{"path": "a"}</function>`, the Llama 3.1 custom style).
 */
export type XmlScan =
  | { state: 'call'; name: string; arguments: Record<string, unknown>; end: number }
  | { state: 'incomplete' }
  | { state: 'malformed'; end: number; reason: string; unknownTool?: string }
  | { state: 'none' };

const OPEN = '<function=';
const CLOSE = '</function>';
const PARAM = '<parameter=';
const PARAM_CLOSE = '</parameter>';

/** One newline right after the opening tag and right before the closing tag belongs to the layout. */
function trimValue(value: string): string {
  return value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}

/**
 * Parses the parameters between `<function=…>` and a candidate `</function>`. `strict` requires
 * every parameter closed; the lenient pass lets a missing `</parameter>` end at the next tag.
 */
function parseBody(body: string, name: string, tools: ToolIndex, strict: boolean): Record<string, unknown> | undefined {
  const trimmed = body.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed);
      return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }
  const args: Record<string, unknown> = {};
  let i = 0;
  for (;;) {
    while (i < body.length && /\s/.test(body[i]!)) i++;
    if (i >= body.length) return args;
    if (!body.startsWith(PARAM, i)) return undefined;
    const keyEnd = body.indexOf('>', i);
    if (keyEnd === -1) return undefined;
    const key = body.slice(i + PARAM.length, keyEnd).trim();
    if (!key || key.includes('\n')) return undefined;
    const valueStart = keyEnd + 1;
    // A value ends at the first `</parameter>` followed by another parameter or the end: a value
    // may itself contain `</parameter>` text.
    let end = -1;
    let next = -1;
    for (let at = body.indexOf(PARAM_CLOSE, valueStart); at !== -1; at = body.indexOf(PARAM_CLOSE, at + 1)) {
      let j = at + PARAM_CLOSE.length;
      while (j < body.length && /\s/.test(body[j]!)) j++;
      if (j >= body.length || body.startsWith(PARAM, j)) {
        end = at;
        next = j;
        break;
      }
    }
    if (end === -1) {
      if (strict) return undefined;
      const following = body.indexOf(PARAM, valueStart);
      end = following === -1 ? body.length : following;
      next = end;
    }
    args[key] = coerceParameter(tools, name, key, trimValue(body.slice(valueStart, end)));
    i = next;
  }
}

/** Reads `<function=name>…</function>` at `start`. */
export function scanXmlCall(text: string, start: number, tools: ToolIndex, final: boolean): XmlScan {
  const nameStart = start + OPEN.length;
  const headerEnd = text.indexOf('>', nameStart);
  if (headerEnd === -1) {
    const partial = text.slice(nameStart);
    if (!final && partial.length < 128 && !partial.includes('\n')) return { state: 'incomplete' };
    return { state: 'none' };
  }
  const name = text.slice(nameStart, headerEnd).trim();
  if (!name || name.includes('\n') || name.includes('<')) return { state: 'none' };
  const bodyStart = headerEnd + 1;
  let firstClose = -1;
  for (let at = text.indexOf(CLOSE, bodyStart); at !== -1; at = text.indexOf(CLOSE, at + 1)) {
    if (firstClose === -1) firstClose = at;
    const args = parseBody(text.slice(bodyStart, at), name, tools, true);
    if (args) return finish(name, args, at + CLOSE.length, tools);
  }
  if (!final) return { state: 'incomplete' };
  // The stream ended: accept the first candidate leniently, else the call was never closed.
  if (firstClose !== -1) {
    const args = parseBody(text.slice(bodyStart, firstClose), name, tools, false);
    if (args) return finish(name, args, firstClose + CLOSE.length, tools);
    return { state: 'malformed', end: firstClose + CLOSE.length, reason: `the parameters of ${name} could not be read` };
  }
  const args = parseBody(text.slice(bodyStart), name, tools, false);
  if (args && Object.keys(args).length) return finish(name, args, text.length, tools);
  return { state: 'malformed', end: text.length, reason: `the call to ${name} was never closed` };
}

function finish(name: string, args: Record<string, unknown>, end: number, tools: ToolIndex): XmlScan {
  if (!tools.names.has(name)) return { state: 'malformed', end, reason: `there is no tool named "${name}"`, unknownTool: name };
  return { state: 'call', name, arguments: args, end };
}
