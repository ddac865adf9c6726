import { formatMention, mentionBeforeCursor } from '../../actors/prompt/mentions.js';

// Tab completion for `@path` from the file index, one path segment at a time like a shell:
// `@sr` → `@src/`, then `@src/` lists what is inside. When no path starts with the text, paths
// containing it anywhere are offered instead. A path with a space or a quote is inserted quoted
// (`@"my notes/résumé.md"`), and a mention typed quoted (`@"my no`, `@'my no`) or with escapes
// (`@my\ no`) is completed the same way. Names are matched in NFC, so a name typed composed finds
// a file stored decomposed and the other way round.

export interface Completion {
  /** Replacement for the mention (including the `@`), or undefined when nothing changes. */
  replacement?: string;
  /** Candidates to show when the choice is ambiguous. */
  candidates: string[];
}

const MAX_SHOWN = 8;

/** The index's paths in NFC, per index (the same array until the index is rebuilt). */
const normalized = new WeakMap<readonly string[], readonly string[]>();

function inNfc(paths: readonly string[]): readonly string[] {
  let names = normalized.get(paths);
  if (!names) normalized.set(paths, (names = paths.map((path) => path.normalize('NFC'))));
  return names;
}

/** Completes `word`, the mention from its `@` to the cursor. */
export function completePath(word: string, paths: readonly string[]): Completion {
  const typed = mentionBeforeCursor(word, word.length);
  const prefix = (typed?.typed ?? word.replace(/^@/, '')).normalize('NFC');
  const quote = typed?.quote;
  // Normalised once per index, not at every Tab (~5 of a first Tab's ~12 ms over 10,000 paths).
  const names = inNfc(paths);
  const next = new Set<string>();
  for (const path of names) {
    if (!path.startsWith(prefix)) continue;
    const slash = path.indexOf('/', prefix.length);
    next.add(slash < 0 ? path : path.slice(0, slash + 1));
  }
  let options = [...next].sort();
  if (options.length === 0 && prefix !== '') {
    const needle = prefix.toLowerCase();
    options = names.filter((p) => p.toLowerCase().includes(needle)).slice(0, 200).sort((a, b) => a.length - b.length || a.localeCompare(b));
  }
  if (options.length === 0) return { candidates: [] };
  if (options.length === 1) {
    const only = options[0]!;
    const folder = only.endsWith('/');
    return { replacement: `${formatMention(only, { open: folder, ...(quote ? { quote } : {}) })}${folder ? '' : ' '}`, candidates: [] };
  }
  const common = commonPrefix(options);
  return {
    replacement: common.length > prefix.length ? formatMention(common, { open: true, ...(quote ? { quote } : {}) }) : undefined,
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
  // Never half a surrogate pair.
  const last = prefix.charCodeAt(prefix.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? prefix.slice(0, -1) : prefix;
}
