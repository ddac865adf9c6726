import type { createHash as CreateHash } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

// Reika's state folder, `$XDG_STATE_HOME/reika` (default `~/.local/state/reika`): what reika keeps
// between sessions that is neither configuration nor a cache the user would clear by hand —
// checkpoints, MCP trust, the bootstrap cache. Per-project state lives under a folder of its own
// kind, keyed by the project root ({@link projectStateDir}).

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
 * caller decides whether symlinks are followed). Only the state folder itself is made (private,
 * {@link privateFolder}); the caller makes the rest.
 */
export function projectStateDir(kind: string, root: string, stateHome: string = stateFolder()): string {
  privateFolder(stateHome);
  return join(stateHome, kind, projectKey(root));
}

const privateFolders = new Set<string>();

/**
 * Makes `folder` readable by its owner alone (0700, whatever the umask): created so, or fixed
 * when an earlier reika (or the umask) left it open (SPEC §16: the state folder holds copies of
 * `.env` files). Once per folder and process; a folder that cannot be made is left to the caller.
 */
export function privateFolder(folder: string): void {
  if (privateFolders.has(folder)) return;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if ((statSync(folder).mode & 0o077) !== 0) chmodSync(folder, 0o700);
    privateFolders.add(folder);
  } catch {
    // Not writable here: whoever writes there reports it.
  }
}
