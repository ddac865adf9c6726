import test from 'ava';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { scan } from '../../../actors/indexer/scan.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { git, gitListing, oracleRepo, TRICKY_REPOS } from '../../helpers/git-oracle.js';

for (const repo of TRICKY_REPOS) {
  test(`the scan equals git ls-files --cached --others --exclude-standard on ${repo.title}`, (t) => {
    const root = oracleRepo(repo.committed, repo.untracked, repo.exclude);
    const index = scan(root);
    t.deepEqual([...index.paths].sort(), gitListing(root));
    t.deepEqual(index.capped, []);
    t.is(index.root, root);
  });
}

test('the scan of a subfolder of a repository equals git ls-files run there', (t) => {
  const root = oracleRepo(
    { '.gitignore': '*.gen\n/top/skip/\n', 'top/.gitignore': '!keep.gen\n', 'top/a.gen': '', 'top/keep.gen': '', 'top/skip/x': '', 'top/in/y.ts': '', 'top/ex.txt': '' },
    { 'top/new.txt': '' },
    'top/ex.txt\n',
  );
  const index = scan(join(root, 'top'));
  t.deepEqual([...index.paths].sort(), gitListing(join(root, 'top')));
  t.true(index.paths.includes('in/y.ts'));
});

test('paths come out breadth-first, names sorted within a folder', (t) => {
  const root = writeTree(tempDir(), { 'b/deep/x.ts': '', 'a/one.ts': '', 'z.md': '', 'a.md': '', 'b/two.py': '' });
  t.deepEqual(scan(root).paths, ['a.md', 'z.md', 'a/one.ts', 'b/two.py', 'b/deep/x.ts']);
});

test('map candidates are the source files, in the same order, minified bundles left out', (t) => {
  const root = writeTree(tempDir(), {
    'README.md': '',
    'src/a.ts': '',
    'src/b.min.js': '',
    'src/c.json': '',
    'lib/d.py': '',
    'lib/e.GO': '',
    'tools/run.sh': '',
    'native/f.hpp': '',
  });
  const index = scan(root);
  t.deepEqual(index.mapCandidates, ['lib/d.py', 'lib/e.GO', 'native/f.hpp', 'src/a.ts', 'tools/run.sh']);
  t.is(index.stats.files, 8);
});

test('stats count folders, files and ignored entries', (t) => {
  const root = writeTree(tempDir(), { '.gitignore': '*.log\n', 'a.log': '', 'b.txt': '', 'node_modules/x/y.js': '', 'sub/c.txt': '' });
  const { stats } = scan(root);
  t.is(stats.directories, 2, 'root and sub; node_modules is never read');
  t.is(stats.files, 3);
  t.is(stats.ignored, 2, 'a.log and node_modules');
  t.is(stats.skipped, 0);
  t.true(stats.ms >= 0);
});

test('a root that is missing or is a file fails with one clear sentence', (t) => {
  const root = writeTree(tempDir(), { 'file.txt': '' });
  t.throws(() => scan(join(root, 'nope')), { message: `${join(root, 'nope')} does not exist` });
  t.throws(() => scan(join(root, 'file.txt')), { message: `${join(root, 'file.txt')} is not a folder` });
});

test('tracked files that a rule matches stay listed, as git ls-files --cached lists them', (t) => {
  const root = oracleRepo({ 'old.log': '', 'src/a.ts': '' });
  writeTree(root, { '.gitignore': '*.log\ngen/\n', 'new.log': '', 'gen/forced.ts': '', 'gen/deep/forced.ts': '', 'gen/other.ts': '', 'gen/deep/other.ts': '' });
  git(root, 'add', '-f', 'gen/forced.ts', 'gen/deep/forced.ts');
  const index = scan(root);
  t.deepEqual([...index.paths].sort(), gitListing(root));
  t.deepEqual(index.paths, ['.gitignore', 'old.log', 'gen/forced.ts', 'src/a.ts', 'gen/deep/forced.ts']);
});

for (const version of ['2', '3', '4']) {
  test(`the git index is read in version ${version}, also from a subfolder root`, (t) => {
    const root = oracleRepo({ 'sub/kept.tmp': '', 'sub/ünï côdé.tmp': '', 'sub/x.ts': '', 'other/y.tmp': '' });
    writeTree(root, { '.gitignore': '*.tmp\n', 'sub/untracked.tmp': '' });
    git(root, 'update-index', '--index-version', version);
    // Version 3 only appears with extended flags: an intent-to-add entry has them.
    writeTree(root, { 'sub/intent.tmp': '' });
    git(root, 'add', '-f', '-N', 'sub/intent.tmp');
    t.deepEqual([...scan(root).paths].sort(), gitListing(root));
    t.deepEqual([...scan(join(root, 'sub')).paths].sort(), gitListing(join(root, 'sub')));
  });
}

