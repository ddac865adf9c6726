/** Edit distance: insert, delete, substitute, or swap two neighbours (`mpa` → `map`), each cost 1. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidate to `input`, or undefined when nothing is plausibly meant (more than about
 * a third of the word would have to change). A candidate that starts with the input wins outright.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const word = input.toLowerCase();
  if (word === '') return undefined;
  const prefixed = candidates.filter((c) => c.startsWith(word));
  if (prefixed.length > 0) return [...prefixed].sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // A third of the word may change (one letter of a short one): /tokns → /tokens, but /init is not /exit.
  return best !== undefined && bestDistance <= Math.max(1, Math.round(word.length / 3)) ? best : undefined;
}
