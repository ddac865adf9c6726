import { homedir } from 'node:os';
import { isAbsolute, relative, sep } from 'node:path';
import { compileGlob } from '../files/glob-match.js';

/**
 * The specifier of a path rule (`Read(…)`, `Edit(…)`, `Write(…)`…), gitignore-style:
 * - `//path` — from the file-system root (`//etc/**`);
 * - `~/path` — from the home folder (`~/.ssh/**`);
 * - `./path` or `/path` — from the project root (`./secrets/**`, `/dist`);
 * - `path` — from the project root too; without a `/` inside it matches a name at any depth
 *   (`*.env`, `node_modules`), as a `.gitignore` line does.
 * `*` stays within a folder, `**` crosses folders, `?`, `[a-z]` and `{a,b}` work as in globs. A
 * pattern that matches a folder matches everything inside it (`Read(./secrets)` covers
 * `secrets/key.pem`).
 */
export type PathPattern = (absolute: string) => boolean;

export function compilePathPattern(specifier: string, root: string, home = homedir()): PathPattern {
  let pattern = specifier.trim();
  let base: string;
  let anchored = true;
  if (pattern.startsWith('//')) {
    base = '/';
    pattern = pattern.slice(2);
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    base = home;
    pattern = pattern.slice(2);
  } else if (pattern.startsWith('./')) {
    base = root;
    pattern = pattern.slice(2);
  } else if (pattern.startsWith('/')) {
    base = root;
    pattern = pattern.slice(1);
  } else {
    base = root;
    anchored = pattern.replace(/\/+$/, '').includes('/');
  }
  // A trailing slash names a folder; its contents match as the folder's do.
  pattern = pattern.replace(/\/+$/, '');
  if (pattern === '' || pattern === '**') return (absolute) => inside(base, absolute) !== undefined;
  const test = compileGlob(pattern);
  const slashless = !pattern.includes('/');
  return (absolute) => {
    const rel = inside(base, absolute);
    if (rel === undefined || rel === '') return false;
    const parts = rel.split('/');
    if (slashless) {
      // One name: the first component when anchored, any component when not.
      return anchored ? test(parts[0]!) : parts.some((part) => test(part));
    }
    for (let n = parts.length; n >= 1; n--) if (test(parts.slice(0, n).join('/'))) return true;
    return false;
  };
}

/** `absolute` relative to `base` with `/` separators, or undefined when it lies outside. */
function inside(base: string, absolute: string): string | undefined {
  const rel = relative(base, absolute);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}
