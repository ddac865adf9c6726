import type { ToolSchema } from '../protocol.js';

/** A property of a tool's JSON schema, as far as the text fallback reads it. */
export interface JsonSchemaProperty {
  readonly type?: unknown;
  readonly anyOf?: unknown;
  readonly oneOf?: unknown;
}

/** The tools offered in one request, looked up by name; only these count as text-fallback calls. */
export interface ToolIndex {
  readonly names: ReadonlySet<string>;
  /** JSON-schema `properties` of each tool's parameters. */
  readonly properties: ReadonlyMap<string, Record<string, JsonSchemaProperty | undefined>>;
  /** True when `prefix` could still grow into an offered tool name. */
  isNamePrefix(prefix: string): boolean;
}

export function toolIndex(tools: readonly ToolSchema[]): ToolIndex {
  const names = new Set<string>();
  const properties = new Map<string, Record<string, JsonSchemaProperty | undefined>>();
  for (const tool of tools) {
    const name = tool?.function?.name;
    if (typeof name !== 'string' || !name) continue;
    names.add(name);
    const props = (tool.function.parameters as { properties?: unknown } | undefined)?.properties;
    properties.set(name, props && typeof props === 'object' ? (props as Record<string, JsonSchemaProperty | undefined>) : {});
  }
  const list = [...names];
  return { names, properties, isNamePrefix: (prefix) => list.some((name) => name.startsWith(prefix)) };
}

/** The JSON types a property schema allows: its `type`, or the types of its `anyOf`/`oneOf` branches. */
export function schemaTypes(schema: JsonSchemaProperty | undefined): string[] {
  const declared = schema?.type;
  if (Array.isArray(declared)) return declared.filter((type): type is string => typeof type === 'string');
  if (typeof declared === 'string') return [declared];
  const branches: JsonSchemaProperty[] | undefined = Array.isArray(schema?.anyOf) ? schema.anyOf : Array.isArray(schema?.oneOf) ? schema.oneOf : undefined;
  return branches ? [...new Set<string>(branches.flatMap(schemaTypes))] : [];
}

/**
 * A value written as text whose parameter may have no schema: typed by the schema when there is
 * one, else read as JSON when the markup says it is not a string (DeepSeek's `string="false"`,
 * FunctionGemma's unquoted values), else kept as text.
 */
export function coerceValue(index: ToolIndex, tool: string, key: string, raw: string, json: boolean): unknown {
  if (schemaTypes(index.properties.get(tool)?.[key]).length > 0) return coerceParameter(index, tool, key, raw);
  if (!json) return raw;
  try {
    return JSON.parse(raw.trim());
  } catch {
    return raw;
  }
}

/**
 * Types a parameter value written as plain text (XML style) by the tool's schema: `42` for an
 * integer, `null` where null is allowed (`["string", "null"]` too, as the engines' parsers do),
 * JSON for objects and arrays. Text that does not fit stays text: the tool wrapper reports it.
 */
export function coerceParameter(index: ToolIndex, tool: string, key: string, raw: string): unknown {
  return coerceTyped(schemaTypes(index.properties.get(tool)?.[key]), raw);
}

/** {@link coerceParameter} for a value whose schema allows `types` (none: the text as it is). */
export function coerceTyped(types: readonly string[], raw: string): unknown {
  if (types.length === 0) return raw;
  const text = raw.trim();
  if (types.includes('null') && (text === 'null' || text === 'None')) return null;
  if (types.includes('string')) return raw;
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
