import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Ignore, Options } from 'ignore';

// `ignore` is CommonJS: required, it loads in ~2 ms; imported, Node first scans its source for
// named exports (~8 ms), which an indexer thread pays before its first scan.
const ignore = createRequire(import.meta.url)('ignore') as (options?: Options) => Ignore;

/**
 * Reading and compiling ignore files, and finding git directories: the parts of `IgnoreRules`
 * that touch the disk or the `ignore` package.
 */

export interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

/**
 * Tests one path against one compiled file WITHOUT the library's own parent-folder check: git
 * decides about a folder with every level's rules at once (a deeper `!dir/` can re-include a folder
 * a shallower file excludes), so the parent check belongs to us, not to one file's rules. `ignore`
 * keeps that single-path test on its rule manager; if a future version moves it, we fall back to the
 * public `test()`, which differs only in that rare re-included-folder case (the oracle test catches it).
 */
export function testSelf(rules: Ignore, path: string): Verdict {
  const manager = (rules as unknown as { _rules?: { test?: (path: string, mode: string) => Verdict } })._rules;
  if (manager && typeof manager.test === 'function') return manager.test(path, 'regex');
  return rules.test(path);
}

/** What one ignore file says about a path: 0 nothing, 1 ignored, 2 re-included by a `!` line. */
export type Decision = 0 | 1 | 2;

interface CompiledRule {
  negative: boolean;
  regex: RegExp;
  body?: string;
}

/** One alternation of the rules' expressions, or null when there are none. */
function joined(rules: CompiledRule[]): RegExp | null {
  return rules.length === 0 ? null : new RegExp(rules.map((rule) => `(?:${rule.regex.source})`).join('|'));
}

/**
 * A fast test for one compiled file, given a path and its last part (each with a trailing `/` for
 * a folder). Without `!` lines any matching line means "ignored", so the file's line expressions
 * are joined into one alternation for the lines with no inner slash (tested on the last part, as
 * git does: shorter text, same answer) and one for the others (tested on the path). With `!` lines
 * the last matching line decides, through `testSelf`, asked only when the joined expressions say
 * some line matches. Falls back to `testSelf` if `ignore` changes
 * its insides.
 */
export function matcherOf(rules: Ignore): (path: string, base: string) => Decision {
  const list = (rules as unknown as { _rules?: { _rules?: CompiledRule[] } })._rules?._rules;
  const slow = (path: string): Decision => {
    const verdict = testSelf(rules, path);
    return verdict.ignored ? 1 : verdict.unignored ? 2 : 0;
  };
  if (!Array.isArray(list) || list.length === 0 || !list.every((rule) => rule.regex instanceof RegExp && rule.regex.flags === '')) return slow;
  const basenameOnly = (rule: CompiledRule) => typeof rule.body === 'string' && !rule.body.slice(0, -1).includes('/');
  const onBase = joined(list.filter(basenameOnly));
  const onPath = joined(list.filter((rule) => !basenameOnly(rule)));
  const anyLine = (path: string, base: string) => (onBase !== null && onBase.test(base)) || (onPath !== null && onPath.test(path));
  if (list.every((rule) => !rule.negative)) return (path, base) => (anyLine(path, base) ? 1 : 0);
  // With `!` lines, most paths still match no line at all: only those that match one need to know
  // which line matched last.
  return (path, base) => (anyLine(path, base) ? slow(path) : 0);
}

// The one known gap between `ignore` and git (its issue #155: pattern `foo**/bar` against path
// `foobar`): git compares a pattern's leading literal part on its own and matches the rest with
// wildmatch, so a double star that directly follows that literal part (not a slash) acts like a
// leading `**/`. Such a line is replaced by two lines with the same meaning that `ignore` reads
// as git does. The other cases in that issue already agree with git in the installed version.
// Git 2.52 called this a bug and fixed it (1940a02dc1, "match_pathname(): give fnmatch one char
// of prefix context"; t0008 "** not confused by matching leading prefix"): from that version on
// git reads `foo**/bar` as `ignore` does, and this rewrite should go once the git the tests run
// against (2.39 here) has the fix.
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

export function compile(text: string): Ignore | null {
  const lines = text.includes('**') ? text.split('\n').flatMap(rewriteGitQuirks).join('\n') : text;
  const rules = ignore({ ignorecase: false }).add(lines);
  // An ignore file with only comments and blank lines never decides anything.
  return text.split('\n').some((line) => line.trim() !== '' && !line.startsWith('#')) ? rules : null;
}

/**
 * Reads an ignore file as git does: an in-tree `.gitignore` that is a symlink is not followed
 * (git opens it with O_NOFOLLOW); `info/exclude` and the user's excludes file are read with
 * `follow`, as git reads them (dotfile managers often link `~/.config/git/ignore`). Missing or
 * unreadable or not a regular file (a FIFO, a folder) → null.
 */
export function readIgnoreFile(path: string, follow = false): string | null {
  let fd: number;
  try {
    // Non-blocking: a FIFO in an ignore file's place must not hang the crawl on its open.
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (follow ? 0 : (constants.O_NOFOLLOW ?? 0));
    fd = openSync(path, flags);
  } catch {
    return null;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

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

/** The repository whose top folder is `dir` (a `.git` folder or a `.git` file pointing to one). */
export function gitDirAt(dir: string): Omit<GitRepository, 'prefix'> | null {
  const dotGit = join(dir, '.git');
  try {
    const stat = statSync(dotGit);
    let gitDir = dotGit;
    if (stat.isFile()) {
      // The `gitdir:` line, trimmed by hand (a lazy regex to the line's end was quadratic in spaces).
      const line = readFileSync(dotGit, 'utf8').split('\n').find((text) => text.startsWith('gitdir:'));
      const target = line?.slice('gitdir:'.length).trim();
      if (!target) return null;
      gitDir = resolve(dir, target);
    } else if (!stat.isDirectory()) return null;
    let commonDir = gitDir;
    try {
      commonDir = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
    } catch {
      // not a linked worktree
    }
    return { top: dir, gitDir, commonDir };
  } catch {
    return null;
  }
}

/** The repository enclosing `root`, searching upwards. */
export function findGitDir(root: string): Omit<GitRepository, 'prefix'> | null {
  for (let dir = root; ; dir = dirname(dir)) {
    const found = gitDirAt(dir);
    if (found) return found;
    if (dirname(dir) === dir) return null;
  }
}

