import test from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IgnoreRules } from '../../../../actors/indexer/crawl/ignore-rules.js';
import { scan } from '../../../../actors/indexer/scan.js';
import { walk } from '../../../../actors/tool-executor/files/walk.js';
import { T0008_SMALL_TREES, T0008_TREE, WILDMATCH_CASES } from '../../../fixtures/git-ignore-cases.js';
import { everyFile, git, gitHome, gitLsFiles } from '../../../helpers/git-oracle.js';
import { tempDir } from '../../../helpers/temp.js';

/**
 * git's own ignore tests (t3070-wildmatch.sh's patterns, t0008-ignores.sh's trees; see the
 * fixture for where they come from) run through the rules, the index scan and the tools' walk,
 * with `git ls-files --cached --others --exclude-standard` deciding.
 */

function touch(root: string, path: string, content = ''): void {
  const full = join(root, ...path.split('/'));
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}

/** What the rules keep of every file on disk, path by path (nothing here is tracked). */
function kept(root: string, rules: IgnoreRules): string[] {
  return everyFile(root)
    .filter((path) => !rules.isIgnored(path, false))
    .sort();
}

async function walked(root: string): Promise<string[]> {
  const paths: string[] = [];
  await walk({ root, start: root }, (entry) => {
    if (entry.kind !== 'directory') paths.push(entry.rel);
  });
  return paths.sort();
}

/** A text git's test cannot make a file of: empty, `.`, or with an empty path segment. */
const usable = ([text]: readonly [string, string]) => text !== '' && text !== '.' && !text.includes('//');

test("t3070's wildmatch patterns, each one .gitignore line in a folder of its own: the rules, the scan and the tools' walk equal git", async (t) => {
  const root = tempDir('reika-wildmatch-');
  git(root, 'init', '-q');
  const cases = WILDMATCH_CASES.filter(usable);
  cases.forEach(([text, pattern], i) => {
    const folder = `case${String(i).padStart(3, '0')}`;
    touch(root, `${folder}/.gitignore`, `${pattern}\n`);
    // A text ending in `/` names a folder: it gets a file inside.
    touch(root, `${folder}/${text.endsWith('/') ? `${text}inside` : text}`);
  });
  const oracle = gitLsFiles(root).paths;
  t.true(cases.length >= 180, 'the cases were read');
  t.true(oracle.length > cases.length && oracle.length < cases.length * 3, 'git ignores some of the texts and keeps others');

  const disagreements = (paths: string[]) => {
    const [left, right] = [new Set(paths), new Set(oracle)];
    return [...new Set([...paths.filter((p) => !right.has(p)), ...oracle.filter((p) => !left.has(p))].map((p) => p.slice(0, 7)))].map((folder) => {
      const [text, pattern] = cases[Number(folder.slice(4))]!;
      return `${folder}: ${JSON.stringify(pattern)} on ${JSON.stringify(text)}`;
    });
  };
  t.deepEqual(disagreements(kept(root, IgnoreRules.create(root))), [], 'IgnoreRules');
  t.deepEqual(disagreements([...scan(root).paths].sort()), [], 'the index scan');
  t.deepEqual(disagreements(await walked(root)), [], "the tools' walk");
});

test("t0008's tree (nested negations, ignored folder, info/exclude, global excludes, tracked-but-ignored, a symlink): the index and the tools equal git", async (t) => {
  const user = gitHome();
  const root = tempDir('reika-t0008-');
  git(root, 'init', '-q');
  const globalExcludes = join(user.home, 'global-excludes');
  writeFileSync(globalExcludes, T0008_TREE.globalExcludes);
  git(root, 'config', 'core.excludesfile', globalExcludes);
  for (const [path, text] of Object.entries(T0008_TREE.gitignore)) touch(root, path, text);
  writeFileSync(join(root, '.git', 'info', 'exclude'), T0008_TREE.infoExclude);
  for (const path of T0008_TREE.trackedIgnored) touch(root, path);
  git(root, 'add', '-f', ...T0008_TREE.trackedIgnored);
  git(root, 'commit', '-qm', 'tracked');
  for (const path of T0008_TREE.files) touch(root, path);
  for (const [path, target] of Object.entries(T0008_TREE.symlinks)) symlinkSync(target, join(root, path));

  const oracle = gitLsFiles(root, user);
  t.is(oracle.warnings, '');
  // The tree's own expectations hold in git's listing: what check-ignore reports ignored is out.
  for (const path of ['one', 'a/one', 'a/3-three', 'a/b/twooo', 'a/b/ignored-dir/foo', 'per-repo', 'globalone', 'top-level-dir/inside']) t.false(oracle.paths.includes(path), path);
  for (const path of ['a/b/one', 'a/b/two', 'globaltwo', 'b/globaltwo', 'a/symlink', 'ignored-but-in-index', 'c/not-ignored']) t.true(oracle.paths.includes(path), path);

  t.deepEqual([...scan(root).paths].sort(), oracle.paths, 'the index scan');
  t.deepEqual(await walked(root), oracle.paths, "the tools' walk");
});

for (const tree of T0008_SMALL_TREES) {
  test(`t0008 "${tree.title}": the rules, the index and the tools equal git`, async (t) => {
    const root = tempDir('reika-t0008-');
    git(root, 'init', '-q');
    for (const [path, text] of Object.entries(tree.gitignore)) touch(root, path, text);
    for (const path of tree.files) touch(root, path);
    const oracle = gitLsFiles(root);
    t.is(oracle.warnings, '');
    t.true(oracle.paths.length < tree.files.length + Object.keys(tree.gitignore).length, 'git ignores something here');
    t.deepEqual(kept(root, IgnoreRules.create(root)), oracle.paths, 'IgnoreRules');
    t.deepEqual([...scan(root).paths].sort(), oracle.paths, 'the index scan');
    t.deepEqual(await walked(root), oracle.paths, "the tools' walk");
  });
}
