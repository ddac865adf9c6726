import type { ToolEntry } from './tool-entry.js';

/**
 * Which payloads a compaction sheds first: the oldest, large before small. `entries` are the
 * candidates in conversation order (the caller leaves out the protected ones). "Large" is a
 * payload of at least `largeChars`; all large payloads (oldest first) go before any small one
 * (oldest first), so small results such as a failing test's last lines survive longer than a big
 * file dump of the same age.
 */
export function shedOrder<T extends ToolEntry>(entries: readonly T[], largeChars: number): T[] {
  const candidates = entries.filter((entry) => !entry.shed && entry.payload !== '');
  return [...candidates.filter((entry) => entry.payload.length >= largeChars), ...candidates.filter((entry) => entry.payload.length < largeChars)];
}
