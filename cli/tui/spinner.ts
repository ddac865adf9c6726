const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
export const SPINNER_INTERVAL_MS = 80;

/** The spinner's glyph at `now`: one frame per {@link SPINNER_INTERVAL_MS}. */
export function spinnerFrame(now: number): string {
  return FRAMES[Math.floor(now / SPINNER_INTERVAL_MS) % FRAMES.length]!;
}

/** `0.4s`, `12.0s`, `2m05s`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

export function spinnerLine(label: string, now: number, startedAt: number, hint = 'Esc to interrupt'): string {
  return `${spinnerFrame(now)} ${label} ${formatElapsed(now - startedAt)} · ${hint}`;
}

/** `12345` → `12,345`, without `toLocaleString` (its first call loads ICU data: ~10 ms on the UI thread). */
export function groupThousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `12345` → `12.3k` (one decimal, as a prefill counter reads steadily). */
function thousands(n: number): string {
  return n < 1000 ? String(Math.round(n)) : `${(n / 1000).toFixed(1)}k`;
}

/** The spinner's label while the engine reads the prompt: `reading prompt 12.3k/48.0k tokens · 41 s`. */
export function prefillLabel(progress: { processed: number; total: number; elapsedMs: number }): string {
  return `reading prompt ${thousands(progress.processed)}/${thousands(progress.total)} tokens · ${Math.round(progress.elapsedMs / 1000)} s`;
}
