import type { ToolCall } from '../protocol.js';

/** How many identical calls in a row, within one response, count as a loop. */
export const LOOP_REPEAT_LIMIT = 3;

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A call's identity for loop detection: its name and its arguments with keys sorted, so
 * `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call. Ids and sources do not count.
 */
export function canonicalCall(call: Pick<ToolCall, 'name' | 'arguments'>): string {
  return `${call.name} ${canonicalJson(call.arguments)}`;
}

/** Notices for runs of at least `limit` identical consecutive calls. */
export function repeatedCallNotices(calls: readonly ToolCall[], limit = LOOP_REPEAT_LIMIT): string[] {
  const notices: string[] = [];
  let run = 1;
  for (let i = 1; i <= calls.length; i++) {
    const same = i < calls.length && canonicalCall(calls[i]!) === canonicalCall(calls[i - 1]!);
    if (same) {
      run++;
      continue;
    }
    if (run >= limit) {
      const key = canonicalCall(calls[i - 1]!);
      notices.push(`The model repeated the same call ${run} times in one response: ${key.length > 160 ? `${key.slice(0, 159)}…` : key}`);
    }
    run = 1;
  }
  return notices;
}
