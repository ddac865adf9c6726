import { createHash } from 'node:crypto';

// MCP tool names and schemas as strict servers accept them. OpenAI-compatible servers take
// function names of letters, digits, `_` and `-`, at most 64 (the registry's NAME_PATTERN); MCP
// servers name tools freely (dots, slashes, long names). Each name becomes `mcp__<server>__<tool>`
// with other characters turned into `_`; one that is too long, or that collides with another
// after that, keeps a prefix and ends in a short hash of the original, so it is stable across
// sessions (the tools array must not change) and unique.

const MAX_NAME = 64;
const HASH_CHARS = 6;

export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const plain = `mcp__${safeToolPart(server)}__${safeToolPart(tool)}`;
  if (plain.length <= MAX_NAME && !taken.has(plain)) return plain;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, HASH_CHARS);
  return `${plain.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}

/** A server's or tool's name as it appears in tool names: other characters than letters, digits, `_` and `-` become `_`. */
export function safeToolPart(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * The server's input schema as a tools array may carry it: an object schema (some servers send
 * none, or `{}`), without the `$schema` key that strict validators reject at the top level.
 */
export function toolParameters(inputSchema: unknown): Record<string, unknown> {
  const schema = inputSchema !== null && typeof inputSchema === 'object' && !Array.isArray(inputSchema) ? { ...(inputSchema as Record<string, unknown>) } : {};
  delete schema.$schema;
  if (schema.type !== 'object') schema.type = 'object';
  if (schema.properties === null || typeof schema.properties !== 'object') schema.properties = {};
  return schema;
}
