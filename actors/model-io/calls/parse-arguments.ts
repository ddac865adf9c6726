/**
 * Tool-call arguments as models write them: a JSON object, a JSON string that holds one (double
 * encoded), or nothing at all for tools without parameters.
 */
export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function parseArguments(raw: unknown): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw === 'object') return Array.isArray(raw) ? { ok: false, error: 'an array, not an object' } : { ok: true, value: raw as Record<string, unknown> };
  if (typeof raw !== 'string') return { ok: false, error: `a ${typeof raw}, not an object` };
  const text = raw.trim();
  if (text === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: (error as Error).message.replace(/\s+/g, ' ') };
  }
  // Some models encode the arguments twice: "{\"path\": \"a\"}" (strings shrink, so this ends).
  return parseArguments(value);
}
