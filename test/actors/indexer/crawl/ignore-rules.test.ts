import test from 'ava';
import { join } from 'node:path';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { ALWAYS_SKIPPED, IgnoreRules } from '../../../../actors/indexer/crawl/ignore-rules.js';
import { tempDir, writeTree } from '../../../helpers/temp.js';
import { everyFile, git, gitHome, gitListing, gitLsFiles, oracleRepo, TRICKY_REPOS } from '../../../helpers/git-oracle.js';

/** The files isIgnored keeps when asked about every file on disk, path by path. */
function kept(root: string, rules = IgnoreRules.create(root)): string[] {
  return everyFile(root)
    .filter((path) => !rules.isIgnored(path, false))
    .sort();
}

for (const repo of TRICKY_REPOS) {
  test(`isIgnored agrees with git ls-files on ${repo.title}`, (t) => {
    const root = oracleRepo(repo.committed, repo.untracked, repo.exclude);
    t.deepEqual(kept(root), gitListing(root));
  });
}

test('a subfolder root applies the ignore files above it and info/exclude', (t) => {
  const root = oracleRepo(
    { '.gitignore': '*.gen\nsub/skip/\n', 'sub/.gitignore': '!keep.gen\n', 'sub/a.gen': '', 'sub/keep.gen': '', 'sub/skip/x': '', 'sub/ok.txt': '', 'sub/info.txt': '' },
    {},
    'sub/info.txt\n',
  );
  const sub = join(root, 'sub');
  t.deepEqual(kept(sub), gitListing(sub));
  t.deepEqual(kept(sub), ['.gitignore', 'keep.gen', 'ok.txt']);
});

test('outside a git repository the .gitignore files are honoured anyway', (t) => {
  const root = writeTree(tempDir(), {
    '.gitignore': '*.tmp\n',
    'a.tmp': '',
    'a.txt': '',
    'deep/.gitignore': '!b.tmp\n',
    'deep/b.tmp': '',
    'deep/c.tmp': '',
    'node_modules/x.js': '',
  });
  t.deepEqual(kept(root), ['.gitignore', 'a.txt', 'deep/.gitignore', 'deep/b.tmp']);
});

test('a folder excluded by a parent rule hides its files whatever deeper rules say', (t) => {
  const root = writeTree(tempDir(), { '.gitignore': 'gone/\n', 'gone/.gitignore': '!*\n', 'gone/a.txt': '' });
  const rules = IgnoreRules.create(root);
  t.true(rules.isIgnored('gone', true));
  t.true(rules.isIgnored('gone/a.txt', false));
  t.true(rules.isIgnored('gone/deeper/b.txt', false));
});

test('always-skipped names are folders only, except .git which is skipped as a file too', (t) => {
  const root = tempDir();
  const rules = IgnoreRules.create(root);
  for (const name of ALWAYS_SKIPPED) {
    t.true(rules.isIgnored(name, true), name);
    t.true(rules.isIgnored(`a/${name}/x.js`, false), name);
  }
  t.false(rules.isIgnored('build', false));
  t.false(rules.isIgnored('src/out', false));
  t.true(rules.isIgnored('.git', false));
});

test('a symlinked .gitignore is not followed, as git does not follow it', (t) => {
  const root = oracleRepo({ 'rules.txt': 'a.txt\n', 'a.txt': '', 'b.txt': '' });
  symlinkSync('rules.txt', join(root, '.gitignore'));
  const git = gitLsFiles(root);
  t.regex(git.warnings, /unable to access '\.gitignore'/, 'git refuses the symlink (and says so)');
  t.deepEqual(kept(root), git.paths);
  t.false(IgnoreRules.create(root).isIgnored('a.txt', false));
});

test('a symlinked info/exclude is followed, as git follows it', (t) => {
  const root = oracleRepo({ 'b.txt': '' });
  const shared = writeTree(tempDir(), { 'exclude': 'a.txt\n*.log\n' });
  rmSync(join(root, '.git', 'info', 'exclude'), { force: true });
  symlinkSync(join(shared, 'exclude'), join(root, '.git', 'info', 'exclude'));
  writeTree(root, { 'a.txt': '', 'd.log': '', 'e.txt': '' });
  const git = gitLsFiles(root);
  t.deepEqual(kept(root), git.paths);
  t.deepEqual(kept(root), ['b.txt', 'e.txt']);
  t.is(git.warnings, '');
});

