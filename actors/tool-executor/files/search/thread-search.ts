import { compileUserRegex, type UserRegex } from '../user-regex.js';

/**
 * What an indexer thread loads on its first `grepFiles` task (`workers/pool-entry.ts`): the file
 * search, and the pattern compiled once per thread for the batches of one call that follow.
 */
export { searchFileInThread } from './search-file.js';

let last: { pattern: string; ignoreCase: boolean; regex: UserRegex } | undefined;

export function regexFor(pattern: string, ignoreCase: boolean): UserRegex {
  if (last?.pattern !== pattern || last.ignoreCase !== ignoreCase) last = { pattern, ignoreCase, regex: compileUserRegex(pattern, ignoreCase) };
  return last.regex;
}
