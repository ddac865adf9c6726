/**
 * Resolves the repo map's import specifiers (`Language.imports`) to mapped files, without a
 * parser and without reading any config: a file is known by its path without the extension (a
 * folder's `index.*` or `__init__.py` by the folder), and also without its first `src`/`lib`
 * folder, the usual workspace layout (`packages/core/src/x.ts` is `@scope/core/x`).
 *
 * - `./x`, `../x` name exactly the file at that path from the importer's folder; `/a/x` the file
 *   at `a/x` from the root (`fromRoot`: extraction turns relative specifiers into these, in the
 *   worker threads, so the ranking only looks them up).
 * - Any other specifier names the files whose key ends with its segments (`@scope/` dropped):
 *   `scrapy/http` is `scrapy/http/__init__.py`, `@vue/shared` is `packages/shared/src/index.ts`.
 *   A single segment only names a folder (`react`, `json`, `os` never name `src/json.ts`), so
 *   the standard library and packages from a registry link nothing. Of several matches the
 *   shortest keys win, all of them: the edge is shared.
 * - `a|b`: the first alternative that names a file.
 */

const NONE: readonly number[] = Object.freeze([]);

/** One importing file, with the memos its folder and language family share (`ModuleIndex.importer`). */
export interface Importer {
  path: string;
  relative: Map<string, readonly number[]>;
  bare: Map<string, readonly number[]>;
}

/** `.ts`/`.tsx`/`.mts`/`.cts` are one family, `.js`/`.jsx`/`.mjs`/`.cjs` another; else the extension. */
const FAMILY: Record<string, string> = { '.ts': '.ts', '.tsx': '.ts', '.mts': '.ts', '.cts': '.ts', '.js': '.js', '.jsx': '.js', '.mjs': '.js', '.cjs': '.js' };

function familyOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const extension = dot > path.lastIndexOf('/') ? path.slice(dot).toLowerCase() : '';
  return FAMILY[extension] ?? extension;
}

/** `packages/core/src/x` → `packages/core/x`: without the first `src` or `lib` folder ('' when there is none). */
function withoutSourceFolder(key: string): string {
  for (const name of ['src', 'lib']) {
    if (key.startsWith(`${name}/`)) return key.slice(name.length + 1);
  }
  let at = -1;
  for (const name of ['/src/', '/lib/']) {
    const found = key.indexOf(name);
    if (found !== -1 && (at === -1 || found < at)) at = found;
  }
  if (at !== -1) return key.slice(0, at) + key.slice(at + 4);
  return key.endsWith('/src') || key.endsWith('/lib') ? key.slice(0, -4) : '';
}

/** Segments in a `/`-separated key. */
function segmentsOf(key: string): number {
  let count = 1;
  for (let at = key.indexOf('/'); at !== -1; at = key.indexOf('/', at + 1)) count++;
  return count;
}

/**
 * `specifier` (`./x`, `../../x/y`, `./`) from the folder `folder` (`a/b/`, or '' at the root),
 * as a path without `.` or `..` segments; undefined when it climbs above the root. Walks the
 * string instead of splitting it: thousands of imports go through here.
 */
export function join(folder: string, specifier: string): string | undefined {
  let base = folder.endsWith('/') ? folder.slice(0, -1) : folder;
  let at = 0;
  while (at < specifier.length) {
    let end = specifier.indexOf('/', at);
    if (end === -1) end = specifier.length;
    const length = end - at;
    if (length === 2 && specifier.charCodeAt(at) === 46 && specifier.charCodeAt(at + 1) === 46) {
      if (base === '') return undefined;
      base = base.slice(0, Math.max(0, base.lastIndexOf('/')));
    } else if (length > 0 && !(length === 1 && specifier.charCodeAt(at) === 46)) {
      base = base === '' ? specifier.slice(at, end) : `${base}/${specifier.slice(at, end)}`;
    }
    at = end + 1;
  }
  return base;
}

/** An index of the mapped files by their keys, built once per ranking. */
export class ModuleIndex {
  private readonly exact = new Map<string, number[]>();
  /** Keys by their last segment, as rows of `keyText`/`keyFile`/`keyFolder`. */
  private readonly byLast = new Map<string, number[]>();
  private readonly keyText: string[] = [];
  private readonly keyFile: number[] = [];
  /** The key names a folder (`index.*`, `__init__.py`, `mod.rs`, or a `src` folder's entry). */
  private readonly keyFolder: boolean[] = [];

  /** `paths` in the ranking's order: the resolved numbers index it. */
  constructor(private readonly paths: readonly string[]) {
    paths.forEach((path, file) => {
      const slash = path.lastIndexOf('/');
      const dot = path.lastIndexOf('.');
      const stem = dot > slash + 1 ? path.slice(0, dot) : path;
      const base = stem.slice(slash + 1);
      // Rust's `mod.rs` is its folder's module; a Python `mod.py` is just a module.
      const folder = base === 'index' || base === '__init__' || (base === 'mod' && path.endsWith('.rs'));
      const key = folder ? path.slice(0, Math.max(slash, 0)) : stem;
      // Relative specifiers name the path itself: `./store` and also `./store/index`.
      this.addExact(key, file);
      if (folder) this.addExact(stem, file);
      this.addKey(key, file, folder);
      const shorter = withoutSourceFolder(key);
      if (shorter !== '') this.addKey(shorter, file, folder || key.endsWith('/src') || key.endsWith('/lib'));
    });
  }

  private addExact(key: string, file: number): void {
    const list = this.exact.get(key);
    if (list) list.push(file);
    else this.exact.set(key, [file]);
  }

