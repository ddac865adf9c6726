import test from 'ava';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_GITIGNORE_DIRECTORIES, MAX_INDEX_PATHS, MAX_MAP_DIRECTORIES, MAX_MAP_FILES } from '../../../actors/indexer/caps.js';
import { scan } from '../../../actors/indexer/scan.js';
import { tempDir } from '../../helpers/temp.js';
import { everyFile } from '../../helpers/git-oracle.js';

const depth = (path: string) => path.split('/').length;

/**
 * A tree past every cap: 20 × 20 × 12 = 4,800 third-level folders (5,220 in all), each with a
 * source file and two others (15,660 files, 5,220 of them source).
 */
function bigTree(): string {
  const root = tempDir('reika-caps-');
  const touch = (path: string) => closeSync(openSync(path, 'w'));
  for (let a = 0; a < 20; a++) {
    const levelA = join(root, `a${a}`);
    mkdirSync(levelA);
    for (const name of ['m.ts', 'n.md', 'o.json']) touch(join(levelA, name));
    for (let b = 0; b < 20; b++) {
      const levelB = join(levelA, `b${b}`);
      mkdirSync(levelB);
      for (const name of ['m.ts', 'n.md', 'o.json']) touch(join(levelB, name));
      for (let c = 0; c < 12; c++) {
        const levelC = join(levelB, `c${c}`);
        mkdirSync(levelC);
        for (const name of ['m.ts', 'n.md', 'o.json']) touch(join(levelC, name));
      }
    }
  }
  return root;
}

const root = bigTree();

test('a tree past every cap yields 10,000 paths, shallow-first, and names the caps it hit', (t) => {
  const index = scan(root);
  t.is(index.paths.length, MAX_INDEX_PATHS);
  t.is(new Set(index.paths).size, index.paths.length);
  const kept = new Set(index.paths);
  const dropped = everyFile(root).filter((path) => !kept.has(path));
  t.true(dropped.length > 0);
  const shallowestDropped = Math.min(...dropped.map(depth));
  const deepestKept = Math.max(...index.paths.map(depth));
  t.true(deepestKept <= shallowestDropped + 1, `kept depth ${deepestKept}, dropped from depth ${shallowestDropped}`);
  for (let i = 1; i < index.paths.length; i++) t.true(depth(index.paths[i - 1]!) <= depth(index.paths[i]!));
  t.true(index.capped.includes('files'));
  t.true(index.capped.includes('gitignore-directories'));
  t.true(index.capped.includes('map-files'));
  t.is(index.mapCandidates!.length, MAX_MAP_FILES);
  t.true(index.mapCandidates!.every((path) => path.endsWith('.ts')));
  t.true(index.stats.directories <= MAX_MAP_DIRECTORIES);
  t.true(index.stats.directories > MAX_GITIGNORE_DIRECTORIES);
});

test('with room for more map files, the 4,000-folder map cap is the one reported', (t) => {
  const index = scan(root, { mapFiles: 10_000 });
  t.true(index.capped.includes('map-directories'));
  t.false(index.capped.includes('map-files'));
  t.is(index.stats.directories, MAX_MAP_DIRECTORIES);
  t.is(index.mapCandidates!.length, MAX_MAP_DIRECTORIES - 1, 'one source file per folder read but the root');
});

test('a tree within the caps is scanned whole and reports no cap', (t) => {
  const index = scan(join(root, 'a0', 'b0'));
  t.deepEqual(index.capped, []);
  t.is(index.paths.length, 3 + 12 * 3);
});

test('the folder guard stops a walk through folders that hold nothing', (t) => {
  const index = scan(root, { indexPaths: 1_000_000, mapFiles: 0, scanDirectories: 500 });
  t.is(index.stats.directories, 500);
  t.true(index.capped.includes('directories'));
});

test('.gitignore files past the discovery cap are not read', (t) => {
  const small = tempDir();
  // Each folder ignores its own x.log; with the root counted, only a/ and b/ are discovered.
  for (const dir of ['a', 'b', 'c']) {
    mkdirSync(join(small, dir));
    writeFileSync(join(small, dir, 'x.log'), '');
    writeFileSync(join(small, dir, '.gitignore'), 'x.log\n');
  }
  const index = scan(small, { gitignoreDirectories: 3 });
  t.deepEqual(index.paths, ['a/.gitignore', 'b/.gitignore', 'c/.gitignore', 'c/x.log']);
  t.deepEqual(index.capped, ['gitignore-directories']);
});
