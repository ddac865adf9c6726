/**
 * A tool result's summary as the user sees it beside the call: its first line, without the words
 * that repeat the call itself. The model gets summaries that stand alone (`read README.md: all
 * 5 lines`); under `✓ read README.md` the user needs only `all 5 lines`.
 */
export function shownSummary(name: string, args: Record<string, unknown>, summary: string): string {
  const first = summary.split('\n')[0]!;
  const core = [args.path, args.pattern, args.command].find((value): value is string => typeof value === 'string' && value !== '')?.split('\n')[0];
  if (core === undefined) return first;
  // `read README.md: all 5 lines`, `glob "*.ts" in src: 3 paths`
  const colon = first.indexOf(': ');
  if (first.startsWith(`${name} `) && colon > 0 && first.slice(0, colon).includes(core)) return first.slice(colon + 2);
  // `read README.md was cancelled after 3 lines`, `README.md is empty (0 lines)`
  for (const prefix of [`${name} ${core} `, `${core} `]) if (first.startsWith(prefix) && first.length > prefix.length) return first.slice(prefix.length);
  return first;
}
