/**
 * Resolves the repo map's import specifiers (`Language.imports`) to mapped files, without a
 * parser and without reading any config: a file is known by its path without the extension (a
 * folder's `index.*` or `__init__.py` by the folder), and also without its first `src`/`lib`
 * folder, the usual workspace layout (`packages/core/src/x.ts` is `@scope/core/x`).
 *
 * - `./x`, `../x` name exactly the file at that path from the importer's folder.
 * - Any other specifier names the files whose key ends with its segments (`@scope/` dropped):
 *   `scrapy/http` is `scrapy/http/__init__.py`, `@vue/shared` is `packages/shared/src/index.ts`.
 *   A single segment only names a folder (`react`, `json`, `os` never name `src/json.ts`), so
 *   the standard library and packages from a registry link nothing. Of several matches the
 *   shortest keys win, all of them: the edge is shared.
 * - `a|b`: the first alternative that names a file.
 */

/** Folder entry files: the folder's own module. */
const FOLDER_FILE = /^(?:index|__init__|mod)$/;
/** The extensions a specifier may spell out (TypeScript's ESM `./x.js` is handled by the language). */
const EXTENSION = /\.[A-Za-z0-9]+$/;

/** `.ts`/`.tsx`/`.mts`/`.cts` are one family, `.js`/`.jsx`/`.mjs`/`.cjs` another; else the extension. */
function familyOf(path: string): string {
  const extension = EXTENSION.exec(path)?.[0].toLowerCase() ?? '';
  return extension.replace(/^\.[cm]?([jt]s)x?$/, '.$1');
}

interface Keyed {
  file: number;
  segments: string[];
  /** The key names a folder (`index.*`, `__init__.py`, or the `src` folder's entry). */
  folder: boolean;
}

/** The keys a path is imported by (see the file comment). */
function keysOf(path: string): { key: string; folder: boolean }[] {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1).replace(EXTENSION, '');
  // Rust's `mod.rs` is its folder's module; a Python `mod.py` is just a module.
  const folder = FOLDER_FILE.test(base) && (base !== 'mod' || path.endsWith('.rs'));
  const key = folder ? path.slice(0, Math.max(slash, 0)) : `${path.slice(0, slash + 1)}${base}`;
  const keys = [{ key, folder }];
  const parts = key.split('/');
  const inner = parts.findIndex((part) => part === 'src' || part === 'lib');
  if (inner >= 0 && parts.length > 1) {
    const shorter = [...parts.slice(0, inner), ...parts.slice(inner + 1)].join('/');
    if (shorter !== '') keys.push({ key: shorter, folder: folder || inner === parts.length - 1 });
  }
  return keys;
}

/** `a/./b/../c` → `a/c`; undefined when it climbs above the root. */
function normalise(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** An index of the mapped files by their keys, built once per ranking. */
export class ModuleIndex {
  private readonly exact = new Map<string, number[]>();
  private readonly byLast = new Map<string, Keyed[]>();

  /** `paths` in the ranking's order: the resolved numbers index it. */
  constructor(private readonly paths: readonly string[]) {
    paths.forEach((path, file) => {
      const keys = keysOf(path);
      // Relative specifiers name the path itself: `./store` and also `./store/index`.
      const exact = keys[0]!.folder ? [keys[0]!.key, path.replace(EXTENSION, '')] : [keys[0]!.key];
      for (const key of exact) {
        const list = this.exact.get(key);
        if (list) list.push(file);
        else this.exact.set(key, [file]);
      }
      for (const { key, folder } of keys) {
        const segments = key.split('/');
        const last = segments[segments.length - 1]!;
        const list = this.byLast.get(last);
        const keyed = { file, segments, folder };
        if (list) list.push(keyed);
        else this.byLast.set(last, [keyed]);
      }
    });
  }

  /** The files `specifier` names from the file at `from` (none, one, or a shared few), ascending. */
  resolve(specifier: string, from: string): number[] {
    for (const alternative of specifier.split('|')) {
      const files = this.resolveOne(alternative, from);
      if (files.length > 0) return files;
    }
    return [];
  }

  private resolveOne(specifier: string, from: string): number[] {
    if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
      const path = normalise(`${from.slice(0, from.lastIndexOf('/') + 1)}${specifier}`);
      return path === undefined ? [] : (this.exact.get(path) ?? []);
    }
    const segments = specifier.split('/').filter((part) => part !== '');
    if (segments[0]?.startsWith('@') && segments.length > 1) segments.shift();
    if (segments.length === 0) return [];
    const candidates = this.byLast.get(segments[segments.length - 1]!);
    if (!candidates) return [];
    let best: number[] = [];
    let shortest = Infinity;
    for (const { file, segments: key, folder } of candidates) {
      if (key.length < segments.length || key.length > shortest) continue;
      if (segments.length === 1 && !folder) continue;
      let k = 1;
      while (k <= segments.length && key[key.length - k] === segments[segments.length - k]) k++;
      if (k <= segments.length) continue;
      if (key.length < shortest) {
        shortest = key.length;
        best = [];
      }
      if (!best.includes(file)) best.push(file);
    }
    if (best.length > 1) {
      // `vue` from a .ts file: `packages/vue/src/index.ts`, not the `index.js` beside it.
      const same = best.filter((file) => familyOf(this.paths[file]!) === familyOf(from));
      if (same.length > 0) best = same;
    }
    return best.sort((a, b) => a - b);
  }
}
