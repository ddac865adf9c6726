// Small helpers shared by the benches.

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function summarize(samples: number[]): { p50: number; p99: number; max: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN, mean };
}

export function fmt(value: number, digits = 1): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** Prints one figure beside its reference, as a ratio. */
export function row(label: string, value: string, reference: string, ratio: number | undefined, target?: string): void {
  const ratioText = ratio === undefined || !Number.isFinite(ratio) ? '' : `  ×${fmt(ratio, 2)}`;
  const targetText = target ? `  (target ${target})` : '';
  process.stdout.write(`${label.padEnd(46)} ${value.padStart(14)}   ref ${reference.padStart(14)}${ratioText}${targetText}\n`);
}
