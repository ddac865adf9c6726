import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexerPool } from '../actors/indexer/pool.js';
import { buildRepoMap } from '../actors/indexer/repo-map.js';
import { startupThread } from '../actors/indexer/startup-thread.js';
import { writeTree } from '../test/helpers/temp.js';
import { sampleRepo } from '../test/actors/indexer/repo-map-sample.js';

// Repo map over ~3,000 real-looking source files (TypeScript, Python, Go; ~5 KB each), on the
// indexer pool with its default thread count, beside the plain scan of the same tree in the same
// pool. Target: ≤ 250 ms for 3,000 files.
//
// Beside the wall times, the process's CPU time for the map (all threads): on a loaded machine
// it moves far less than wall time, so runs at different loads compare by it.
//
// Also the cold case a process meets once: scan and map in a new thread (cold JIT), as `reika -p`
// does it (one startup thread scans, extracts and ranks) beside a new pool (scan task, then
// extraction batches over the pool's threads, then ranking), each started afresh per run.

const RUNS = 5;
const COLD_RUNS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU time of the whole process (all its threads), in ms: steadier than wall time on a loaded machine. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** CPU ms of the last `time` call. */
let lastCpu = 0;

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  const cpuStarted = cpuMs();
  await run();
  lastCpu = cpuMs() - cpuStarted;
  return performance.now() - started;
}

export default async function (): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'reika-bench-map-'));
  const pool = new IndexerPool();
  try {
    const tree = sampleRepo({ packages: 60, modulesPerPackage: 45, testsPerPackage: 5, functionsPerModule: 10 });
    writeTree(root, tree);
    const bytes = Object.values(tree).reduce((sum, text) => sum + text.length, 0);

    const firstScan = await time(() => pool.scan(root));
    const index = await pool.scan(root);
    const paths = index.mapCandidates ?? index.paths;
    const request = { root, paths, budgetTokens: 3_200 };
    const cold = await time(() => buildRepoMap(pool, request));
    const coldCpu = lastCpu;

    const scans: number[] = [];
    const maps: number[] = [];
    const mapCpu: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      scans.push(await time(() => pool.scan(root)));
      maps.push(await time(() => buildRepoMap(pool, request)));
      mapCpu.push(lastCpu);
    }
    const scan = median(scans);
    const map = median(maps);
    const threads = pool.threadCount;

    const freshPool: number[] = [];
    const freshThread: number[] = [];
    for (let run = 0; run < COLD_RUNS; run++) {
      freshPool.push(
        await time(async () => {
          const cold = new IndexerPool();
          try {
            const index = await cold.scan(root);
            await buildRepoMap(cold, { root, paths: index.mapCandidates ?? index.paths, budgetTokens: 3_200 });
          } finally {
            await cold.close();
          }
        }),
      );
      // Caps given (the defaults): the bootstrap cache is skipped, as it must be for a cold figure.
      freshThread.push(await time(() => startupThread({ root, caps: {} }).ranked));
    }
    process.stdout.write(
      [
        `files mapped            ${paths.length} (${(bytes / paths.length / 1024).toFixed(1)} KB average), ${threads} indexer threads`,
        `scan (reference)        ${scan.toFixed(1)} ms median of ${RUNS} (first ${firstScan.toFixed(1)} ms)`,
        `repo map                ${map.toFixed(1)} ms median of ${RUNS}, ${Math.round((paths.length / map) * 1000)} files/s (first ${cold.toFixed(1)} ms)`,
        `repo map CPU time       ${median(mapCpu).toFixed(1)} ms median of ${RUNS} (first ${coldCpu.toFixed(1)} ms), all threads of the process`,
        `repo map / scan         ${(map / scan).toFixed(2)}×`,
        `repo map / 250 ms goal  ${(map / 250).toFixed(2)}×`,
        `cold scan + map, startup thread  ${median(freshThread).toFixed(1)} ms median of ${COLD_RUNS}   ref new pool ${median(freshPool).toFixed(1)} ms  ×${(median(freshThread) / median(freshPool)).toFixed(2)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await pool.close();
    rmSync(root, { recursive: true, force: true });
  }
}
