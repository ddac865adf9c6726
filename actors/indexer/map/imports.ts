// Resolves the repo map's import specifiers (`Language.imports`) to mapped files, without a
// parser and without reading any config: a file is known by its path without the extension (a
// folder's `index.*` or `__init__.py` by the folder), and also without its first `src`/`lib`
// folder, the usual workspace layout (`packages/core/src/x.ts` is `@scope/core/x`).
//
// - `./x`, `../x` name exactly the file at that path from the importer's folder; `/a/x` the file
//   at `a/x` from the root (`fromRoot`: extraction turns relative specifiers into these, in the
//   worker threads, so the ranking only looks them up).
// - Any other specifier names the files whose key ends with its segments (`@scope/` dropped):
//   `scrapy/http` is `scrapy/http/__init__.py`, `@vue/shared` is `packages/shared/src/index.ts`.
//   A single segment only names a folder (`react`, `json`, `os` never name `src/json.ts`), so
//   the standard library and packages from a registry link nothing. Of several matches the
//   shortest keys win, all of them: the edge is shared.
// - `a|b`: the first alternative that names a file.

const NONE: readonly number[] = Object.freeze([]);

/**
 * One importing file, with the memos its folder and language family share (`ModuleIndex.importer`),
 * each looked up the first time a specifier needs it: extraction makes relative specifiers
 * root-relative, so most importers never need either.
 */
export interface Importer {
  path: string;
  relative: Map<string, readonly number[]> | undefined;
  bare: Map<string, readonly number[]> | undefined;
  /** The last alternative `resolveIn` last resolved, and its files (a Python from-import's names all end in `|/module`). */
  lastAlternative: string;
  lastFiles: readonly number[];
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
  // Plain searches, no loops over name lists: this runs for every mapped file, cold, at startup.
  if (key.startsWith('src/') || key.startsWith('lib/')) return key.slice(4);
  const src = key.indexOf('/src/');
  const lib = key.indexOf('/lib/');
  const at = src === -1 ? lib : lib === -1 || src < lib ? src : lib;
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
  // The usual `./a/b` or `../../a/b`: climb, then append the rest whole (when none of its
  // segments is empty or starts with a dot, it appends segment by segment to the same string).
  let rest = specifier.startsWith('./') ? 2 : 0;
  let ups = 0;
  if (rest === 0) while (specifier.startsWith('../', rest)) (rest += 3), ups++;
  const first = specifier.charCodeAt(rest);
  if (rest > 0 && rest < specifier.length && first !== 46 && first !== 47 && !specifier.includes('/.', rest) && !specifier.includes('//', rest) && !specifier.endsWith('/')) {
    for (; ups > 0; ups--) {
      if (base === '') return undefined;
      base = base.slice(0, Math.max(0, base.lastIndexOf('/')));
    }
    const tail = specifier.slice(rest);
    return base === '' ? tail : `${base}/${tail}`;
  }
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

/** Whether a file with this stem (`a/index`, `a/__init__`, `a/mod` of `mod.rs`) stands for its folder. */
function isFolderModule(path: string, stem: string, slash: number): boolean {
  const length = stem.length - slash - 1;
  if (length === 5) return stem.startsWith('index', slash + 1);
  if (length === 8) return stem.startsWith('__init__', slash + 1);
  // Rust's `mod.rs` is its folder's module; a Python `mod.py` is just a module.
  return length === 3 && stem.startsWith('mod', slash + 1) && path.endsWith('.rs');
}

/**
 * An index of the mapped files by their keys, built once per ranking. Only the exact keys are
 * made at once (root-relative specifiers, the most common, need nothing else); the keys by last
 * segment that other specifiers need are made the first time one comes.
 */
export class ModuleIndex {
  /** Files by exact key: one file as a number (most keys), several as a list. */
  private readonly exact = new Map<string, number | number[]>();
  /** Per file, its key and whether it names a folder (`index.*`, `__init__.py`, `mod.rs`). */
  private readonly fileKey: string[];
  private readonly fileFolder: boolean[];
  /**
   * Files by the last segment of their keys (made on first use): each file's key, and its key
   * without the first `src`/`lib` folder (`withoutSourceFolder`), which has another last segment
   * only when that folder was the key's last one (`packages/shared/src` → `packages/shared`).
   */
  private byLastMap: Map<string, number[]> | undefined;

