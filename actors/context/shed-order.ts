import type { ToolEntry } from './tool-entry.js';

/**
 * Which payloads a compaction sheds first: the oldest, large before small, never the active
 * round. "Large" is a payload of at least `largeChars`; all large payloads (oldest first) go
 * before any small one (oldest first), so small results such as a failing test's last lines
 * survive longer than a big file dump of the same age.
 */
export function shedOrder(entries: readonly ToolEntry[], activeRound: number, largeChars: number): ToolEntry[] {
  const candidates = entries.filter((entry) => !entry.shed && entry.payload !== '' && entry.round < activeRound);
  const byAge = (a: ToolEntry, b: ToolEntry) => a.round - b.round || entries.indexOf(a) - entries.indexOf(b);
  const large = candidates.filter((entry) => entry.payload.length >= largeChars).sort(byAge);
  const small = candidates.filter((entry) => entry.payload.length < largeChars).sort(byAge);
  return [...large, ...small];
}
