import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

// Which files a command changed, from `git status` before and after it: a path counts as changed
// when its status line appears, disappears or differs, or when it was already dirty and its size
// or mtime moved. Outside a git repository (or when git is slow) there is no report.

const GIT_TIMEOUT_MS = 5_000;
/** A repository whose `git status` took longer than this is not asked again (huge trees). */
const SLOW_MS = 2_000;
const slowRoots = new Set<string>();
/** The repository top folder per project root (only found ones: `git init` may come later). */
const tops = new Map<string, string>();

export interface GitSnapshot {
  /** The repository's top folder (paths below are relative to it). */
  top: string;
  entries: Map<string, string>;
}

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? undefined : stdout),
    );
  });
}

export async function gitSnapshot(root: string): Promise<GitSnapshot | undefined> {
  if (slowRoots.has(root)) return undefined;
  const startedAt = Date.now();
  let top = tops.get(root);
  if (top === undefined) {
    top = (await git(root, ['rev-parse', '--show-toplevel']))?.trim();
    if (!top) return undefined;
    tops.set(root, top);
  }
  const status = await git(top, ['-c', 'core.quotepath=off', 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
  if (Date.now() - startedAt > SLOW_MS) slowRoots.add(root);
  if (status === undefined) return undefined;
  const entries = new Map<string, string>();
  const fields = status.split('\0').filter(Boolean);
  await Promise.all(
    fields.map(async (field) => {
      const code = field.slice(0, 2);
      const path = field.slice(3);
      const info = await stat(join(top, path)).catch(() => undefined);
      entries.set(path, `${code}:${info ? `${info.size}:${info.mtimeMs}` : 'gone'}`);
    }),
  );
  return { top, entries };
}

/** Absolute paths whose state differs between the two snapshots, sorted. */
export function changedFiles(before: GitSnapshot, after: GitSnapshot): string[] {
  const changed = new Set<string>();
  for (const [path, state] of after.entries) if (before.entries.get(path) !== state) changed.add(path);
  for (const path of before.entries.keys()) if (!after.entries.has(path)) changed.add(path);
  return [...changed].sort().map((path) => join(after.top, path));
}