  /** `paths` in the ranking's order: the resolved numbers index it. */
  constructor(private readonly paths: readonly string[]) {
    const count = paths.length;
    this.fileKey = new Array<string>(count);
    this.fileFolder = new Array<boolean>(count);
    for (let file = 0; file < count; file++) {
      const path = paths[file]!;
      const slash = path.lastIndexOf('/');
      const dot = path.lastIndexOf('.');
      const stem = dot > slash + 1 ? path.slice(0, dot) : path;
      const folder = isFolderModule(path, stem, slash);
      const key = folder ? path.slice(0, Math.max(slash, 0)) : stem;
      this.fileKey[file] = key;
      this.fileFolder[file] = folder;
      // Relative specifiers name the path itself: `./store` and also `./store/index`.
      this.addExact(key, file);
      if (folder) this.addExact(stem, file);
    }
  }

  private addExact(key: string, file: number): void {
    const known = this.exact.get(key);
    if (known === undefined) this.exact.set(key, file);
    else if (typeof known === 'number') this.exact.set(key, [known, file]);
    else known.push(file);
  }

  /** The files of an exact key, as a list (kept, so the same list comes back next time). */
  private exactFiles(key: string): readonly number[] {
    const known = this.exact.get(key);
    if (known === undefined) return NONE;
    if (typeof known !== 'number') return known;
    const list = [known];
    this.exact.set(key, list);
    return list;
  }

  /** Files by the last segments of their keys (see `byLastMap`); a file is listed once per segment. */
  private get byLast(): Map<string, number[]> {
    if (this.byLastMap) return this.byLastMap;
    const byLast = (this.byLastMap = new Map());
    const add = (last: string, file: number) => {
      const list = byLast.get(last);
      if (list) list.push(file);
      else byLast.set(last, [file]);
    };
    for (let file = 0; file < this.paths.length; file++) {
      const key = this.fileKey[file]!;
      const last = key.slice(key.lastIndexOf('/') + 1);
      add(last, file);
      if (key.endsWith('/src') || key.endsWith('/lib')) {
        const shorter = withoutSourceFolder(key);
        const shorterLast = shorter.slice(shorter.lastIndexOf('/') + 1);
        if (shorter !== '' && shorterLast !== last) add(shorterLast, file);
      }
    }
    return byLast;
  }

  /** The folders exact keys lie in (`a/b` for `a/b/c`, '' for `c`), made when a root-relative group first needs them. */
  private foldersSet: Set<string> | undefined;

  private get folders(): Set<string> {
    if (this.foldersSet) return this.foldersSet;
    const folders = new Set<string>();
    for (let file = 0; file < this.paths.length; file++) {
      const key = this.fileKey[file]!;
      folders.add(key.slice(0, Math.max(0, key.lastIndexOf('/'))));
      // A folder's module is also known as `a/index`, `a/__init__`: a key in the folder `a`.
      if (this.fileFolder[file]) folders.add(key);
    }
    return (this.foldersSet = folders);
  }

  /**
   * Whether a name of the group whose module is `list.slice(start, tab)` may be a submodule: false
   * when the module is root-relative and no key lies in its folder (then every name is the module).
   */
  groupHasSubmodules(list: string, start: number, tab: number): boolean {
    if (list.charCodeAt(start) !== 47) return true;
    return this.folders.has(list.slice(start + 1, list.charCodeAt(tab - 1) === 47 ? tab - 1 : tab));
  }

  /** The files of an exact key (`/a/x` is the key `a/x`): shared, read only. */
  filesOfKey(key: string): readonly number[] {
    return this.exactFiles(key);
  }

  /**
   * The files of one name of a group (`Language.imports`: `m\tx\ty` stands for `m/x|m`, `m/y|m`):
   * `list.slice(start, tab)` is the group's module `m`, `list.slice(at, end)` the name `x`. Only
   * the first alternative, `m/x`, is resolved here (the caller falls back to `m`'s files, the same
   * for every name); for a bare `m` no string is made when no key ends in `x`. Ask
   * `groupHasSubmodules` first.
   */
  resolveGroupName(list: string, start: number, tab: number, at: number, end: number, importer: Importer): readonly number[] {
    const slash = list.charCodeAt(tab - 1) === 47;
    if (list.charCodeAt(start) === 47) {
      // Root-relative: `/m` (`/` alone is the root).
      const folder = list.slice(start + 1, slash ? tab - 1 : tab);
      return this.exactFiles(folder === '' ? list.slice(at, end) : `${folder}/${list.slice(at, end)}`);
    }
    const name = list.slice(at, end);
    // A bare module's submodule ends in the name, which then is some key's last segment.
    if (list.charCodeAt(start) !== 46 && !this.byLast.has(name)) return NONE;
    return this.cached(slash ? list.slice(start, tab) + name : `${list.slice(start, tab)}/${name}`, importer);
  }

  /** Resolved specifiers, by the importer's folder (relative ones) or language family (the rest). */
  private readonly memos = new Map<string, Map<string, readonly number[]>>();

