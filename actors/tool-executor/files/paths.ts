import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// Path rules shared by every tool: arguments are relative to the project root or absolute, and
// "inside the project" is decided on real paths (after `..` and symlinks), so a symlinked folder
// that points elsewhere counts as outside.

/** Resolves a tool's path argument to an absolute, normalised path (`~` is the home folder). */
export function resolveToolPath(root: string, path: string): string {
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? resolve(path) : resolve(root, path);
}

/** How a path is shown to the model: relative when inside the root, else absolute. */
export function displayPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return absolute;
  return rel.split(sep).join('/');
}

/**
 * The real path of `absolute` even when it does not exist yet: the realpath of its nearest
 * existing ancestor joined with the rest.
 */
export function realPathOfNearest(absolute: string): string {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(realpathSync.native(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      rest.push(basename(current));
      current = parent;
    }
  }
}

/** True when `absolute` (resolved through symlinks) lies inside `root` (also resolved). */
export function isInsideProject(root: string, absolute: string): boolean {
  const realRoot = realPathOfNearest(resolve(root));
  const real = realPathOfNearest(resolve(absolute));
  const rel = relative(realRoot, real);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}