  private addKey(key: string, file: number, folder: boolean): void {
    const row = this.keyText.length;
    this.keyText.push(key);
    this.keyFile.push(file);
    this.keyFolder.push(folder);
    const last = key.slice(key.lastIndexOf('/') + 1);
    const list = this.byLast.get(last);
    if (list) list.push(row);
    else this.byLast.set(last, [row]);
  }

  /** Resolved specifiers, by the importer's folder (relative ones) or language family (the rest). */
  private readonly memos = new Map<string, Map<string, readonly number[]>>();

  /** What resolving from the file at `path` needs, made once per file. */
  importer(path: string): Importer {
    const memo = (key: string) => {
      let map = this.memos.get(key);
      if (!map) this.memos.set(key, (map = new Map()));
      return map;
    };
    return { path, relative: memo(`/${path.slice(0, path.lastIndexOf('/') + 1)}`), bare: memo(familyOf(path)) };
  }

  /**
   * The files `specifier` names from `from` (a path or `importer(path)`): none, one, or a shared
   * few, ascending. The list is shared between calls: read it, do not change it.
   */
  resolve(specifier: string, from: string | Importer): readonly number[] {
    const importer = typeof from === 'string' ? this.importer(from) : from;
    if (!specifier.includes('|')) return this.cached(specifier, importer);
    for (const alternative of specifier.split('|')) {
      const files = this.cached(alternative, importer);
      if (files.length > 0) return files;
    }
    return NONE;
  }

  private cached(specifier: string, importer: Importer): readonly number[] {
    if (specifier.charCodeAt(0) === 47) return this.exact.get(specifier.slice(1)) ?? NONE; // `/a/x`
    const relative = specifier.charCodeAt(0) === 46; // `.`, `./x`, `../x`
    // Most misses (`from m import Name`, registry packages) end in a segment no file has.
    if (!relative && !this.byLast.has(specifier.slice(specifier.lastIndexOf('/') + 1))) return NONE;
    const memo = relative ? importer.relative : importer.bare;
    let files = memo.get(specifier);
    if (files === undefined) {
      files = this.resolveOne(specifier, importer.path);
      memo.set(specifier, files);
    }
    return files;
  }

  private resolveOne(specifier: string, from: string): readonly number[] {
    if (specifier.charCodeAt(0) === 46) {
      const path = join(from.slice(0, from.lastIndexOf('/') + 1), specifier);
      return path === undefined ? NONE : (this.exact.get(path) ?? NONE);
    }
    let name = specifier;
    // `@scope/pkg/x` is `pkg/x`; a trailing or doubled `/` says nothing.
    if (name.charCodeAt(0) === 64 && name.indexOf('/') !== -1) name = name.slice(name.indexOf('/') + 1);
    if (name.includes('//') || name.startsWith('/') || name.endsWith('/')) name = name.split('/').filter((part) => part !== '').join('/');
    if (name === '') return NONE;
    const rows = this.byLast.get(name.slice(name.lastIndexOf('/') + 1));
    if (!rows) return NONE;
    const single = name.indexOf('/') === -1;
    let best: number[] = [];
    let shortest = Infinity;
    for (const row of rows) {
      const key = this.keyText[row]!;
      if (single && !this.keyFolder[row]) continue;
      if (key !== name && !(key.endsWith(name) && key.charCodeAt(key.length - name.length - 1) === 47)) continue;
      const length = segmentsOf(key);
      if (length > shortest) continue;
      if (length < shortest) {
        shortest = length;
        best = [];
      }
      const file = this.keyFile[row]!;
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

/**
 * Per file, the files its imports name: file i's are rows `start[i]` to `start[i + 1]` of
 * `file`/`share`, each file once (in first-import order), never the file itself; `share` sums,
 * over its imports naming that file among n, 1/n. `files` in the ranking's order.
 */
export interface ImportEdges {
  start: Int32Array;
  file: Int32Array;
  share: Float64Array;
}

export function importEdges(files: readonly { path: string; imports?: string }[]): ImportEdges {
  const modules = new ModuleIndex(files.map((file) => file.path));
  const count = files.length;
  const start = new Int32Array(count + 1);
  const rowFile: number[] = [];
  const rowShare: number[] = [];
  const scratch = new Float64Array(count);
  const touched: number[] = [];
  for (let index = 0; index < count; index++) {
    const { path, imports } = files[index]!;
    touched.length = 0;
    if (imports) {
      const importer = modules.importer(path);
      for (const specifier of imports.split(' ')) {
        const named = modules.resolve(specifier, importer);
        for (const file of named) {
          if (file === index) continue;
          if (scratch[file] === 0) touched.push(file);
          scratch[file]! += 1 / named.length;
        }
      }
    }
    for (const file of touched) {
      rowFile.push(file);
      rowShare.push(scratch[file]!);
      scratch[file] = 0;
    }
    start[index + 1] = rowFile.length;
  }
  return { start, file: Int32Array.from(rowFile), share: Float64Array.from(rowShare) };
}

/**
 * `specifier` with its relative alternatives (`./x`, `../x`) made root-relative (`/a/x`) for the
 * file at `path`; an alternative above the root is dropped ('' when none is left).
 */
export function fromRoot(specifier: string, path: string): string {
  if (!specifier.includes('.')) return specifier;
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const alternatives: string[] = [];
  for (const alternative of specifier.split('|')) {
    if (alternative.charCodeAt(0) !== 46) alternatives.push(alternative);
    else {
      const joined = join(folder, alternative);
      if (joined !== undefined) alternatives.push(`/${joined}`);
    }
  }
  return alternatives.join('|');
}