  private memo(key: string): Map<string, readonly number[]> {
    let map = this.memos.get(key);
    if (!map) this.memos.set(key, (map = new Map()));
    return map;
  }

  /** What resolving from the file at `path` needs; its memos are looked up when first needed. */
  importer(path: string): Importer {
    return { path, relative: undefined, bare: undefined, lastAlternative: '', lastFiles: NONE };
  }

  /**
   * The files `specifier` names from `from` (a path or `importer(path)`): none, one, or a shared
   * few, ascending. The list is shared between calls: read it, do not change it.
   */
  resolve(specifier: string, from: string | Importer): readonly number[] {
    const importer = typeof from === 'string' ? this.importer(from) : from;
    let bar = specifier.indexOf('|');
    if (bar === -1) return this.cached(specifier, importer);
    // The alternatives, as `split('|')` gives them, without the array.
    for (let at = 0; ; at = bar + 1, bar = specifier.indexOf('|', at)) {
      const files = this.cached(bar === -1 ? specifier.slice(at) : specifier.slice(at, bar), importer);
      if (files.length > 0) return files;
      if (bar === -1) return NONE;
    }
  }

  /**
   * `resolve(list.slice(start, end), importer)`, read in place: no string for the specifier, none
   * for a root-relative alternative's key but the key itself, and an alternative equal to the
   * importer's last is not looked up again.
   */
  resolveIn(list: string, start: number, end: number, importer: Importer): readonly number[] {
    for (let at = start; ; ) {
      let bar = list.indexOf('|', at);
      if (bar === -1 || bar > end) bar = end;
      let files: readonly number[];
      const last = importer.lastAlternative;
      if (bar - at === last.length && last !== '' && list.startsWith(last, at)) files = importer.lastFiles;
      else {
        files = list.charCodeAt(at) === 47 ? this.exactFiles(list.slice(at + 1, bar)) : this.cached(list.slice(at, bar), importer);
        if (bar === end && at !== start) {
          importer.lastAlternative = list.slice(at, bar);
          importer.lastFiles = files;
        }
      }
      if (files.length > 0 || bar === end) return files;
      at = bar + 1;
    }
  }

  private cached(specifier: string, importer: Importer): readonly number[] {
    if (specifier.charCodeAt(0) === 47) return this.exactFiles(specifier.slice(1)); // `/a/x`
    const relative = specifier.charCodeAt(0) === 46; // `.`, `./x`, `../x`
    // Most misses (`from m import Name`, registry packages) end in a segment no file has.
    if (!relative && !this.byLast.has(specifier.slice(specifier.lastIndexOf('/') + 1))) return NONE;
    const path = importer.path;
    const memo = relative
      ? (importer.relative ??= this.memo(`/${path.slice(0, path.lastIndexOf('/') + 1)}`))
      : (importer.bare ??= this.memo(familyOf(path)));
    let files = memo.get(specifier);
    if (files === undefined) {
      files = this.resolveOne(specifier, path);
      memo.set(specifier, files);
    }
    return files;
  }

