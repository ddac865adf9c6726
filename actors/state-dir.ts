import type { createHash as CreateHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Reika's state folder, `$XDG_STATE_HOME/reika` (default `~/.local/state/reika`): what reika keeps
 * between sessions that is neither configuration nor a cache the user would clear by hand —
 * checkpoints, MCP trust, the bootstrap cache. Per-project state lives under a folder of its own
 * kind, keyed by the project root ({@link projectStateDir}).
 */

/** `$XDG_STATE_HOME/reika`, default `~/.local/state/reika` (a relative XDG_STATE_HOME is ignored, as the spec says). */
export function stateFolder(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'reika');
}

/**
 * `node:crypto`'s createHash, loaded at the first key: the startup indexer thread needs a key only
 * to save the bootstrap cache, after the map is ranked, and loading node:crypto costs a thread
 * ~3 ms while it boots beside the model-io thread.
 */
let createHash: typeof CreateHash | undefined;

/** A short stable key for a project root (the first 16 hex digits of its sha256). */
export function projectKey(root: string): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(root).digest('hex').slice(0, 16);
}

/**
 * `<state>/<kind>/<key of root>`: the folder where state of one kind (`checkpoints`,
 * `bootstrap`, …) is kept for one project root. `root` should be absolute and resolved (the
 * caller decides whether symlinks are followed); nothing is created.
 */
export function projectStateDir(kind: string, root: string, stateHome: string = stateFolder()): string {
  return join(stateHome, kind, projectKey(root));
}
