import test from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { IndexerPool } from '../../../../actors/indexer/pool.js';
import { buildRepoMap, lineOf } from '../../../../actors/indexer/repo-map.js';
import { mentionedFiles } from '../../../../actors/indexer/map/mentions.js';
import { scanAndMap } from '../../../../actors/indexer/scan-and-map.js';
import { renderRepoMap } from '../../../../actors/indexer/render-map.js';
import { roleOf } from '../../../../actors/indexer/map/file-role.js';
import { gitRepo, tempDir, writeTree } from '../../../helpers/temp.js';
import { sampleRepo } from '../repo-map-sample.js';

const MAPPED = ['src/app.ts', 'src/store/index.ts', 'src/store/keys.ts', 'lib/keys.py', 'pkg/core/util.ts', 'pkg/core/run.go', 'README.ts', 'docs/a.ts'];

test('AGENTS.md names files by their paths: plain, in backticks or links, with a line number, or by a file name only one file has', (t) => {
  const root = gitRepo({});
  const content = [
    'Start at `src/app.ts`, see [the store](./src/store/index.ts) and pkg/core/util.ts:42.',
    'keys.ts is ambiguous? No: keys.py is the only one. run.go. app, store and src/ are no files.',
    'Absolute /src/app.ts, climbing ../docs/a.ts and docs/missing.ts name nothing new.',
  ].join('\n');
  t.deepEqual(mentionedFiles(root, MAPPED, [{ path: 'AGENTS.md', content }]), ['src/app.ts', 'src/store/index.ts', 'src/store/keys.ts', 'lib/keys.py', 'pkg/core/util.ts', 'pkg/core/run.go']);
  t.deepEqual(mentionedFiles(root, MAPPED, [{ path: 'AGENTS.md', content: 'keys.ts twice: src/store/keys.ts is one, a/keys.ts another' }]), ['src/store/keys.ts']);
  t.deepEqual(mentionedFiles(root, MAPPED, []), []);
});

test('paths from the repository’s top, or from a nested AGENTS.md’s folder, name the files of a session started below the top', (t) => {
  const top = gitRepo({ 'pkg/core/util.ts': '', 'pkg/core/run.go': '' });
  const root = join(top, 'pkg');
  const files = [
    { path: 'AGENTS.md', content: 'The core: pkg/core/util.ts; the app (not below pkg/): src/app.ts' },
    { path: 'pkg/AGENTS.md', content: 'Here: core/run.go' },
  ];
  t.deepEqual(mentionedFiles(root, ['core/util.ts', 'core/run.go', 'src/app.ts'], files), ['core/util.ts', 'core/run.go']);
});

/** The sample repository, and its core (not test, not generated) module that ranks last. */
function sampleWith(): { root: string; leaf: string } {
  const tree = sampleRepo({ packages: 6, modulesPerPackage: 12, testsPerPackage: 2 });
  const root = writeTree(tempDir(), tree);
  const core = scanAndMap(root, { onIndex() {} }).filter((file) => roleOf(file.path) === 'core');
  return { root, leaf: core[core.length - 1]!.path };
}

test('a file AGENTS.md names ranks into the map, where it was not before; the same in a thread and through the pool', async (t) => {
  const { root, leaf } = sampleWith();
  const before = renderRepoMap(scanAndMap(root, { onIndex() {} }), 600).text;
  t.false(before.includes(leaf), 'the file is out of the map without AGENTS.md');
  writeTree(root, { 'AGENTS.md': `# Notes\nThe module to know first: \`${leaf}\`.\n` });
  const ranked = scanAndMap(root, { onIndex() {} });
  t.true(renderRepoMap(ranked, 600).text.includes(leaf), 'named by AGENTS.md, it is in the map');
  t.true(ranked.findIndex((file) => file.path === leaf) < 10);
  const pool = new IndexerPool({ maxThreads: 2 });
  try {
    const index = await pool.scan(root);
    const map = await buildRepoMap(pool, { root, paths: index.mapCandidates ?? index.paths, budgetTokens: 100_000 });
    t.deepEqual(map.files.map(lineOf), ranked.map(lineOf));
  } finally {
    await pool.close();
  }
});

test('AGENTS.md without a file name leaves the ranking as it was', (t) => {
  const { root } = sampleWith();
  const before = scanAndMap(root, { onIndex() {} });
  mkdirSync(join(root, 'notes'));
  writeTree(root, { 'AGENTS.md': 'Run the tests before you commit. Keep functions small.\n' });
  t.deepEqual(scanAndMap(root, { onIndex() {} }), before);
});
