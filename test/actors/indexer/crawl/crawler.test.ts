import test from 'ava';
import { lstatSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { scan } from '../../../../actors/indexer/scan.js';
import { git, gitListing, oracleRepo } from '../../../helpers/git-oracle.js';
import { writeTree } from '../../../helpers/temp.js';
import { call } from '../../tool-executor/harness.js';

/**
 * The index (file index, repo map candidates, `@`-completion) and the tools (`list`, `glob`,
 * `grep`) walk the tree with one crawler; here both are held against git on a tree with every
 * case where two crawlers used to part: tracked files an ignore rule matches, nested `.gitignore`
 * files with negations, and symlinks to files, to folders, in loops and to nowhere.
 */

/** Every file's text is its path, so `grep .` finds each regular file once. */
function contentsOf(paths: string[]): Record<string, string> {
  return Object.fromEntries(paths.map((path) => [path, `${path}\n`]));
}

function agreementRepo(): string {
  const root = oracleRepo(
    contentsOf([
      'old.log', // tracked before the rule that matches it exists
      'src/a.ts',
      'src/important.tmp',
      'src/deep/kept.log',
      'docs/keep/guide.md',
      'docs/drop.md',
    ]),
    {},
    'excluded-by-info.txt\n',
  );
  writeTree(root, {
    '.gitignore': '*.log\n!keep.log\ngen/\nbuild-out/\n/top-only.txt\ncache/\n/docs/*\n!/docs/keep/\n',
    'src/.gitignore': '*.tmp\n!important.tmp\n',
    'src/deep/.gitignore': '!*.log\nsecret/\n',
    ...contentsOf([
      'new.log',
      'keep.log',
      'top-only.txt',
      'src/top-only.txt',
      'src/scratch.tmp',
      'src/deep/new.log',
      'src/deep/secret/s.txt',
      'gen/forced.ts',
      'gen/deep/forced.ts',
      'gen/other.ts',
      'gen/deep/other.ts',
      'build-out/keep/tracked.txt',
      'build-out/junk.bin',
      'excluded-by-info.txt',
      'docs/keep/new.md',
      'docs/new.md',
      'node_modules/pkg/index.js',
    ]),
  });
  symlinkSync('src/a.ts', join(root, 'link-to-file'));
  symlinkSync('src', join(root, 'link-to-dir'));
  symlinkSync('.', join(root, 'loop'));
  symlinkSync('..', join(root, 'src', 'back'));
  symlinkSync('missing-target', join(root, 'dangling'));
  symlinkSync('src', join(root, 'cache')); // `cache/` matches folders only: a symlink is no folder
  symlinkSync('src/a.ts', join(root, 'trace.log')); // `*.log` matches it like any file
  symlinkSync('../src/a.ts', join(root, 'gen', 'tracked-link'));
  git(root, 'add', '-f', 'gen/forced.ts', 'gen/deep/forced.ts', 'build-out/keep/tracked.txt', 'gen/tracked-link');
  git(root, 'commit', '-qm', 'forced');
  return root;
}

/** `list` output (an indented tree) back to the paths of its files and symlinks. */
function listedFiles(payload: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of payload.split('\n')) {
    const depth = (line.length - line.trimStart().length) / 2;
    const name = line.trimStart();
    stack.length = depth;
    if (name.endsWith('/')) stack.push(name.slice(0, -1));
    else out.push([...stack, name.endsWith('@') ? name.slice(0, -1) : name].join('/'));
  }
  return out.sort();
}

test('the index and the tools list the same tree as git: tracked-but-ignored files, nested negations, symlinks', async (t) => {
  const root = agreementRepo();
  const oracle = gitListing(root);
  // The cases the tree was made for are all in git's listing, or all out of it.
  for (const path of ['old.log', 'gen/forced.ts', 'gen/deep/forced.ts', 'gen/tracked-link', 'build-out/keep/tracked.txt', 'src/deep/new.log', 'docs/keep/new.md', 'cache', 'loop', 'src/back', 'dangling', 'link-to-dir']) {
    t.true(oracle.includes(path), `git lists ${path}`);
  }
  for (const path of ['new.log', 'trace.log', 'gen/other.ts', 'build-out/junk.bin', 'src/scratch.tmp', 'src/deep/secret/s.txt', 'docs/new.md', 'top-only.txt', 'excluded-by-info.txt']) {
    t.false(oracle.includes(path), `git leaves out ${path}`);
  }
  t.true(oracle.includes('src/top-only.txt'), 'an anchored rule holds at its own level only');

  const index = scan(root);
  t.deepEqual([...index.paths].sort(), oracle, 'the file index');

  const glob = await call(root, 'glob', { pattern: '**' });
  t.is(glob.status, 'done');
  t.deepEqual(glob.payload.split('\n').sort(), oracle, 'glob **');

  const list = await call(root, 'list', { depth: 5 });
  t.is(list.status, 'done');
  t.deepEqual(listedFiles(list.payload), oracle, 'list, depth 5');

  const grep = await call(root, 'grep', { pattern: '.' });
  t.is(grep.status, 'done');
  const grepped = [...new Set(grep.payload.split('\n').map((line) => line.slice(0, line.indexOf(':'))))].sort();
  // grep reads regular files; a symlink is an entry of its own, never followed.
  t.deepEqual(grepped, oracle.filter((path) => !lstatSync(join(root, path)).isSymbolicLink()), 'grep .');
});

test('from a subfolder the index and the tools still agree with git run there', async (t) => {
  const root = agreementRepo();
  const sub = join(root, 'src');
  const oracle = gitListing(sub);
  t.true(oracle.includes('deep/kept.log') && oracle.includes('important.tmp') && !oracle.includes('scratch.tmp'));
  t.deepEqual([...scan(sub).paths].sort(), oracle, 'the index of src/');
  const glob = await call(root, 'glob', { pattern: '**', path: 'src' });
  t.deepEqual(glob.payload.split('\n').map((path) => path.slice('src/'.length)).sort(), oracle, 'glob ** in src/');
  const list = await call(root, 'list', { path: 'src', depth: 5 });
  t.deepEqual(listedFiles(list.payload), oracle, 'list src/');
});

test('an ignored folder holding tracked files: the index and the tools show those files, and list names it', async (t) => {
  const root = agreementRepo();
  const list = await call(root, 'list', { depth: 1 });
  const top = list.payload.split('\n');
  t.true(top.includes('gen/') && top.includes('build-out/'), 'folders with tracked files are listed');
  t.false(top.includes('node_modules/'));
  const glob = await call(root, 'glob', { pattern: 'gen/**' });
  t.deepEqual(glob.payload.split('\n'), ['gen/deep/forced.ts', 'gen/forced.ts', 'gen/tracked-link']);
  const grep = await call(root, 'grep', { pattern: 'forced', path: 'gen' });
  // Named explicitly, an ignored folder is searched whole (SPEC §2).
  t.deepEqual(grep.payload.split('\n').map((line) => line.slice(0, line.indexOf(':'))).sort(), ['gen/deep/forced.ts', 'gen/forced.ts']);
  t.regex(grep.summary, /gen is ignored by the project's rules but searched because it was named/);
});
