import { closeSync, constants, openSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { globalExcludesFile, type GitUserEnvironment } from './ignore-global.js';

/** Folders skipped everywhere, whatever the ignore files say (`.git` is skipped as a file too). */
export const ALWAYS_SKIPPED: readonly string[] = ['.git', 'node_modules', 'dist', 'build', 'target', 'coverage', 'out'];

const ALWAYS = new Set(ALWAYS_SKIPPED);

interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

/** One compiled `.gitignore` on a folder's chain, with its folder's prefix length (`'a/b/'` → 4). */
interface ChainLevel {
  rules: Ignore;
  cut: number;
}

const EMPTY_CHAIN: readonly ChainLevel[] = [];

/** Rules from one ignore file, with the folder (relative to the repository root) they are scoped to. */
interface OuterLevel {
  base: string;
  rules: Ignore;
}

/**
 * Tests one path against one compiled file WITHOUT the library's own parent-folder check: git
 * decides about a folder with every level's rules at once (a deeper `!dir/` can re-include a folder
 * a shallower file excludes), so the parent check belongs to us, not to one file's rules. `ignore`
 * keeps that single-path test on its rule manager; if a future version moves it, we fall back to the
 * public `test()`, which differs only in that rare re-included-folder case (the oracle test catches it).
 */
function testSelf(rules: Ignore, path: string): Verdict {
  const manager = (rules as unknown as { _rules?: { test?: (path: string, mode: string) => Verdict } })._rules;
  if (manager && typeof manager.test === 'function') return manager.test(path, 'regex');
  return rules.test(path);
}

// The one known gap between `ignore` and git (its issue #155: pattern `foo**/bar` against path
// `foobar`): git compares a pattern's leading literal part on its own and matches the rest with
// wildmatch, so a double star that directly follows that literal part (not a slash) acts like a
// leading `**/`. Such a line is replaced by two lines with the same meaning that `ignore` reads
// as git does. The other cases in that issue already agree with git in the installed version.
/** Rewrites one ignore-file line so that `ignore` reads it as git does (see above). */
export function rewriteGitQuirks(line: string): string[] {
  if (!line.includes('**') || line.startsWith('#')) return [line];
  const negation = line.startsWith('!') ? '!' : '';
  const body = negation ? line.slice(1) : line;
  const firstWildcard = body.search(/[*?[\\]/);
  if (firstWildcard <= 0 || body[firstWildcard] !== '*' || body[firstWildcard + 1] !== '*' || body[firstWildcard - 1] === '/') return [line];
  let end = firstWildcard;
  while (body[end] === '*') end++;
  if (body[end] !== '/') return [line];
  const prefix = body.slice(0, firstWildcard);
  const tail = body.slice(end + 1);
  // A pattern whose only slash is the trailing one is matched against the basename: no quirk.
  if (tail.replace(/\/ *\r?$/, '') === '') return [line];
  const anchor = prefix.startsWith('/') ? '' : '/';
  return [`${negation}${anchor}${prefix}${tail}`, `${negation}${anchor}${prefix}*/**/${tail}`];
}

function compile(text: string): Ignore | null {
  const lines = text.includes('**') ? text.split('\n').flatMap(rewriteGitQuirks).join('\n') : text;
  const rules = ignore({ ignorecase: false }).add(lines);
  // An ignore file with only comments and blank lines never decides anything.
  return text.split('\n').some((line) => line.trim() !== '' && !line.startsWith('#')) ? rules : null;
}

/** Reads an ignore file as git does: a symlinked ignore file is not followed. Missing → null. */
function readIgnoreFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
  try {
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The git directory for a work tree, following a `.git` file (worktrees, submodules) and `commondir`. */
/** The git repository a folder belongs to. */
export interface GitRepository {
  /** The work tree's top folder. */
  top: string;
  /** This work tree's git dir (holds `index`). */
  gitDir: string;
  /** The shared git dir (holds `info/exclude`, `config`); = gitDir unless a linked worktree. */
  commonDir: string;
  /** The project root relative to `top`, `/`-separated, `''` when the same. */
  prefix: string;
}

function findGitDir(root: string): Omit<GitRepository, 'prefix'> | null {
  for (let dir = root; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    try {
      const stat = statSync(dotGit);
      let gitDir = dotGit;
      if (stat.isFile()) {
        const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
        if (!match) return null;
        gitDir = resolve(dir, match[1]!);
      }
      let commonDir = gitDir;
      try {
        commonDir = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
      } catch {
        // not a linked worktree
      }
      return { top: dir, gitDir, commonDir };
    } catch {
      // no .git here
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Git's ignore rules for one project root, exactly as `git ls-files --others --exclude-standard`
 * applies them: every folder's `.gitignore` scoped to that folder (deepest decides first, the last
 * matching line within a file wins, `!` re-includes), `.git/info/exclude` last, and a path inside
 * an excluded folder is excluded whatever deeper rules say. The always-skipped folders are added.
 *
 * The user's `core.excludesFile` applies below everything else (see `ignore-global.ts`).
 * Not covered: tracked files that match an ignore rule (git lists those from its index; we never
 * read the index), and nested repositories (git stops at them; we walk into them).
 */
export class IgnoreRules {
  /** Compiled `.gitignore` per folder relative to root (`''` is root); null: none or not read. */
  private readonly folders = new Map<string, Ignore | null>();
  /** Per folder: the compiled files that apply inside it, deepest first. */
  private readonly chains = new Map<string, readonly ChainLevel[]>();
  /** Decisions about folders already made, relative to root. */
  private readonly folderIgnored = new Map<string, boolean>();
  /** `.gitignore` files above root (shallow first) and `info/exclude`, as the repository sees them. */
  private readonly outer: OuterLevel[];
  private discovering = true;

  private readonly prefix: string;

  private constructor(
    readonly root: string,
    /** The enclosing repository, if any. */
    readonly repository: GitRepository | null,
    outer: OuterLevel[],
  ) {
    this.prefix = repository?.prefix ?? '';
    this.outer = outer;
  }

  /**
   * Rules for a project root: finds the enclosing git repo (if any) for `.git/info/exclude` and the
   * `.gitignore` files of folders between the repo root and `root`; honours `.gitignore` files
   * outside git too.
   */
  static create(root: string, environment: GitUserEnvironment = {}): IgnoreRules {
    const absolute = resolve(root);
    const git = findGitDir(absolute);
    if (!git) return new IgnoreRules(absolute, null, []);
    const prefix = relative(git.top, absolute).split(sep).join('/');
    const outer: OuterLevel[] = [];
    // Lowest first: the user's core.excludesFile, then info/exclude, then .gitignore files above root.
    const personal = readIgnoreFile(globalExcludesFile(git.commonDir, environment));
    const personalRules = personal === null ? null : compile(personal);
    if (personalRules) outer.push({ base: '', rules: personalRules });
    const exclude = readIgnoreFile(join(git.commonDir, 'info', 'exclude'));
    const excludeRules = exclude === null ? null : compile(exclude);
    if (excludeRules) outer.push({ base: '', rules: excludeRules });
    if (prefix !== '') {
      const parts = prefix.split('/');
      for (let i = 0; i < parts.length; i++) {
        const base = parts.slice(0, i).join('/');
        const text = readIgnoreFile(join(git.top, ...parts.slice(0, i), '.gitignore'));
        const rules = text === null ? null : compile(text);
        if (rules) outer.push({ base, rules });
      }
    }
    return new IgnoreRules(absolute, { ...git, prefix }, outer);
  }

  /**
   * `rel` is `/`-separated, relative to root. Loads missing ancestors' `.gitignore` lazily (sync,
   * cached, each compiled once, scoped to its folder). True also when an ancestor folder is ignored.
   */
  isIgnored(rel: string, isDirectory: boolean): boolean {
    if (rel === '' || rel === '.') return false;
    for (let slash = rel.indexOf('/'); slash !== -1; slash = rel.indexOf('/', slash + 1)) {
      if (this.isFolderIgnored(rel.slice(0, slash))) return true;
    }
    return isDirectory ? this.isFolderIgnored(rel) : this.decide(rel, false);
  }

  /**
   * Like `isIgnored`, for a scanner that walks top-down and so knows the parent folder is not
   * ignored: skips the ancestor checks.
   */
  isEntryIgnored(rel: string, isDirectory: boolean): boolean {
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
   * Tells the rules whether a folder has a `.gitignore` (a scanner knows it from the listing), so
   * none is looked for on disk. Ignored once discovery has stopped.
   */
  noteFolder(relDir: string, hasIgnoreFile: boolean): void {
    if (this.folders.has(relDir)) return;
    if (!hasIgnoreFile || !this.discovering) this.folders.set(relDir, null);
    else this.load(relDir);
  }

  /** After this, `.gitignore` files of folders not yet seen are not read (the 2,000-folder cap). */
  stopDiscovery(): void {
    this.discovering = false;
  }

  /** How many folders' `.gitignore` files were compiled. */
  get loadedFiles(): number {
    let count = 0;
    for (const rules of this.folders.values()) if (rules) count++;
    return count + this.outer.length;
  }

  private isFolderIgnored(rel: string): boolean {
    let known = this.folderIgnored.get(rel);
    if (known === undefined) {
      known = this.decide(rel, true);
      this.folderIgnored.set(rel, known);
    }
    return known;
  }

  private load(relDir: string): Ignore | null {
    let rules = this.folders.get(relDir);
    if (rules !== undefined) return rules;
    rules = null;
    if (this.discovering) {
      const text = readIgnoreFile(join(this.root, ...(relDir === '' ? [] : relDir.split('/')), '.gitignore'));
      if (text !== null) rules = compile(text);
    }
    this.folders.set(relDir, rules);
    return rules;
  }

  /**
   * The compiled files that apply inside a folder, deepest first, each with the length of its
   * folder's prefix to cut from a path. Made once per folder from its parent's.
   */
  private chainOf(folder: string): readonly ChainLevel[] {
    let chain = this.chains.get(folder);
    if (chain) return chain;
    const parent = folder === '' ? EMPTY_CHAIN : this.chainOf(folder.slice(0, Math.max(0, folder.lastIndexOf('/'))));
    const own = this.load(folder);
    chain = own ? [{ rules: own, cut: folder === '' ? 0 : folder.length + 1 }, ...parent] : parent;
    this.chains.set(folder, chain);
    return chain;
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
    // Deepest folder first: its own .gitignore, then each parent's up to root.
    for (let i = 0; i < chain.length; i++) {
      const level = chain[i]!;
      const verdict = testSelf(level.rules, level.cut === 0 ? probe : probe.slice(level.cut));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    if (this.outer.length === 0) return false;
    const full = this.prefix === '' ? probe : `${this.prefix}/${probe}`;
    for (let i = this.outer.length - 1; i >= 0; i--) {
      const level = this.outer[i]!;
      const verdict = testSelf(level.rules, level.base === '' ? full : full.slice(level.base.length + 1));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
