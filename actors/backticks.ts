// Code spans and fences hold any text when their backticks outnumber its longest run: fetch's
// Markdown (actors), the ACP output and the transcript export (cli) all ask.

/** The longest run of backticks in `text` (0 when it has none); one pass. */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
