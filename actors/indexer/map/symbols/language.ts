// The shape of one entry in the symbol table: a language (or family) named by its file
// extensions, with the regular expressions that find its definitions. No parser: each rule is a
// multi-line regular expression run over the whole file.

/** What a definition is. Only used for display in `--json` and in tests. */
export type SymbolKind =
  | 'function'
  | 'method'
  | 'class'
  | 'struct'
  | 'interface'
  | 'protocol'
  | 'trait'
  | 'enum'
  | 'type'
  | 'module'
  | 'variable'
  | 'constant'
  | 'macro';

/** One definition found in a file. */
export interface Definition {
  name: string;
  kind: SymbolKind;
  /**
   * Visible to other files: exported, public or `pub`, as the language says. Languages without the
   * notion (shell, Lua globals, Ruby, PHP types) mark every top-level definition exported.
   */
  exported: boolean;
}

/** A definition with its position, while a file is being read. */
export interface Found extends Definition {
  /** Character offset of the match, for source order. */
  at: number;
}

/** Named groups of one match (a missing group is `undefined`). */
export type Groups = Record<string, string | undefined>;

/** Facts about the file a rule may look at (e.g. C macros count as exported only in headers). */
export interface FileFacts {
  /** Lower-cased extension with its dot, e.g. `.h`. */
  extension: string;
}

export interface SymbolRule {
  /**
   * Run with the `g` and `m` flags added. The `name` group captures the defined name; or the
   * `list` group captures several, cut apart by `split`.
   */
  pattern: RegExp;
  /** A kind, or a map from the `kw` group's text (e.g. `struct` → `struct`) to a kind. */
  kind: SymbolKind | Readonly<Record<string, SymbolKind>>;
  /** Fixed, or decided per match and name (e.g. Go: a capitalised name). */
  exported: boolean | ((groups: Groups, file: FileFacts, name: string) => boolean);
  /** Cuts the `list` group into names. */
  split?: (list: string) => string[];
  /** Returns false to drop a match (e.g. a forward declaration). */
  accept?: (groups: Groups, file: FileFacts) => boolean;
  /** The name when the `name` group did not take part (e.g. `default` for `export default {…}`). */
  fallbackName?: string;
}

/** One table entry. Adding a language is adding one of these to `languages.ts`. */
export interface Language {
  name: string;
  /** Lower-cased, with the dot. */
  extensions: readonly string[];
  rules: readonly SymbolRule[];
  /**
   * Rewrites the text before the rules run (e.g. C drops its block comments, whose prose at the
   * start of a line can look like a declaration). `Found.at` offsets are then into the new text.
   */
  prepare?(text: string): string;
  /** Runs after the rules, in source order, e.g. Python's `__all__` decides what is exported. */
  finish?(found: Found[], text: string): Found[];
  /**
   * The modules the file imports, as specifiers `resolveImports` (`map/imports.ts`) matches
   * against the mapped files: `/`-separated, `./x` and `../x` relative to the file's folder, any
   * other from some root of the tree (`pkg/mod`, `@scope/pkg/mod`); `a|b` stands for the first of
   * `a`, `b` that names a file; a group `m\tx\ty` (a Python from-import: tab-separated names after
   * the module, a tab never being part of a specifier) stands for `m/x|m` then `m/y|m` (`m` ending
   * in `/`: `mx|m`). Found by regular expressions like the definitions.
   *
   * `at`: the offsets where the words of `importWords` stand as whole identifiers, in order
   * (extraction notes them while it hashes the file's identifiers, `identifierHashes`), so that
   * only those places are read; without it the whole text is searched. Either way the same list.
   */
  imports?(text: string, at?: readonly number[]): string[];
  /** The keywords an import statement starts with (at most three, of 4+ characters), for `imports`' `at`. */
  importWords?: readonly string[];
}

/** An identity function that checks the entry's type. */
export function defineLanguage(language: Language): Language {
  return language;
}

/** A `[A-Za-z_$]…` identifier, for use inside rule patterns. */
export const IDENT = String.raw`[A-Za-z_$][\w$]*`;

/** Splits a comma-separated list, trimming and dropping empty parts. */
export function commaParts(list: string): string[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
