import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RE2JS } from 're2js';
import { TrackedPaths } from '../../../indexer/crawl/git-index.js';
import { gitDirAt } from '../../../indexer/crawl/ignore-files.js';
import { ALWAYS_SKIPPED, IgnoreRules } from '../../../indexer/crawl/ignore-rules.js';
import { compileGlob } from '../glob-match.js';
import { isInsideProject } from '../paths.js';
import { requiredLiteral } from '../user-regex.js';
import { findProgram, runProgram, type ProgramResult } from './run-program.js';
import { toRustRegex } from './rust-regex.js';

export type SearchEngine = 'rg' | 'git' | 'js';

export interface CandidateQuery {
  /** The project root. */
  root: string;
  /** The folder searched, absolute. */
  start: string;
  /** The user's pattern (JavaScript syntax, as grep takes it). */
  pattern: string;
  ignoreCase: boolean;
  /** grep's `glob` argument, matched against paths relative to `start`. */
  glob?: string;
  signal: AbortSignal;
  /** `auto` (default): ripgrep, else git grep, else undefined. Tests pin one. */
  engine?: 'auto' | SearchEngine;
  /** PATH to find `rg` and `git` on (default: the process's). */
  path?: string;
  /** Each searcher process's pid as it starts (tests). */
  onSpawn?: (pid: number) => void;
}

/**
 * Which files `grep` reads, found by a native searcher instead of our own walk and read: ripgrep
 * when it is on PATH, else `git grep` inside a git repository. Either one only **picks files**:
 * it is asked for a pattern that matches at least what the user's pattern matches (`rust-regex.ts`;
 * for git grep a literal every match contains), and the JavaScript path then searches each picked
 * file as it always did, so lines, binary and Latin-1 handling, line clipping and the caps are
 * unchanged. The picked files are held to the tree the crawler sees (`indexer/crawl/`):
 *
 * - ripgrep applies the same `.gitignore` files, `info/exclude` and excludes file, nested
 *   repositories starting afresh, and is told to keep hidden files and skip `.git` and the
 *   always-skipped folders; what it keeps that our rules leave out is dropped here;
 * - tracked files that an ignore rule matches (git lists them, ripgrep does not) come from
 *   `git ls-files --cached --ignored --exclude-standard` and are searched too;
 * - the files are put in the crawler's order (breadth-first, names sorted), so the first 100
 *   matches and the 20,000 cap fall where they did.
 *
 * Undefined means "walk": the start is ignored and named explicitly (searched unfiltered), no
 * searcher is there, or the pattern cannot be handed to one.
 */
export interface Candidates {
  engine: 'rg' | 'git';
  /** Absolute paths of regular files, in the crawler's order. */
  files: string[];
  /** How many files the searcher looked at, when it says. */
  searched?: number;
  aborted: boolean;
}

const ALWAYS = new Set(ALWAYS_SKIPPED);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export async function findCandidates(query: CandidateQuery): Promise<Candidates | undefined> {
  const engine = query.engine ?? 'auto';
  if (engine === 'js') return undefined;
  const tree = treeOf(query.root, query.start);
  if (!tree) return undefined;
  const git = findProgram('git', query.path);
  // Tracked-but-ignored files are known from git only.
  if (tree.rules.repository && !git) return undefined;

  if (engine === 'auto' || engine === 'rg') {
    const rg = findProgram('rg', query.path);
    const rustPattern = rg ? toRustRegex(RE2JS.translateRegExp(query.pattern)) : undefined;
    if (rg && rustPattern !== undefined) {
      const found = await ripgrep(rg, git, rustPattern, query, tree);
      if (found) return found;
    }
    if (engine === 'rg') return undefined;
  }
  if (!tree.rules.repository || !git) return undefined;
  const literal = requiredLiteral(query.pattern);
  // A literal git would fold or encode differently from JavaScript is no safe filter.
  if (literal === '' || !/^[\x20-\x7e]+$/.test(literal)) return undefined;
  return gitGrep(git, literal, query, tree);
}

interface Tree {
  rules: IgnoreRules;
  /** The start relative to the rules' root, `/`-separated, with a trailing `/` (or empty). */
  prefix: string;
  tracked?: TrackedPaths | null;
}

