import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StartupMessage, StartupWork } from '../../actors/indexer/startup-thread.js';
import type { FileIndex, RepoMapFile } from '../../actors/indexer/protocol.js';
import { gitRepo } from '../helpers/temp.js';
import { sampleRepo } from '../actors/indexer/repo-map-sample.js';

/**
 * What ships starts the startup indexer thread on one CommonJS file (scripts/bundle.mjs): a
 * CommonJS worker boots without Node's ES module loader. It must give what tsc's ES module entry
 * gives, and find its neighbours (build id, the `ignore` package) from where it lies.
 */

const bundled = new URL('../../bundle/workers/startup-entry.cjs', import.meta.url);
const unbundled = new URL('../../workers/startup-entry.js', import.meta.url);

/** Runs a startup thread entry on `work`; resolves with its index and ranked files. */
function runEntry(entry: URL, work: StartupWork): Promise<{ index: FileIndex; ranked: RepoMapFile[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: work });
    let index: FileIndex | undefined;
    worker.on('message', (message: StartupMessage) => {
      if (message.type === 'index') index = message.index;
      else if (message.type === 'ranked') resolve({ index: index!, ranked: message.ranked });
      else reject(new Error(message.message));
    });
    worker.on('error', reject);
    worker.on('exit', () => reject(new Error('the thread ended before it ranked the map')));
  });
}

test('the shipped startup thread entry is one CommonJS file that loads only Node built-ins and packages', (t) => {
  const text = readFileSync(fileURLToPath(bundled), 'utf8');
  t.notRegex(text, /^\s*(import|export)\s/m, 'no ES module syntax');
  const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]!);
  t.true(required.includes('node:worker_threads'));
  t.deepEqual(required.filter((name) => name.startsWith('.')), [], 'no chunk is required: everything is in the file');
});

test('the shipped startup thread gives the index and the ranked files that the unbundled entry gives', async (t) => {
  const root = gitRepo(sampleRepo({ packages: 6, modulesPerPackage: 5, testsPerPackage: 2 }));
  const work: StartupWork = { root, caps: { indexPaths: 1_000 } };
  const [fromBundle, fromModules] = await Promise.all([runEntry(bundled, work), runEntry(unbundled, work)]);
  t.true(fromBundle.index.paths.length > 30);
  t.deepEqual(fromBundle.index.paths, fromModules.index.paths);
  t.true(fromBundle.ranked.length > 0);
  t.is(JSON.stringify(fromBundle.ranked), JSON.stringify(fromModules.ranked));
});