test('scans of repositories with a large and a small git index one after another each read their own index', (t) => {
  const many: Record<string, string> = {};
  for (let i = 0; i < 400; i++) many[`pkg${i % 7}/file-with-a-long-name-${i}.tmp`] = '';
  const large = oracleRepo({ ...many, 'z.ts': '' });
  writeTree(large, { '.gitignore': '*.tmp\n', 'pkg0/untracked.tmp': '' });
  const small = oracleRepo({ 'a.tmp': '', 'b.ts': '' });
  writeTree(small, { '.gitignore': '*.tmp\n', 'c.tmp': '' });
  for (const root of [large, small, large, small]) t.deepEqual([...scan(root).paths].sort(), gitListing(root));
  t.deepEqual([...scan(small).paths].sort(), ['.gitignore', 'a.tmp', 'b.ts']);
});

test('folders whose .gitignore files are copies of one another each apply them in their own scope', (t) => {
  const same = '/top.txt\n*.gen\n!keep.gen\nsub/\n';
  const root = oracleRepo({ 'src/a.ts': '' });
  writeTree(root, {
    'a/.gitignore': same, 'a/top.txt': '', 'a/x.gen': '', 'a/keep.gen': '', 'a/sub/s.txt': '', 'a/deeper/top.txt': '',
    'b/c/.gitignore': same, 'b/c/top.txt': '', 'b/c/y.gen': '', 'b/c/keep.gen': '', 'b/c/sub/s.txt': '', 'b/top.txt': '',
  });
  const paths = scan(root).paths;
  t.deepEqual([...paths].sort(), gitListing(root));
  t.true(paths.includes('a/deeper/top.txt') && paths.includes('b/top.txt') && paths.includes('b/c/keep.gen'));
  t.false(paths.includes('a/top.txt') || paths.includes('b/c/top.txt') || paths.includes('b/c/y.gen'));
});

test('a tracked file deleted from the work tree is not listed (git --cached would list it)', (t) => {
  const root = oracleRepo({ 'a.txt': '', 'gone.txt': '' });
  rmSync(join(root, 'gone.txt'));
  t.deepEqual(scan(root).paths, ['a.txt']);
  t.true(gitListing(root).includes('gone.txt'));
});

/** The part of an index under `folder/`, relative to it. */
function under(paths: string[], folder: string): string[] {
  return paths.filter((path) => path.startsWith(`${folder}/`)).map((path) => path.slice(folder.length + 1)).sort();
}

test('a nested repository starts afresh: outer rules stop at its top and its own info/exclude applies', (t) => {
  const outer = oracleRepo({ '.gitignore': '*.log\n', 'a.txt': '', 'b.log': '' });
  const inner = join(outer, 'inner');
  writeTree(inner, { '.gitignore': '*.tmp\n', 'x.log': '', 'y.tmp': '', 'secret.txt': '', 'keep.txt': '', 'deep/z.log': '' });
  git(inner, 'init', '-q');
  writeTree(inner, { '.git/info/exclude': 'secret.txt\n' });
  const paths = scan(outer).paths;
  t.deepEqual(under(paths, 'inner'), gitListing(inner));
  t.deepEqual(under(paths, 'inner'), ['.gitignore', 'deep/z.log', 'keep.txt', 'x.log']);
  // git run outside lists the nested repository as one entry, `inner/`.
  t.deepEqual(paths.filter((path) => !path.startsWith('inner/')).sort(), gitListing(outer).filter((path) => path !== 'inner/'));
});

test('in a folder of repositories each one is indexed as git sees it from inside', (t) => {
  const root = tempDir();
  const repos = {
    one: { '.gitignore': 'gen/\n', 'src/a.ts': '', 'gen/b.ts': '' },
    two: { '.gitignore': '*.js\n!keep.js\n', 'x.js': '', 'keep.js': '', 'lib/y.js': '' },
  };
  for (const [name, tree] of Object.entries(repos)) {
    writeTree(join(root, name), tree);
    git(join(root, name), 'init', '-q');
  }
  writeTree(root, { 'notes.txt': '', 'one/.git/info/exclude': 'src/\n' });
  const paths = scan(root).paths;
  t.deepEqual(under(paths, 'one'), gitListing(join(root, 'one')));
  t.deepEqual(under(paths, 'two'), gitListing(join(root, 'two')));
  t.deepEqual(under(paths, 'one'), ['.gitignore']);
  t.true(paths.includes('notes.txt'));
});
