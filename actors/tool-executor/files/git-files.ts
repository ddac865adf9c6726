import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Which of some files the project's git repository can give back: tracked ones (checked out
 * again from a commit) and ignored ones (git holds no copy; a checkpoint keeps the small ones).
 * Outside a repository nothing is tracked or ignored. Synchronous: the danger check runs before
 * a prompt.
 */
export interface GitFileStates {
  tracked: Set<string>;
  ignored: Set<string>;
  /** For an ignored file inside a folder git ignores whole: that folder, project-relative with a trailing `/`. */
  ignoredFolders: Map<string, string>;
}

const TIMEOUT_MS = 5_000;

export function gitFileStates(root: string, paths: string[]): GitFileStates {
  const states: GitFileStates = { tracked: new Set(), ignored: new Set(), ignoredFolders: new Map() };
  if (paths.length === 0) return states;
  const listed = git(root, ['-c', 'core.quotepath=off', 'ls-files', '-z', '--', ...paths]);
  if (listed === undefined) return states;
  for (const path of listed.split('\0')) if (path) states.tracked.add(resolve(root, path));
  const rest = paths.filter((path) => !states.tracked.has(path));
  if (rest.length > 0) {
    for (const path of (git(root, ['check-ignore', '-z', '--stdin'], rest.join('\0')) ?? '').split('\0')) if (path) states.ignored.add(resolve(root, path));
  }
  if (states.ignored.size > 0) {
    // git names a folder it ignores whole instead of the files in it.
    const listed = git(root, ['-c', 'core.quotepath=off', 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--', ...states.ignored]) ?? '';
    for (const folder of listed.split('\0')) {
      if (!folder.endsWith('/')) continue;
      const absolute = resolve(root, folder);
      for (const path of states.ignored) if (path.startsWith(`${absolute}/`)) states.ignoredFolders.set(path, folder);
    }
  }
  return states;
}

/** stdout, also of a run that exits 1 (check-ignore: "none ignored"); undefined when git fails. */
function git(cwd: string, args: string[], input?: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', timeout: TIMEOUT_MS, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'], ...(input !== undefined ? { input } : {}) });
  } catch (error) {
    const failed = error as { status?: number; stdout?: string };
    return failed.status === 1 ? (failed.stdout ?? '') : undefined;
  }
}
