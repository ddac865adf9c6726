import type { TurnResult } from '../actors/agent/events.js';
import { formatTokens } from './tui/status-line.js';

/** The figures a session ends with. */
export interface SummaryFigures {
  /** Messages the user sent (interactive); absent for one headless task. */
  turns?: number;
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  durationMs: number;
}

export function summaryFigures(result: TurnResult, durationMs: number): SummaryFigures {
  return { requests: result.requests, promptTokens: result.usage.promptTokens, cachedTokens: result.usage.cachedTokens, completionTokens: result.usage.completionTokens, durationMs };
}

/**
 * One line for stderr when a session ends:
 * `3 turns, 7 requests · 45k prompt tokens, 91% cached · 1.2k generated · 2m 14s` (fits 80 columns).
 */
export function sessionSummary(figures: SummaryFigures): string {
  const parts: string[] = [];
  const requests = plural(figures.requests, 'request');
  parts.push(figures.turns !== undefined ? `${plural(figures.turns, 'turn')}, ${requests}` : requests);
  if (figures.promptTokens > 0) {
    const hit = Math.round((figures.cachedTokens / figures.promptTokens) * 100);
    parts.push(`${formatTokens(figures.promptTokens)} prompt tokens, ${hit}% cached`);
    parts.push(`${formatTokens(figures.completionTokens)} generated`);
  } else parts.push('no token counts reported');
  parts.push(duration(figures.durationMs));
  return parts.join(' · ');
}

/** The exit line that names the stored session and how to go on with it (`reika --resume` works from any folder). */
export function resumeHint(id: string): string {
  return `session ${id} · go on with it: reika --resume ${id}`;
}

function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours}h ${minutes}m` : `${minutes}m ${seconds % 60}s`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
