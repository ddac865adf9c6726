import test from 'ava';
import { readdirSync, readFileSync, renameSync, utimesSync, writeFileSync, appendFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheFile, loadBootstrap, RACY_MS } from '../../../actors/indexer/bootstrap-cache.js';
import type { FileIndex, RepoMapFile } from '../../../actors/indexer/protocol.js';
import { renderRepoMap } from '../../../actors/indexer/render-map.js';
import { cachedScanAndMap, scanAndMap } from '../../../actors/indexer/scan-and-map.js';
import { git, gitRepo, tempDir } from '../../helpers/temp.js';

/**
 * The bootstrap cache: a hit gives the bytes a fresh scan gives; every change to what the index
 * and the map were read from is a miss; a broken cache file is a silent miss. The trees are dated
 * in the past (as a tree is when a session starts in it) and the scans are dated by a clock of
 * their own, so no test waits for the file system's clock to move on.
 */

const OLD = new Date('2024-01-01T00:00:00Z');

/** Every file and folder of `root`, `.git` included, dated in the past (their ctime stays "now"). */
function age(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) age(path);
    utimesSync(path, OLD, OLD);
  }
  utimesSync(root, OLD, OLD);
}

function project(): string {
  const root = gitRepo({
    '.gitignore': 'logs/\n',
    'package.json': '{"name":"p"}\n',
    'src/a.ts': 'export function alpha() {}\nexport const shared = 1;\n',
    'src/b.ts': "import { alpha } from './a.js';\nexport function beta() { return alpha(); }\n",
    'src/deep/c.py': 'def gamma():\n    pass\n',
    'lib/d.go': 'package lib\n\nfunc Delta() {}\n',
    'logs/x.log': 'ignored\n',
  });
  age(root);
  return root;
}

interface Run {
  index: FileIndex;
  ranked: RepoMapFile[];
  hit: boolean;
}

/** The cached path, its clock after the tree's ctimes (so the scan is not "racy"). */
function run(root: string, stateHome: string, build = 'test-build', now = () => Date.now() + 10 * RACY_MS): Run {
  let index: FileIndex | undefined;
  let ranked: RepoMapFile[] | undefined;
  const hit = cachedScanAndMap(root, { onIndex: (i) => (index = i), onRanked: (r) => (ranked = r), cache: { stateHome, build }, now });
  return { index: index!, ranked: ranked!, hit };
}

function fresh(root: string): { index: FileIndex; ranked: RepoMapFile[] } {
  let index: FileIndex | undefined;
  const ranked = scanAndMap(root, { onIndex: (i) => (index = i) });
  return { index: index!, ranked };
}

/** What reaches the system prompt (the scan's own duration does not). */
const bytes = (result: { index: FileIndex; ranked: RepoMapFile[] }) =>
  JSON.stringify({ paths: result.index.paths, capped: result.index.capped, mapCandidates: result.index.mapCandidates, map: renderRepoMap(result.ranked, 3_200).text });

test('an unchanged tree is answered from the cache with the very bytes a fresh scan gives', (t) => {
  const root = project();
  const state = tempDir('reika-state-');
  const first = run(root, state);
  t.false(first.hit);
  const second = run(root, state);
  t.true(second.hit);
  t.is(bytes(second), bytes(first));
  t.is(bytes(second), bytes(fresh(root)));
  t.deepEqual(second.index, first.index);
  t.true(renderRepoMap(second.ranked, 3_200).text.includes('alpha'));
});

const changes: [title: string, change: (root: string) => void][] = [
  ['a file added in a subfolder', (root) => writeFileSync(join(root, 'src/deep/new.ts'), 'export const fresh = 1;\n')],
  ['a file renamed', (root) => renameSync(join(root, 'src/b.ts'), join(root, 'src/bee.ts'))],
  ['a file removed', (root) => rmSync(join(root, 'lib/d.go'))],
  ['a source file edited (same size)', (root) => writeFileSync(join(root, 'src/a.ts'), 'export function omega() {}\nexport const shared = 1;\n')],
  ['a source file edited (longer)', (root) => appendFileSync(join(root, 'src/deep/c.py'), '\ndef epsilon():\n    pass\n')],
  ['.gitignore changed', (root) => writeFileSync(join(root, '.gitignore'), 'logs/\nlib/\n')],
  ['a .gitignore added in a subfolder', (root) => writeFileSync(join(root, 'src/.gitignore'), 'deep/\n')],
  ['.git/info/exclude changed', (root) => appendFileSync(join(root, '.git', 'info', 'exclude'), 'src/b.ts\n')],
  ['a file staged (git add)', (root) => (writeFileSync(join(root, 'logs/keep.log'), 'x\n'), git(root, 'add', '-f', 'logs/keep.log'))],
  ['the branch switched (same commit)', (root) => git(root, 'checkout', '-q', '-b', 'other')],
  [
    'the branch switched (other files)',
    (root) => {
      git(root, 'checkout', '-q', '-b', 'feature');
      writeFileSync(join(root, 'lib/e.go'), 'package lib\n\nfunc Epsilon() {}\n');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'feature');
      git(root, 'checkout', '-q', 'main');
      age(root);
      git(root, 'checkout', '-q', 'feature');
    },
  ],
];

