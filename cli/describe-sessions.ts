import type { StoredSession } from '../actors/transcript/session-catalog.js';
import { formatTokens } from './tui/status-line.js';

// Stored sessions as the user reads them — `reika sessions`, the `--resume` picker and `/resume`
// share these lines: id, when it was last used, turns, tokens, the first prompt.

/** `2026-12-02 14:05`, local time. */
export function shortDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '?'.padEnd(16);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** One line: `abc123def0  2026-12-02 14:05   3 turns   12k tok  fix the failing test`. */
export function sessionLine(session: StoredSession, width = 100, withRoot = false): string {
  const { meta } = session;
  const tokens = meta.promptTokens + meta.completionTokens;
  const head = `${session.id}  ${shortDate(meta.updated)}  ${String(meta.turns).padStart(3)} turn${meta.turns === 1 ? ' ' : 's'}  ${formatTokens(tokens).padStart(5)} tok  `;
  const prompt = oneLine(meta.firstPrompt) || '(no prompt)';
  const tail = withRoot ? `${meta.root}  ${prompt}` : prompt;
  const room = Math.max(10, width - head.length);
  return head + (tail.length > room ? `${tail.slice(0, room - 1)}…` : tail);
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
