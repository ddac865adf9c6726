import { join, relative, resolve, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { globalExcludesFile, type GitUserEnvironment } from './ignore-global.js';
import { compile, findGitDir, gitDirAt, matcherOf, readIgnoreFile, type Decision, type GitRepository } from './ignore-files.js';

export type { GitRepository } from './ignore-files.js';
export { rewriteGitQuirks } from './ignore-files.js';

/** Folders skipped everywhere, whatever the ignore files say (`.git` is skipped as a file too). */
export const ALWAYS_SKIPPED: readonly string[] = ['.git', 'node_modules', 'dist', 'build', 'target', 'coverage', 'out'];

const ALWAYS = new Set(ALWAYS_SKIPPED);

/**
 * One compiled ignore file on a folder's chain. A path relative to the scan root is turned into a
 * path relative to the file's folder by cutting `cut` characters (`'a/b/'` → 4) and putting
 * `prepend` in front (for files in folders above the scan root).
 */
interface ChainLevel {
  match: (path: string, base: string) => Decision;
  cut: number;
  prepend: string;
}

const EMPTY_CHAIN: readonly ChainLevel[] = [];

/** A repository's lowest levels, deepest first: `info/exclude`, then the user's excludes file. */
function repositoryLevels(commonDir: string, environment: GitUserEnvironment, cut: number, prepend: string): ChainLevel[] {
  const levels: ChainLevel[] = [];
  for (const file of [join(commonDir, 'info', 'exclude'), globalExcludesFile(commonDir, environment)]) {
    const text = readIgnoreFile(file, true);
    const rules = text === null ? null : compile(text);
    if (rules) levels.push({ match: matcherOf(rules), cut, prepend });
  }
  return levels;
}

/**
 * Git's ignore rules for one project root, exactly as `git ls-files --others --exclude-standard`
 * applies them: every folder's `.gitignore` scoped to that folder (deepest decides first, the last
 * matching line within a file wins, `!` re-includes), then `.git/info/exclude`, then the user's
 * `core.excludesFile` (`ignore-global.ts`); a path inside an excluded folder is excluded whatever
 * deeper rules say. The always-skipped folders are added.
 *
 * A nested repository (a folder with its own `.git`) starts afresh, as git inside it would: the
 * outer rules stop at its top and its own `info/exclude` applies. (Git run in the outer repository
 * lists such a folder as one entry; we index the files inside.)
 */
export class IgnoreRules {
  /** Compiled `.gitignore` per folder relative to root (`''` is root); null: none or not read. */
  private readonly folders = new Map<string, Ignore | null>();
  /** Per folder: null, or (a nested repository's top) that repository's own lowest levels. */
  private readonly nested = new Map<string, readonly ChainLevel[] | null>();
  /** Per folder: the compiled files that apply inside it, deepest first. */
  private readonly chains = new Map<string, readonly ChainLevel[]>();
  /** Decisions about folders already made, relative to root. */
  private readonly folderIgnored = new Map<string, boolean>();
  /**
   * Compiled files and their matchers by text: the `.gitignore` files of a monorepo's packages are
   * often copies of one another, and each copy would otherwise compile its rules and their
   * joined expressions afresh (a compiled file depends on nothing but its text).
   */
  private readonly byText = new Map<string, Ignore | null>();
  private readonly matchers = new Map<Ignore, ChainLevel['match']>();
  private discovering = true;

  private constructor(
    readonly root: string,
    /** The repository enclosing root, if any. */
    readonly repository: GitRepository | null,
    /** What applies at root below its own `.gitignore`: files above root, exclude files. */
    private readonly base: readonly ChainLevel[],
    private readonly environment: GitUserEnvironment,
  ) {}

  /**
   * Rules for a project root: finds the enclosing git repo (if any) for `.git/info/exclude` and the
   * `.gitignore` files of folders between the repo root and `root`; honours `.gitignore` files
   * outside git too. `environment` replaces HOME and XDG_CONFIG_HOME (tests).
   */
  static create(root: string, environment: GitUserEnvironment = {}): IgnoreRules {
    const absolute = resolve(root);
    const git = findGitDir(absolute);
    if (!git) return new IgnoreRules(absolute, null, EMPTY_CHAIN, environment);
    const prefix = relative(git.top, absolute).split(sep).join('/');
    const base: ChainLevel[] = [];
    if (prefix !== '') {
      const parts = prefix.split('/');
      for (let i = parts.length - 1; i >= 0; i--) {
        const text = readIgnoreFile(join(git.top, ...parts.slice(0, i), '.gitignore'));
        const rules = text === null ? null : compile(text);
        if (rules) base.push({ match: matcherOf(rules), cut: 0, prepend: `${parts.slice(i).join('/')}/` });
      }
    }
    base.push(...repositoryLevels(git.commonDir, environment, 0, prefix === '' ? '' : `${prefix}/`));
    return new IgnoreRules(absolute, { ...git, prefix }, base, environment);
  }

  /**
   * `rel` is `/`-separated, relative to root. Loads missing ancestors' `.gitignore` lazily (sync,
   * cached, each compiled ONCE, scoped to its folder). True also when an ancestor folder is ignored.
   */
  isIgnored(rel: string, isDirectory: boolean): boolean {
    if (rel === '' || rel === '.') return false;
    for (let slash = rel.indexOf('/'); slash !== -1; slash = rel.indexOf('/', slash + 1)) {
      if (this.isFolderIgnored(rel.slice(0, slash))) return true;
    }
    return isDirectory ? this.isFolderIgnored(rel) : this.decide(rel, false);
  }

  /**
   * The fastest form for a scanner listing one folder (known not ignored): a test for its entries,
   * with the folder's rules looked up once. `rel` is the entry's path, `name` its last part.
   */
  entryTest(relDir: string): (name: string, rel: string, isDirectory: boolean) => boolean {
    const chain = this.chainOf(relDir);
    return (name, rel, isDirectory) => this.decideIn(chain, name, rel, isDirectory);
  }

  /**
   * Tells the rules what a folder's listing showed — a `.gitignore`, a `.git` — so nothing is
   * looked for on disk. Call before testing the folder's entries. Ignored after discovery stopped.
   */
  noteFolder(relDir: string, hasIgnoreFile: boolean, hasGit = false): void {
    if (relDir !== '' && !this.nested.has(relDir)) {
      this.nested.set(relDir, hasGit && this.discovering ? this.nestedLevels(relDir) : null);
    }
    if (this.folders.has(relDir)) return;
    if (!hasIgnoreFile || !this.discovering) this.folders.set(relDir, null);
    else this.load(relDir);
  }

  /** After this, `.gitignore` files of folders not yet seen are not read (the 2,000-folder cap). */
  stopDiscovery(): void {
    this.discovering = false;
  }

  /** How many ignore files were compiled. */
  get loadedFiles(): number {
    let count = this.base.length;
    for (const rules of this.folders.values()) if (rules) count++;
    for (const levels of this.nested.values()) count += levels?.length ?? 0;
    return count;
  }

  private isFolderIgnored(rel: string): boolean {
    let known = this.folderIgnored.get(rel);
    if (known === undefined) {
      known = this.decide(rel, true);
      this.folderIgnored.set(rel, known);
    }
    return known;
  }

  private absolute(relDir: string): string {
    return relDir === '' ? this.root : join(this.root, ...relDir.split('/'));
  }

  private load(relDir: string): Ignore | null {
    let rules = this.folders.get(relDir);
    if (rules !== undefined) return rules;
    rules = null;
    if (this.discovering) {
      const text = readIgnoreFile(join(this.absolute(relDir), '.gitignore'));
      if (text !== null) {
        const known = this.byText.get(text);
        rules = known !== undefined ? known : compile(text);
        this.byText.set(text, rules);
      }
    }
    this.folders.set(relDir, rules);
    return rules;
  }

  /** Null unless `relDir` is the top of a nested repository: then its own lowest levels. */
  private nestedLevels(relDir: string): readonly ChainLevel[] | null {
    const git = gitDirAt(this.absolute(relDir));
    return git ? repositoryLevels(git.commonDir, this.environment, relDir.length + 1, '') : null;
  }

  private isNested(relDir: string): readonly ChainLevel[] | null {
    let levels = this.nested.get(relDir);
    if (levels === undefined) {
      levels = this.discovering ? this.nestedLevels(relDir) : null;
      this.nested.set(relDir, levels);
    }
    return levels;
  }

  /** The compiled files that apply inside a folder, deepest first; made once from its parent's. */
  private chainOf(folder: string): readonly ChainLevel[] {
    let chain = this.chains.get(folder);
    if (chain) return chain;
    const parent =
      folder === '' ? this.base : (this.isNested(folder) ?? this.chainOf(folder.slice(0, Math.max(0, folder.lastIndexOf('/')))));
    const own = this.load(folder);
    chain = own ? [{ match: this.matcherFor(own), cut: folder === '' ? 0 : folder.length + 1, prepend: '' }, ...parent] : parent;
    this.chains.set(folder, chain);
    return chain;
  }

  private matcherFor(rules: Ignore): ChainLevel['match'] {
    let match = this.matchers.get(rules);
    if (!match) {
      match = matcherOf(rules);
      this.matchers.set(rules, match);
    }
    return match;
  }

  /** Git's decision for the path itself, its ancestors assumed not ignored. */
  private decide(rel: string, isDirectory: boolean): boolean {
    const slash = rel.lastIndexOf('/');
    const chain = this.chainOf(slash < 0 ? '' : rel.slice(0, slash));
    return this.decideIn(chain, slash < 0 ? rel : rel.slice(slash + 1), rel, isDirectory);
  }

  private decideIn(chain: readonly ChainLevel[], name: string, rel: string, isDirectory: boolean): boolean {
    if (name === '.git' || (isDirectory && ALWAYS.has(name))) return true;
    const probe = isDirectory ? `${rel}/` : rel;
    const base = isDirectory ? `${name}/` : name;
    for (let i = 0; i < chain.length; i++) {
      const level = chain[i]!;
      const path = level.cut === 0 ? probe : probe.slice(level.cut);
      const decision = level.match(level.prepend === '' ? path : level.prepend + path, base);
      if (decision !== 0) return decision === 1;
    }
    return false;
  }
}