for (const [title, change] of changes) {
  test(`${title}: the cache misses and the result is the fresh scan's`, (t) => {
    const root = project();
    const state = tempDir('reika-state-');
    run(root, state);
    t.true(run(root, state).hit, 'the unchanged tree hits first');
    change(root);
    const after = run(root, state);
    t.false(after.hit);
    t.is(bytes(after), bytes(fresh(root)));
    // The new tree is cached in turn.
    t.true(run(root, state).hit);
  });
}

test('a corrupt or foreign cache file is a silent miss, and is replaced by a good one', (t) => {
  const root = project();
  const state = tempDir('reika-state-');
  run(root, state);
  const file = cacheFile(root, state);
  for (const garbage of ['{"format":1,"watched":', 'null', '[]', '{"format":1,"build":"test-build","root":"x"}', '\u0000\u0001binary', JSON.stringify({ format: 1, build: 'test-build', root, caps: {}, watched: { paths: ['src'], stamps: [] }, index: {}, ranked: 5 })]) {
    writeFileSync(file, garbage);
    const result = run(root, state);
    t.false(result.hit);
    t.is(bytes(result), bytes(fresh(root)));
    t.true(run(root, state).hit);
  }
});

test('stamps whose result file is missing, corrupt or of another save are a silent miss', (t) => {
  const root = project();
  const state = tempDir('reika-state-');
  run(root, state);
  const result = join(dirname(cacheFile(root, state)), 'result.json');
  const good = readFileSync(result, 'utf8');
  const other = JSON.stringify({ ...JSON.parse(good), id: 'another-save' });
  for (const spoil of [() => rmSync(result), () => writeFileSync(result, '{"id":'), () => writeFileSync(result, other)]) {
    spoil();
    const missed = run(root, state);
    t.false(missed.hit);
    t.is(bytes(missed), bytes(fresh(root)));
    t.true(run(root, state).hit, 'the miss wrote a whole entry again');
  }
});

test('a cache written by another build is a miss', (t) => {
  const root = project();
  const state = tempDir('reika-state-');
  run(root, state, 'build-a');
  t.true(run(root, state, 'build-a').hit);
  t.false(run(root, state, 'build-b').hit);
  t.is(loadBootstrap(root, { stateHome: state, build: 'build-a' }), undefined, 'build-b replaced the entry');
});

test('a tree changed just before the scan is used but not cached (its stamps could hide a change)', (t) => {
  const root = project();
  const state = tempDir('reika-state-');
  writeFileSync(join(root, 'src/just-now.ts'), 'export const now = 1;\n');
  // Dated by the real clock: the folder's new time is within RACY_MS of the scan's start.
  const first = run(root, state, 'test-build', Date.now);
  t.false(first.hit);
  t.true(first.index.paths.includes('src/just-now.ts'));
  t.false(run(root, state).hit);
});

test('each project root has an entry of its own', (t) => {
  const one = project();
  const two = project();
  writeFileSync(join(two, 'lib/only-two.go'), 'package lib\n\nfunc Two() {}\n');
  age(two);
  const state = tempDir('reika-state-');
  run(one, state);
  run(two, state);
  t.true(run(one, state).hit);
  t.true(run(two, state).hit);
  t.is(run(two, state).index.root, two);
  t.not(bytes(run(one, state)), bytes(run(two, state)));
  t.is(bytes(run(two, state)), bytes(fresh(two)));
});

test('REIKA_BOOTSTRAP_CACHE=off neither reads nor writes the cache', (t) => {
  const root = project();
  const state = tempDir('reika-state-');
  process.env.REIKA_BOOTSTRAP_CACHE = 'off';
  try {
    run(root, state);
    t.false(run(root, state).hit);
  } finally {
    delete process.env.REIKA_BOOTSTRAP_CACHE;
  }
  t.false(run(root, state).hit);
  t.true(run(root, state).hit);
});

test('an AGENTS.md edited, added, or added in a folder above the root is a miss: the ranking reads them', (t) => {
  const top = project();
  const state = tempDir('reika-state-');
  const before = run(top, state);
  t.false(before.hit);
  t.true(run(top, state).hit);
  writeFileSync(join(top, 'AGENTS.md'), 'Start with lib/d.go.\n');
  age(top);
  const named = run(top, state);
  t.false(named.hit, 'added');
  t.is(named.ranked[0]!.path, 'lib/d.go');
  t.not(before.ranked[0]!.path, 'lib/d.go');
  t.true(run(top, state).hit);
  writeFileSync(join(top, 'AGENTS.md'), 'Start with src/deep/c.py!\n');
  utimesSync(join(top, 'AGENTS.md'), OLD, OLD);
  const edited = run(top, state);
  t.false(edited.hit, 'edited in place');
  t.notDeepEqual(edited.ranked, named.ranked, 'another file named, another ranking');
  const below = join(top, 'src');
  t.false(run(below, state).hit);
  t.true(run(below, state).hit);
  writeFileSync(join(top, 'AGENTS.md'), 'Start with src/a.ts.\n');
  utimesSync(join(top, 'AGENTS.md'), OLD, OLD);
  t.false(run(below, state).hit, 'one above the root');
});