test("the user's excludes file is followed through symlinks: a linked XDG default, and a core.excludesFile that is a link", (t) => {
  const dotfiles = writeTree(tempDir(), { 'gitignore': '*.swp\n', 'other-ignore': '*.orig\n' });
  const user = gitHome();
  mkdirSync(join(user.xdgConfigHome, 'git'), { recursive: true });
  symlinkSync(join(dotfiles, 'gitignore'), join(user.xdgConfigHome, 'git', 'ignore'));
  const root = oracleRepo({ 'x.txt': '' }, { 'a.swp': '', 'b.orig': '', 'c.txt': '' });
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), gitListing(root, user));
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), ['b.orig', 'c.txt', 'x.txt']);

  symlinkSync(join(dotfiles, 'other-ignore'), join(user.home, '.excludes-link'));
  writeTree(user.home, { '.gitconfig': '[core]\n\texcludesFile = ~/.excludes-link\n' });
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), gitListing(root, user));
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), ['a.swp', 'c.txt', 'x.txt']);
});

test('a linked worktree finds info/exclude in the common git directory', (t) => {
  const main = oracleRepo({ 'a.txt': '', 'b.txt': '' }, {}, 'b.txt\n');
  const worktree = join(tempDir(), 'wt');
  git(main, 'worktree', 'add', '-q', worktree);
  writeFileSync(join(worktree, 'c.txt'), '');
  t.deepEqual(kept(worktree), gitListing(worktree));
  t.true(IgnoreRules.create(worktree).isIgnored('b.txt', false));
});

test('the scanner can tell the rules which folders have an ignore file, and stop discovery', (t) => {
  const root = writeTree(tempDir(), { '.gitignore': 'a.txt\n', 'one/.gitignore': 'b.txt\n', 'two/.gitignore': 'c.txt\n' });
  mkdirSync(join(root, 'three'));
  const rules = IgnoreRules.create(root);
  rules.noteFolder('', true);
  rules.noteFolder('one', true);
  rules.stopDiscovery();
  t.true(rules.isIgnored('a.txt', false));
  t.true(rules.isIgnored('one/b.txt', false));
  t.false(rules.isIgnored('two/c.txt', false), 'two/.gitignore was found after discovery stopped');
  t.is(rules.loadedFiles, 2);
});

test("the user's ignore file (XDG default) ranks below info/exclude and .gitignore, as in git", (t) => {
  const user = gitHome();
  writeTree(user.xdgConfigHome, { 'git/ignore': '*.personal\n!b.txt\nscratch/\n' });
  const root = oracleRepo({ '.gitignore': '!c.personal\n', 'x.txt': '' }, { 'a.personal': '', 'b.txt': '', 'c.personal': '', 'scratch/s.txt': '' }, 'b.txt\n');
  const rules = IgnoreRules.create(root, user);
  t.deepEqual(kept(root, rules), gitListing(root, user));
  t.deepEqual(kept(root, rules), ['.gitignore', 'c.personal', 'x.txt']);
});

test('core.excludesFile in ~/.gitconfig, quoted with a comment and ~, is found and overridden by the repo config', (t) => {
  const user = gitHome();
  writeTree(user.home, {
    '.gitconfig': '[user]\n\tname = t\n[core]\n\texcludesFile = "~/my ignore" ; personal rules\n',
    'my ignore': '*.mine\n',
    'other-ignore': '*.other\n',
  });
  const root = oracleRepo({ 'x.txt': '' }, { 'a.mine': '', 'b.other': '' });
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), gitListing(root, user));
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), ['b.other', 'x.txt']);
  git(root, 'config', 'core.excludesFile', join(user.home, 'other-ignore'));
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), gitListing(root, user));
  t.deepEqual(kept(root, IgnoreRules.create(root, user)), ['a.mine', 'x.txt']);
});

test('isIgnored finds a nested repository by itself: the outer rules stop at its top', (t) => {
  const outer = oracleRepo({ '.gitignore': '*.log\n', 'b.log': '' });
  const inner = join(outer, 'inner');
  writeTree(inner, { 'x.log': '', 'secret.txt': '' });
  git(inner, 'init', '-q');
  writeTree(inner, { '.git/info/exclude': 'secret.txt\n' });
  const rules = IgnoreRules.create(outer);
  t.true(rules.isIgnored('b.log', false));
  t.false(rules.isIgnored('inner/x.log', false));
  t.true(rules.isIgnored('inner/secret.txt', false));
  t.true(rules.isIgnored('inner/.git/config', false));
});
