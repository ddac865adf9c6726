// The repo map's size in tokens (characters / 4). A pinned value (`REIKA_REPO_MAP_BUDGET`) wins;
// otherwise 5% of the model's context window, clamped to 3,200–12,000 (1,600–12,000 for a window
// under 32k); 3,200 when the window is unknown.
//
// The smaller floor for small windows is measured (80 rounds of reads at 16k): a 3,200-token map
// left compaction events room to keep nothing but the active round verbatim, 8 events; at 1,600
// each event kept the newest round too, 7 events (6 with no map at all).

export const MIN_REPO_MAP_TOKENS = 3_200;
/** The floor for a window under {@link SMALL_WINDOW} tokens. */
export const SMALL_WINDOW_MIN_REPO_MAP_TOKENS = 1_600;
export const SMALL_WINDOW = 32_768;
export const MAX_REPO_MAP_TOKENS = 12_000;
export const REPO_MAP_WINDOW_SHARE = 0.05;

export function repoMapBudget(contextWindow?: number, pinned?: number): number {
  if (pinned !== undefined && Number.isFinite(pinned) && pinned >= 0) return Math.floor(pinned);
  if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) return MIN_REPO_MAP_TOKENS;
  const share = Math.floor(contextWindow * REPO_MAP_WINDOW_SHARE);
  return Math.min(MAX_REPO_MAP_TOKENS, Math.max(contextWindow < SMALL_WINDOW ? SMALL_WINDOW_MIN_REPO_MAP_TOKENS : MIN_REPO_MAP_TOKENS, share));
}
