/**
 * Finds where a JSON value that starts at `{` or `[` ends, without parsing it, so a tag inside a
 * string (`"content": "</tool_call>"`) neither opens nor closes anything.
 */
export type JsonScan =
  /** `end` is the index just after the closing bracket. */
  | { state: 'complete'; end: number }
  /** The text ended first: wait for more. */
  | { state: 'incomplete' }
  /** `stop` appeared outside a string before the value closed (unbalanced JSON); `at` is its index. */
  | { state: 'broken'; at: number };

export function scanJson(text: string, start: number, stop?: string): JsonScan {
  let depth = 0;
  let inString = false;
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      if (depth === 0) return { state: 'complete', end: i + 1 };
      if (depth < 0) return { state: 'broken', at: i };
    } else if (c === 60 /* < */ && stop && text.startsWith(stop, i)) {
      return { state: 'broken', at: i };
    }
  }
  return { state: 'incomplete' };
}
