/**
 * Tab completion for `@path` from the file index, one path segment at a time like a shell:
 * `@sr` → `@src/`, then `@src/` lists what is inside. When no path starts with the text, paths
 * containing it anywhere are offered instead.
 */

export interface Completion {
  /** Replacement for the word (including the `@`), or undefined when nothing changes. */
  replacement?: string;
  /** Candidates to show when the choice is ambiguous. */
  candidates: string[];
}

const MAX_SHOWN = 8;

export function completePath(word: string, paths: readonly string[]): Completion {
  const prefix = word.startsWith('@') ? word.slice(1) : word;
  const next = new Set<string>();
  for (const path of paths) {
    if (!path.startsWith(prefix)) continue;
    const slash = path.indexOf('/', prefix.length);
    next.add(slash < 0 ? path : path.slice(0, slash + 1));
  }
  let options = [...next].sort();
  if (options.length === 0 && prefix !== '') {
    const needle = prefix.toLowerCase();
    options = paths.filter((p) => p.toLowerCase().includes(needle)).slice(0, 200).sort((a, b) => a.length - b.length || a.localeCompare(b));
  }
  if (options.length === 0) return { candidates: [] };
  if (options.length === 1) {
    const only = options[0]!;
    return { replacement: `@${only}${only.endsWith('/') ? '' : ' '}`, candidates: [] };
  }
  const common = commonPrefix(options);
  return {
    replacement: common.length > prefix.length ? `@${common}` : undefined,
    candidates: options.slice(0, MAX_SHOWN).concat(options.length > MAX_SHOWN ? [`… ${options.length - MAX_SHOWN} more`] : []),
  };
}

function commonPrefix(values: string[]): string {
  let prefix = values[0]!;
  for (const value of values) {
    let i = 0;
    while (i < prefix.length && i < value.length && prefix[i] === value[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}