/** The rules the crawler would use for this start (`Crawl`'s constructor); undefined when it would filter nothing. */
function treeOf(root: string, start: string): Tree | undefined {
  const rulesRoot = resolve(isInsideProject(root, start) ? root : start);
  const absoluteStart = resolve(start);
  const fromRoot = relative(rulesRoot, absoluteStart);
  const inside = fromRoot === '' || (fromRoot !== '..' && !fromRoot.startsWith(`..${sep}`) && !isAbsolute(fromRoot));
  const rules = IgnoreRules.create(inside ? rulesRoot : absoluteStart);
  const startRel = inside ? fromRoot.split(sep).join('/') : '';
  if (startRel !== '' && rules.isIgnored(startRel, true)) return undefined;
  return { rules, prefix: startRel === '' ? '' : `${startRel}/` };
}

const RG_FLAGS = [
  '--no-config',
  '--files-with-matches',
  '--null',
  '--stats',
  '--hidden', // dotfiles are in the tree unless a rule says otherwise
  '--no-ignore-dot', // .ignore files are ripgrep's, not git's
  '--text', // the JavaScript path decides what is binary (a NUL in the first 8,000 bytes)
  '--crlf', // `$` matches before a CR, as on lines the JavaScript path strips of it
  '--glob',
  '!.git',
  ...ALWAYS_SKIPPED.filter((name) => name !== '.git').flatMap((name) => ['--glob', `!${name}/`]),
];

async function ripgrep(rg: string, git: string | undefined, pattern: string, query: CandidateQuery, tree: Tree): Promise<Candidates | undefined> {
  const args = [...RG_FLAGS];
  // Outside git, .gitignore files count from the start down only (no parents, as the crawler).
  if (!tree.rules.repository) args.push('--no-require-git', '--no-ignore-parent');
  if (query.ignoreCase) args.push('--ignore-case');
  else args.push('--case-sensitive');
  // A file-name glob ripgrep reads alike narrows its search; the result is filtered by ours anyway.
  if (query.glob && /^[A-Za-z0-9_.*{},-]+$/.test(query.glob) && !query.glob.startsWith('-')) args.push('--type-add', `picked:${query.glob}`, '--type', 'picked');
  args.push('--regexp', pattern, '--', '.');
  const options = { cwd: query.start, signal: query.signal, onSpawn: query.onSpawn };
  const [result, trackedIgnored] = await Promise.all([runProgram(rg, args, options), tree.rules.repository && git ? trackedButIgnored(git, options) : Promise.resolve(emptyResult)]);
  if (result.aborted || trackedIgnored.aborted) return { engine: 'rg', files: [], aborted: true };
  // 1: nothing matched; 2 with a regex error: ripgrep's engine refused the pattern.
  if (result.code === 2 && /regex|parse error/i.test(result.stderr)) return undefined;
  if (result.code !== 0 && result.code !== 1) return undefined;
  const { paths, tail } = nulSeparated(result.stdout, true);
  const searched = /(\d+) files searched/.exec(tail);
  const picked = new Set(paths);
  const extra = nulSeparated(trackedIgnored.stdout, false).paths.filter((path) => !picked.has(path));
  const files = filterAndSort(paths, tree, query, false);
  // Tracked-but-ignored files: few in a real repository, so searched without a second pass.
  const tracked = filterAndSort(extra, tree, query, true);
  return { engine: 'rg', files: mergeInOrder(files, tracked, query.start), searched: searched ? Number(searched[1]) + tracked.length : undefined, aborted: false };
}

const emptyResult: ProgramResult = { code: 0, stdout: Buffer.alloc(0), stderr: '', aborted: false };