  private resolveOne(specifier: string, from: string): readonly number[] {
    if (specifier.charCodeAt(0) === 46) {
      const path = join(from.slice(0, from.lastIndexOf('/') + 1), specifier);
      return path === undefined ? NONE : this.exactFiles(path);
    }
    let name = specifier;
    // `@scope/pkg/x` is `pkg/x`; a trailing or doubled `/` says nothing.
    if (name.charCodeAt(0) === 64 && name.indexOf('/') !== -1) name = name.slice(name.indexOf('/') + 1);
    if (name.includes('//') || name.startsWith('/') || name.endsWith('/')) name = name.split('/').filter((part) => part !== '').join('/');
    if (name === '') return NONE;
    const files = this.byLast.get(name.slice(name.lastIndexOf('/') + 1));
    if (!files) return NONE;
    const single = name.indexOf('/') === -1;
    let best: number[] = [];
    let shortest = Infinity;
    // Each file's two keys: its own, and the one without the first `src`/`lib` folder (a folder's
    // entry when that folder ends the key). A key names `name` when it is `name` or ends in `/name`.
    const consider = (key: string, folder: boolean, file: number) => {
      if (single && !folder) return;
      if (key !== name && !(key.endsWith(name) && key.charCodeAt(key.length - name.length - 1) === 47)) return;
      const length = segmentsOf(key);
      if (length > shortest) return;
      if (length < shortest) {
        shortest = length;
        best = [];
      }
      if (!best.includes(file)) best.push(file);
    };
    for (const file of files) {
      const key = this.fileKey[file]!;
      const folder = this.fileFolder[file]!;
      consider(key, folder, file);
      const shorter = withoutSourceFolder(key);
      if (shorter !== '') consider(shorter, folder || key.endsWith('/src') || key.endsWith('/lib'), file);
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
      // The next tab (a group's: `Language.imports`) and bar (alternatives), looked for again only once passed.
      let tab = imports.indexOf('\t');
      let bar = imports.indexOf('|');
      // The space-separated specifiers, as `split(' ')` gives them, without the array.
      for (let at = 0; at <= imports.length; ) {
        let end = imports.indexOf(' ', at);
        if (end === -1) end = imports.length;
        if (tab !== -1 && tab < at) tab = imports.indexOf('\t', at);
        if (bar !== -1 && bar < at) bar = imports.indexOf('|', at);
        if (tab === -1 || tab > end) {
          // The usual specifier, `/a/x` (extraction roots relative ones), is one exact key.
          const named = (bar === -1 || bar > end) && imports.charCodeAt(at) === 47 ? modules.filesOfKey(imports.slice(at + 1, end)) : modules.resolveIn(imports, at, end, importer);
          addShares(named, index, scratch, touched);
        } else {
          // A group: each name as its own specifier `m/x|m`, in order.
          const submodules = modules.groupHasSubmodules(imports, at, tab);
          let module: readonly number[] | undefined;
          for (let name = tab + 1; name <= end; ) {
            let stop = imports.indexOf('\t', name);
            if (stop === -1 || stop > end) stop = end;
            let named = submodules ? modules.resolveGroupName(imports, at, tab, name, stop, importer) : NONE;
            if (named.length === 0) named = module ??= modules.resolveIn(imports, at, tab, importer);
            addShares(named, index, scratch, touched);
            name = stop + 1;
          }
        }
        at = end + 1;
      }
    }
    for (let k = 0; k < touched.length; k++) {
      const file = touched[k]!;
      rowFile.push(file);
      rowShare.push(scratch[file]!);
      scratch[file] = 0;
    }
    start[index + 1] = rowFile.length;
  }
  return { start, file: Int32Array.from(rowFile), share: Float64Array.from(rowShare) };
}

/** An import naming `named` (none, one, or a shared few): each file other than the importer gets its share. */
function addShares(named: readonly number[], importer: number, scratch: Float64Array, touched: number[]): void {
  for (let k = 0; k < named.length; k++) {
    const file = named[k]!;
    if (file === importer) continue;
    if (scratch[file] === 0) touched.push(file);
    scratch[file]! += 1 / named.length;
  }
}

/**
 * `specifier` with its relative alternatives (`./x`, `../x`) made root-relative (`/a/x`) for the
 * file at `path`; an alternative above the root is dropped ('' when none is left).
 */
export function fromRoot(specifier: string, path: string): string {
  return new Rooter(path).root(specifier);
}

/**
 * `fromRoot` for the specifiers of one file: its folder cut once, and the last relative
 * alternative remembered (a Python from-import's names all end in `|./module`).
 */
export class Rooter {
  private readonly folder: string;
  private lastAlternative = '';
  private lastRooted: string | undefined = '';

  constructor(path: string) {
    this.folder = path.slice(0, path.lastIndexOf('/') + 1);
  }

  root(specifier: string): string {
    if (!specifier.includes('.')) return specifier;
    const tab = specifier.indexOf('\t');
    if (tab !== -1) {
      // A group (`m\tx\ty`): its module rooted once; its names follow it (above the root, the whole group goes).
      const base = this.rootOne(specifier.slice(0, tab));
      return base === undefined ? '' : base + specifier.slice(tab);
    }
    let bar = specifier.indexOf('|');
    if (bar === -1) return this.rootOne(specifier) ?? '';
    // The alternatives, as `split('|')` and `join('|')` give them, without the arrays.
    let rooted = '';
    let kept = 0;
    for (let at = 0; ; at = bar + 1, bar = specifier.indexOf('|', at)) {
      const one = this.rootOne(bar === -1 ? specifier.slice(at) : specifier.slice(at, bar));
      if (one !== undefined) rooted = kept++ === 0 ? one : `${rooted}|${one}`;
      if (bar === -1) return rooted;
    }
  }

  /** One alternative, root-relative if it was relative; undefined above the root. */
  private rootOne(alternative: string): string | undefined {
    if (alternative.charCodeAt(0) !== 46) return alternative;
    if (alternative === this.lastAlternative) return this.lastRooted;
    const joined = join(this.folder, alternative);
    this.lastAlternative = alternative;
    this.lastRooted = joined === undefined ? undefined : `/${joined}`;
    return this.lastRooted;
  }
}
