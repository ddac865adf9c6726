import type { RepoMap, RepoMapFile } from './protocol.js';

// The repo map's text: ranked files cut to the token budget, whole lines only. Kept apart from
// `repo-map.ts` so the main thread can render a map ranked in a worker without loading the
// language tables.

/** Names shown on one line at most; the rest are counted. */
export const MAX_SYMBOLS_PER_LINE = 30;

/** `path: name, name, …` (just the path when the file exports nothing). */
export function lineOf(file: RepoMapFile): string {
  if (file.symbols.length === 0) return file.path;
  const shown = file.symbols.slice(0, MAX_SYMBOLS_PER_LINE);
  const more = file.symbols.length - shown.length;
  return `${file.path}: ${shown.join(', ')}${more > 0 ? `, … (+${more})` : ''}`;
}

/** The last line when the budget cut files. */
export function omittedLine(omitted: number): string {
  return `… ${omitted} more file${omitted === 1 ? '' : 's'} not shown`;
}

/**
 * Whole lines in rank order while they fit in `budgetTokens` × 4 characters (newlines and the
 * closing "not shown" line included); stops at the first line that does not fit. The text never
 * exceeds the budget: a budget of 0 gives an empty map.
 */
export function renderRepoMap(files: RepoMapFile[], budgetTokens: number): RepoMap {
  const limit = Math.max(0, Math.floor(budgetTokens)) * 4;
  const reserve = omittedLine(files.length).length + 1;
  const lines: string[] = [];
  let used = 0;
  for (let index = 0; index < files.length; index++) {
    const line = lineOf(files[index]!);
    const cost = line.length + (lines.length > 0 ? 1 : 0);
    const room = index < files.length - 1 ? limit - reserve : limit;
    if (used + cost > room) break;
    lines.push(line);
    used += cost;
  }
  const omitted = files.length - lines.length;
  // The closing line always fits after a shown line (room was kept); alone, only if it fits.
  if (omitted > 0 && used + (lines.length > 0 ? 1 : 0) + omittedLine(omitted).length <= limit) lines.push(omittedLine(omitted));
  return { text: lines.join('\n'), files, omitted, budgetTokens };
}
