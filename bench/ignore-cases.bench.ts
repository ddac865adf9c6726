import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Ignore } from 'ignore';
import { IgnoreRules } from '../actors/indexer/crawl/ignore-rules.js';
import { T0008_SMALL_TREES, WILDMATCH_CASES } from '../test/fixtures/git-ignore-cases.js';
import { git, gitLsFiles } from '../test/helpers/git-oracle.js';
import { tempDir } from '../test/helpers/temp.js';
import { row } from './stats.js';

// Not a timing: how often the `ignore` package, used on its own the usual way
// (`ignore().add(gitignoreText).ignores(path)`), and reika's rules built on it (`IgnoreRules`:
// git's `**` quirk rewritten, git's parent-folder decision, per-folder scoping) disagree with git
// on the ignore cases of git's own test suite (`test/fixtures/git-ignore-cases.ts`: t3070's
// wildmatch patterns as one-line `.gitignore` files, t0008's one-file trees). Git decides
// (`git ls-files -co --exclude-standard`). `ignore` is asked with its default options and with
// `ignorecase: false` (git's default on Linux).

const ignore = createRequire(import.meta.url)('ignore') as (options?: { ignorecase?: boolean }) => Ignore;

interface Case {
  /** Where the `.gitignore` is (`''` for the root) and its text. */
  folder: string;
  rules: string;
  /** The path asked about, relative to the repository root. */
  path: string;
  label: string;
}

function touch(root: string, path: string, content = ''): void {
  const full = join(root, ...path.split('/'));
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}

/** `ignore` alone: one instance per ignore file, asked about the path relative to its folder. */
function ignoreAlone(compiled: Map<string, Ignore>, one: Case, ignorecase: boolean): boolean {
  const key = `${ignorecase}\0${one.folder}\0${one.rules}`;
  let rules = compiled.get(key);
  if (!rules) compiled.set(key, (rules = ignore({ ignorecase }).add(one.rules)));
  const inside = one.folder === '' ? one.path : one.path.startsWith(`${one.folder}/`) ? one.path.slice(one.folder.length + 1) : undefined;
  if (inside === undefined) return false;
  try {
    return rules.ignores(inside);
  } catch {
    return false; // `ignore` refuses some paths (it says they are not relative); counted as kept
  }
}

export default async function (): Promise<void> {
  const cases: Case[] = [];
  const roots: string[] = [];
  // One repository for the wildmatch cases, a folder per case; one per t0008 tree.
  const wildmatch = tempDir('reika-bench-wildmatch-');
  git(wildmatch, 'init', '-q');
  roots.push(wildmatch);
  WILDMATCH_CASES.forEach(([text, pattern], i) => {
    if (text === '' || text === '.' || text.includes('//')) return;
    const folder = `case${String(i).padStart(3, '0')}`;
    const path = `${folder}/${text.endsWith('/') ? `${text}inside` : text}`;
    touch(wildmatch, `${folder}/.gitignore`, `${pattern}\n`);
    touch(wildmatch, path);
    cases.push({ folder, rules: `${pattern}\n`, path, label: `t3070 ${JSON.stringify(pattern)} on ${JSON.stringify(text)}` });
  });
  const treeRoots = new Map<Case, string>();
  for (const tree of T0008_SMALL_TREES) {
    const root = tempDir('reika-bench-t0008-');
    git(root, 'init', '-q');
    for (const [file, text] of Object.entries(tree.gitignore)) touch(root, file, text);
    for (const path of tree.files) touch(root, path);
    const [file, text] = Object.entries(tree.gitignore)[0]!;
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    for (const path of tree.files) {
      const one = { folder, rules: text, path, label: `t0008 ${tree.title}: ${JSON.stringify(path)}` };
      cases.push(one);
      treeRoots.set(one, root);
    }
  }

  const listed = new Map<string, Set<string>>();
  const listing = (root: string) => {
    let paths = listed.get(root);
    if (!paths) listed.set(root, (paths = new Set(gitLsFiles(root).paths)));
    return paths;
  };
  const rulesOf = new Map<string, IgnoreRules>();
  const compiled = new Map<string, Ignore>();
  const aloneWrong: string[] = [];
  const caseSensitiveWrong: string[] = [];
  const oursWrong: string[] = [];
  for (const one of cases) {
    const root = treeRoots.get(one) ?? wildmatch;
    const gitIgnores = !listing(root).has(one.path);
    if (!rulesOf.has(root)) rulesOf.set(root, IgnoreRules.create(root));
    const verdict = `${one.label} (git: ${gitIgnores ? 'ignored' : 'kept'})`;
    if (ignoreAlone(compiled, one, true) !== gitIgnores) aloneWrong.push(verdict);
    if (ignoreAlone(compiled, one, false) !== gitIgnores) caseSensitiveWrong.push(verdict);
    if (rulesOf.get(root)!.isIgnored(one.path, false) !== gitIgnores) oursWrong.push(one.label);
  }
  const ignoredByGit = cases.filter((one) => !listing(treeRoots.get(one) ?? wildmatch).has(one.path)).length;
  process.stdout.write(`git's own ignore cases: ${cases.length} paths (${ignoredByGit} ignored by git, ${cases.length - ignoredByGit} kept)\n`);
  row('`ignore` alone, defaults: disagreements', `${aloneWrong.length}`, `${cases.length}`, aloneWrong.length / cases.length);
  for (const wrong of aloneWrong) process.stdout.write(`  ${wrong}\n`);
  row('`ignore` alone, ignorecase false: disagreements', `${caseSensitiveWrong.length}`, `${cases.length}`, caseSensitiveWrong.length / cases.length);
  for (const wrong of caseSensitiveWrong) process.stdout.write(`  ${wrong}\n`);
  row('IgnoreRules (on `ignore`): disagreements', `${oursWrong.length}`, `${cases.length}`, oursWrong.length / cases.length);
  for (const wrong of oursWrong) process.stdout.write(`  ${wrong}\n`);
}