function trackedButIgnored(git: string, options: { cwd: string; signal: AbortSignal; onSpawn?: (pid: number) => void }): Promise<ProgramResult> {
  return runProgram(git, ['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], options);
}

/**
 * git grep over the tracked and untracked files git lists, plus what it leaves out and the crawler
 * keeps: tracked files an ignore rule matches (`--untracked --exclude-standard` drops them), and
 * nested repositories (git stops at their top; their files are searched by a git grep of their own).
 */
async function gitGrep(git: string, literal: string, query: CandidateQuery, tree: Tree): Promise<Candidates> {
  const found = await gitGrepPaths(git, literal, query, query.start);
  if (found === undefined) return { engine: 'git', files: [], aborted: true };
  return { engine: 'git', files: filterAndSort(found, tree, query, true), aborted: false };
}

/** The paths (relative to `query.start`) git picks under `dir`; undefined when aborted. */
async function gitGrepPaths(git: string, literal: string, query: CandidateQuery, dir: string): Promise<string[] | undefined> {
  const excludes = ALWAYS_SKIPPED.map((name) => `:(exclude,glob)**/${name}/**`);
  const args = ['-c', 'core.quotePath=false', 'grep', '--untracked', '--exclude-standard', '--files-with-matches', '-z', '--text', '--fixed-strings', ...(query.ignoreCase ? ['--ignore-case'] : []), '-e', literal, '--', '.', ...excludes];
  const options = { cwd: dir, signal: query.signal, onSpawn: query.onSpawn };
  const [grep, trackedIgnored, untrackedFolders] = await Promise.all([
    runProgram(git, args, options),
    trackedButIgnored(git, options),
    runProgram(git, ['-c', 'core.quotePath=false', 'ls-files', '-z', '--others', '--exclude-standard', '--directory', '--no-empty-directory', '--', '.', ...excludes], options),
  ]);
  if (grep.aborted || trackedIgnored.aborted || untrackedFolders.aborted) return undefined;
  const prefix = relative(query.start, dir).split(sep).join('/');
  const inStart = (path: string) => (prefix === '' ? path : `${prefix}/${path}`);
  const paths = grep.code === 0 ? nulSeparated(grep.stdout, false).paths.map(inStart) : [];
  paths.push(...nulSeparated(trackedIgnored.stdout, false).paths.map(inStart));
  for (const folder of nulSeparated(untrackedFolders.stdout, false).paths) {
    if (!folder.endsWith('/') || !gitDirAt(join(dir, folder))) continue;
    const nested = await gitGrepPaths(git, literal, query, join(dir, folder));
    if (nested === undefined) return undefined;
    paths.push(...nested);
  }
  return [...new Set(paths)];
}

/** NUL-terminated paths (`./` dropped), and with `tail` the text after the last one (ripgrep's stats). */
function nulSeparated(bytes: Buffer, tail: boolean): { paths: string[]; tail: string } {
  const paths: string[] = [];
  let at = 0;
  for (let end = bytes.indexOf(0, at); end !== -1; end = bytes.indexOf(0, at)) {
    let text: string | undefined;
    try {
      text = strictUtf8.decode(bytes.subarray(at, end));
    } catch {
      text = undefined; // not UTF-8: the crawler skips such names
    }
    at = end + 1;
    if (text === undefined || text.includes('\n') || text.includes('\r')) continue;
    paths.push(text.startsWith('./') ? text.slice(2) : text);
  }
  return { paths, tail: tail ? bytes.subarray(at).toString('utf8') : '' };
}

/**
 * The picked paths (relative to the start) that the crawler's tree holds, glob applied, in the
 * crawler's order. `checkType`: the searcher may name symlinks or folders (git does), so each
 * path is looked at.
 */
function filterAndSort(paths: string[], tree: Tree, query: CandidateQuery, checkType: boolean): string[] {
  const wanted = query.glob ? compileGlob(query.glob) : undefined;
  const kept: string[][] = [];
  for (const rel of paths) {
    const parts = rel.split('/');
    if (parts.some((part, i) => part === '.git' || (i < parts.length - 1 && ALWAYS.has(part)) || part === '' || part === '.' || part === '..')) continue;
    if (wanted && !wanted(rel)) continue;
    const fromRules = tree.prefix + rel;
    if (tree.rules.isIgnored(fromRules, false) && !isTracked(tree, fromRules)) continue;
    if (checkType) {
      try {
        if (!lstatSync(join(query.start, rel)).isFile()) continue;
      } catch {
        continue;
      }
    }
    kept.push(parts);
  }
  kept.sort(crawlOrder);
  return kept.map((parts) => join(query.start, ...parts));
}

function isTracked(tree: Tree, rel: string): boolean {
  if (tree.tracked === undefined) tree.tracked = tree.rules.repository ? TrackedPaths.read(tree.rules.repository) : null;
  return tree.tracked !== null && tree.tracked.has(rel, false);
}

/** Breadth-first with names sorted within a folder: shallower first, then part by part. */
function crawlOrder(a: string[], b: string[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}

function mergeInOrder(a: string[], b: string[], start: string): string[] {
  if (b.length === 0) return a;
  const parts = (path: string) => relative(start, path).split(sep);
  return [...a, ...b].map((path) => ({ path, parts: parts(path) })).sort((x, y) => crawlOrder(x.parts, y.parts)).map((entry) => entry.path);
}
