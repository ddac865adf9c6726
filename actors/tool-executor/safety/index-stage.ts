import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { errorClass } from '../../../runtime/errors.js';
import { forEachLimit } from './for-each-limit.js';
import { storeGit, type StorePaths } from './store-git.js';

// A snapshot through the store's own index: `git status` (its stat and untracked caches) over the
// whole tree or some paths, `update-index` for what it lists, `write-tree`. The way the first
// snapshot of a session is taken, and every one the watcher cannot vouch for; it reads and writes
// the whole index (3.7 MB in the 160k-file bench tree), so a warm snapshot avoids it
// (tree-patch.ts). The index may lag behind the last snapshot after such ones: a walk of the whole
// tree (no `paths`) sets it right — status then lists what differs from the index and what the
// index lacks of HEAD, and both go in.

export const STATUS = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'];
const TIMEOUT_MS = 60_000;

/** More files than this to hold: the folder cannot be checkpointed. */
export class TooManyFiles extends errorClass('REIKA_ERR_CHECKPOINT_TOO_MANY_FILES') {}

export interface Staged {
  tree: string;
  /** Files seen by this walk that are not held for their size. */
  skipped: string[];
}

/**
 * Stages the work tree (or only `paths`, when the index is known to match `headTree`) and returns
 * its tree. `headTree`: the last snapshot's tree, when HEAD is still it; an unchanged tree is then
 * returned without writing anything.
 */
export async function stageIndex(paths: StorePaths, options: { changed?: string[]; headTree?: string; maxFileBytes: number; maxFiles: number }): Promise<Staged> {
  const { changed } = options;
  const status = !changed
    ? await storeGit(paths, STATUS, { timeoutMs: TIMEOUT_MS })
    : changed.length > 0
      ? // Not written back: refreshing a few entries' stat data is not worth writing the whole index (update-index writes it).
        await storeGit(paths, [...STATUS, '--', ...changed], { timeoutMs: TIMEOUT_MS, env: { GIT_OPTIONAL_LOCKS: '0' } })
      : '';
  const update: string[] = [];
  const drop: string[] = [];
  const skipped: string[] = [];
  const candidates: string[] = [];
  const held = new Set<string>();
  // The index differs from HEAD (the last snapshot) after an update, or when it lags behind HEAD.
  let staged = false;
  for (const entry of status.split('\0')) {
    if (entry.length < 4) continue;
    const worktree = entry[1];
    const path = entry.slice(3);
    if (entry[0] !== ' ' && entry[0] !== '?') staged = true;
    // A folder is a repository of its own (its files belong to it).
    if (path.endsWith('/')) continue;
    if (entry[0] === '?') candidates.push(path);
    else if (worktree === 'M' || worktree === 'T') {
      candidates.push(path);
      held.add(path);
    } else if (worktree === 'D') drop.push(path);
  }
  if (candidates.length > options.maxFiles) throw new TooManyFiles(`more than ${options.maxFiles.toLocaleString('en-US')} files to hold: checkpoints are off in this folder`);
  await forEachLimit(candidates, 64, async (path) => {
    const info = await lstat(resolve(paths.root, path)).catch(() => undefined);
    if (info && info.isFile() && info.size > options.maxFileBytes) {
      skipped.push(path);
      if (held.has(path)) drop.push(path);
    } else update.push(path);
  });
  // Gone, or too big now; first, so a file may take a gone folder's place. Forced: --remove refuses a path now beyond a symbolic link.
  if (drop.length > 0) await storeGit(paths, ['update-index', '--force-remove', '-z', '--stdin'], { input: drop.join('\0') });
  if (update.length > 0) await storeGit(paths, ['update-index', '--add', '--remove', '-z', '--stdin'], { input: update.join('\0'), timeoutMs: TIMEOUT_MS });
  // Nothing changed since the last snapshot: it is this one too (one `git status` in all).
  const unchanged = update.length === 0 && drop.length === 0 && !staged && options.headTree !== undefined;
  const tree = unchanged ? options.headTree! : (await storeGit(paths, ['write-tree'])).trim();
  return { tree, skipped };
}
