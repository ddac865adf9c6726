import type { ToolSchema } from '../protocol.js';

/** The tools offered in one request, looked up by name; only these count as text-fallback calls. */
export interface ToolIndex {
  readonly names: ReadonlySet<string>;
  /** JSON-schema `properties` of each tool's parameters. */
  readonly properties: ReadonlyMap<string, Record<string, any>>;
  /** True when `prefix` could still grow into an offered tool name. */
  isNamePrefix(prefix: string): boolean;
}

export function toolIndex(tools: readonly ToolSchema[]): ToolIndex {
  const names = new Set<string>();
  const properties = new Map<string, Record<string, any>>();
  for (const tool of tools) {
    const name = tool?.function?.name;
    if (typeof name !== 'string' || !name) continue;
    names.add(name);
    const props = (tool.function.parameters as { properties?: unknown } | undefined)?.properties;
    properties.set(name, props && typeof props === 'object' ? (props as Record<string, any>) : {});
  }
  const list = [...names];
  return { names, properties, isNamePrefix: (prefix) => list.some((name) => name.startsWith(prefix)) };
}

/** Types a parameter value written as plain text (XML style) by the tool's schema. */
export function coerceParameter(index: ToolIndex, tool: string, key: string, raw: string): unknown {
  const schema = index.properties.get(tool)?.[key];
  const declared = schema?.type;
  const types: string[] = Array.isArray(declared) ? declared : typeof declared === 'string' ? [declared] : [];
  if (types.length === 0 || types.includes('string')) return raw;
  const text = raw.trim();
  if (types.includes('null') && (text === 'null' || text === 'None')) return null;
  if (types.includes('integer') || types.includes('number')) {
    const number = Number(text);
    if (text !== '' && Number.isFinite(number) && (types.includes('number') || Number.isInteger(number))) return number;
  }
  if (types.includes('boolean')) {
    if (/^(true|True)$/.test(text)) return true;
    if (/^(false|False)$/.test(text)) return false;
  }
  if (types.includes('object') || types.includes('array')) {
    // Some models escape the quotes of a JSON value inside markup (`[{\"id\": 1}]`).
    for (const candidate of text.includes('\\"') ? [text, text.replace(/\\"/g, '"')] : [text]) {
      try {
        const value = JSON.parse(candidate);
        if (types.includes(Array.isArray(value) ? 'array' : typeof value === 'object' && value ? 'object' : '-')) return value;
      } catch {
        // keep the text: the tool wrapper reports the type mismatch to the model
      }
    }
  }
  return raw;
}
