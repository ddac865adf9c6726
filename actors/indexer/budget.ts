// The repo map's size in tokens (characters / 4). A pinned value (`REIKA_REPO_MAP_BUDGET`) wins;
// otherwise 5% of the model's context window, clamped to 3,200–12,000; 3,200 when the window is
// unknown.

export const MIN_REPO_MAP_TOKENS = 3_200;
export const MAX_REPO_MAP_TOKENS = 12_000;
export const REPO_MAP_WINDOW_SHARE = 0.05;

export function repoMapBudget(contextWindow?: number, pinned?: number): number {
  if (pinned !== undefined && Number.isFinite(pinned) && pinned >= 0) return Math.floor(pinned);
  if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) return MIN_REPO_MAP_TOKENS;
  const share = Math.floor(contextWindow * REPO_MAP_WINDOW_SHARE);
  return Math.min(MAX_REPO_MAP_TOKENS, Math.max(MIN_REPO_MAP_TOKENS, share));
}
