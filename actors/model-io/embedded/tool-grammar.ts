import type { ToolSchema } from '../protocol.js';
import type { FunctionDoc } from './llama-api.js';

// Reika's tool schemas, twice: as the model reads them (the template's tool list, unchanged
// JSON Schema, so the rendered prompt never changes) and as llama.cpp samples their arguments
// (node-llama-cpp's GBNF JSON subset, where every listed property must be written: an optional
// property therefore becomes "its type or null", and the nulls are dropped after sampling).

type Schema = Record<string, unknown>;

/** The tool list for the template: names, descriptions and parameters exactly as reika wrote them. */
export function documentedFunctions(tools: readonly ToolSchema[]): Record<string, FunctionDoc> {
  const out: Record<string, FunctionDoc> = {};
  for (const tool of tools) out[tool.function.name] = { description: tool.function.description, params: tool.function.parameters };
  return out;
}

/** A JSON Schema → the grammar subset: keeps structure and value constraints, drops annotations it cannot enforce. */
export function grammarSchema(schema: unknown): Schema {
  if (!schema || typeof schema !== 'object') return { type: ['string', 'number', 'integer', 'boolean', 'null'] };
  const s = schema as Schema;
  if ('const' in s) return { const: s.const };
  if (Array.isArray(s.enum)) return { enum: s.enum };
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return { oneOf: alternatives.map(grammarSchema) };
  const type = s.type;
  if (Array.isArray(type)) {
    const kinds = type.filter((t): t is string => typeof t === 'string');
    const simple = kinds.filter((t) => t !== 'object' && t !== 'array');
    if (simple.length === kinds.length) return { type: simple };
    return { oneOf: kinds.map((t) => grammarSchema({ ...s, type: t })) };
  }
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const names = Object.keys(properties);
      if (names.length === 0) return { type: 'object', additionalProperties: true };
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const out: Record<string, Schema> = {};
      for (const name of names) {
        const inner = grammarSchema(properties[name]);
        out[name] = required.has(name) ? inner : { oneOf: [inner, { type: 'null' }] };
      }
      return { type: 'object', properties: out, additionalProperties: false };
    }
    case 'array': {
      const out: Schema = { type: 'array', items: grammarSchema(s.items) };
      if (typeof s.minItems === 'number') out.minItems = s.minItems;
      if (typeof s.maxItems === 'number') out.maxItems = s.maxItems;
      return out;
    }
    case 'string': {
      const out: Schema = { type: 'string' };
      if (typeof s.minLength === 'number') out.minLength = s.minLength;
      if (typeof s.maxLength === 'number') out.maxLength = s.maxLength;
      return out;
    }
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      return { type };
    default:
      return { type: ['string', 'number', 'integer', 'boolean', 'null'] };
  }
}

/**
 * A grammar schema that admits only `value` where it is given: a test script's way to make a
 * noise model write one exact call (script.ts). Properties it leaves out may only be null.
 */
export function pinnedSchema(schema: Schema, value: unknown): Schema {
  if (value === null || typeof value !== 'object') return { const: value as string | number | boolean | null };
  if (Array.isArray(value)) return { type: 'array', prefixItems: value.map((item) => pinnedSchema({}, item)), minItems: value.length, maxItems: value.length };
  const properties = ((schema.properties ?? {}) as Record<string, Schema>) ?? {};
  const out: Record<string, Schema> = {};
  const given = value as Record<string, unknown>;
  for (const name of new Set([...Object.keys(properties), ...Object.keys(given)])) {
    out[name] = name in given ? pinnedSchema(unwrapNullable(properties[name] ?? {}), given[name]) : { type: 'null' };
  }
  return { type: 'object', properties: out, additionalProperties: false };
}

function unwrapNullable(schema: Schema): Schema {
  const oneOf = schema.oneOf as Schema[] | undefined;
  if (Array.isArray(oneOf) && oneOf.length === 2 && oneOf[1]?.type === 'null') return oneOf[0]!;
  return schema;
}

/** Drops the nulls the grammar made the model write for optional properties it had nothing for. */
export function dropNulls(value: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  const s = (schema ?? {}) as Schema;
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null && !required.has(key)) continue;
    const inner = properties[key];
    out[key] = item && typeof item === 'object' && !Array.isArray(item) && inner?.type === 'object' ? dropNulls(item as Record<string, unknown>, inner) : item;
  }
  return out;
}

/** GBNF for exactly one of `names` (the function-name slot of a call). */
export function nameGrammar(names: readonly string[]): string {
  return `root ::= ${names.map((name) => gbnfLiteral(name)).join(' | ')}`;
}

/** GBNF for exactly `text`. */
export function literalGrammar(text: string): string {
  return `root ::= ${gbnfLiteral(text)}`;
}

function gbnfLiteral(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}
