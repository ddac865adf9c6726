import test from 'ava';
import { TrackedPaths } from '../../../../actors/indexer/crawl/git-index.js';
import { findGitDir } from '../../../../actors/indexer/crawl/ignore-files.js';
import { git, gitRepo } from '../../../helpers/temp.js';

const TRACKED = ['a/b.txt', 'a/bc.txt', 'a-b/x.txt', 'a.b', 'ab/c/d.txt', 'café/menu.txt', 'naïve.md', 'z', 'zz/日本/語.txt', 'über/x'];

/** What git itself says is tracked: the files, and every folder above one. */
function gitTracked(root: string): { files: Set<string>; folders: Set<string> } {
  const files = new Set(git(root, '-c', 'core.quotepath=false', 'ls-files').split('\n').filter(Boolean));
  const folders = new Set<string>();
  for (const file of files) for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) folders.add(file.slice(0, at));
  return { files, folders };
}

test('tracked files and folders are found by byte order, ASCII and UTF-8 names alike, prefixes and near misses not', (t) => {
  const root = gitRepo(Object.fromEntries(TRACKED.map((path) => [path, 'x\n'])));
  const tracked = TrackedPaths.read({ ...findGitDir(root)!, prefix: '' })!;
  const { files, folders } = gitTracked(root);
  t.is(files.size, TRACKED.length);
  const probes = new Set<string>(['', 'a', 'a/b', 'a/b.tx', 'a/b.txt/', 'ab', 'ab/c', 'a-b', 'caf', 'café', 'cafe', 'naïve', 'naïve.md', 'zz/日本', 'zz/日', 'über', 'uber', 'zzz', '~']);
  for (const path of TRACKED) {
    probes.add(path);
    probes.add(`${path}x`);
    probes.add(path.slice(0, -1));
  }
  for (const probe of probes) {
    t.is(tracked.has(probe, false), files.has(probe), `file ${probe}`);
    t.is(tracked.has(probe, true), folders.has(probe), `folder ${probe}`);
  }
});

test('a scan root below the repository top looks paths up below its prefix', (t) => {
  const root = gitRepo(Object.fromEntries(TRACKED.map((path) => [path, 'x\n'])));
  const tracked = TrackedPaths.read({ ...findGitDir(root)!, prefix: 'zz' })!;
  t.true(tracked.has('日本/語.txt', false));
  t.true(tracked.has('日本', true));
  t.false(tracked.has('a/b.txt', false));
});
