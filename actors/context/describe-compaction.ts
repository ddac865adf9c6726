import type { Compaction } from './compactor.js';

/**
 * What one compaction event did, in words shared by the terminal and headless progress:
 * `3 old outputs replaced by summaries, 12 old rounds folded into a recap`.
 */
export function describeCompaction(event: Pick<Compaction, 'shed' | 'folded'>): string {
  const parts: string[] = [];
  if (event.shed > 0) parts.push(`${event.shed} old output${event.shed === 1 ? '' : 's'} replaced by ${event.shed === 1 ? 'its summary' : 'summaries'}`);
  if (event.folded > 0) parts.push(`${event.folded} old round${event.folded === 1 ? '' : 's'} folded into a recap`);
  return parts.join(', ') || 'nothing changed';
}
