import test from 'ava';
import { readFileSync } from 'node:fs';
import { IndexerPool } from '../../../../actors/indexer/pool.js';
import type { RepoMapFile } from '../../../../actors/indexer/protocol.js';
import { buildRepoMap, lineOf } from '../../../../actors/indexer/repo-map.js';
import { scanAndMap } from '../../../../actors/indexer/scan-and-map.js';
import { tempDir, writeTree } from '../../../helpers/temp.js';
import { pinnedTree } from './pinned-tree.js';

/**
 * The repo map's ranking was checked once against real import graphs (precision at 50, measured
 * outside the repo; see the commit that added the importer count). Speed work must not change it:
 * this pins every ranked line of one fixture tree — order, score and names — as that ranking
 * gave them. Regenerate the fixture only for a change meant to alter the ranking, and measure
 * the ranking again then.
 */

const PINNED = new URL('../../../../../test/fixtures/repo-map/pinned-ranking.txt', import.meta.url);

const lines = (ranked: RepoMapFile[]) => `${ranked.map((file) => `${file.score} ${lineOf(file)}`).join('\n')}\n`;

test('the ranked map of the fixture tree is the pinned one, line for line, in a thread of its own', (t) => {
  const root = writeTree(tempDir(), pinnedTree());
  const ranked = scanAndMap(root, { onIndex() {} });
  t.is(lines(ranked), readFileSync(PINNED, 'utf8'));
});

test('the pool, with its extraction batches over two threads, ranks the fixture tree the same', async (t) => {
  const root = writeTree(tempDir(), pinnedTree());
  const pool = new IndexerPool({ maxThreads: 2 });
  try {
    const index = await pool.scan(root);
    const map = await buildRepoMap(pool, { root, paths: index.mapCandidates ?? index.paths, budgetTokens: 100_000 });
    t.is(lines(map.files), readFileSync(PINNED, 'utf8'));
  } finally {
    await pool.close();
  }
});
