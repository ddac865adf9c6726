import { createHash } from 'node:crypto';
import type { WireToolCall } from '../model-io/protocol.js';

// A call's huge string arguments replaced by their size and hash. A 2 MB `bash` command that
// failed with E2BIG would otherwise ride in every later request; the call stays in the history
// (the model sees what it sent and that it failed), its bulk does not.

/** A string argument longer than this is "huge" once its call failed. */
export const HUGE_ARGUMENT_CHARS = 8 * 1024;

/** What stands in for a huge argument: its size and the start of its SHA-256. */
export function argumentStandIn(value: string): string {
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 16);
  return `[${value.length.toLocaleString('en-US')} characters, sha256 ${hash}…; not kept in the context]`;
}

/**
 * `call` with every string argument longer than `limit` replaced by its stand-in, or undefined
 * when nothing was that long (or the arguments are not JSON).
 */
export function shrinkArguments(call: WireToolCall, limit = HUGE_ARGUMENT_CHARS): WireToolCall | undefined {
  if (call.function.arguments.length <= limit) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.function.arguments);
  } catch {
    return { ...call, function: { ...call.function, arguments: JSON.stringify({ arguments: argumentStandIn(call.function.arguments) }) } };
  }
  let changed = false;
  const arguments_ = JSON.stringify(parsed, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length <= limit) return value;
    changed = true;
    return argumentStandIn(value);
  });
  return changed ? { ...call, function: { ...call.function, arguments: arguments_ } } : undefined;
}
