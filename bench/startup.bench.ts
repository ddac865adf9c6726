import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reikaBin } from '../test/helpers/binary.js';
import { gitRepo, tempDir } from '../test/helpers/temp.js';
import { ensureBigTree } from './fixtures/big-tree.js';
import { firstRequest, treeRss } from './first-request.js';
import { fmt, row, summarize } from './stats.js';

// `reika -p` startup, side by side with a bare Node client in the same run: the time from spawning
// a process to its first chat request reaching the scripted server, and the peak RSS of the
// process tree.
//
// - The reference is `node -e` doing one streamed `fetch` to the same server (what any Node client
//   pays before its first byte leaves: the binary, then undici).
// - reika runs in a tiny git repo and in the 150k-file tree (`fixtures/big-tree.ts`, used through
//   a hard-link copy of its own so the bench may add files to it), each cold (the first run after
//   the tree changed: a file was added, so the bootstrap cache misses) and warm (the next run, the
//   tree unchanged: a cache hit). The state folder (the cache) is a temp folder of the bench.
// - reika is the shipped binary (the bundle, `scripts/bundle.mjs`); the tiny warm case is also
//   run from tsc's unbundled output, to show what the bundle buys.
// - Each round measures the reference and the reika runs one after another; figures are
//   medians over the rounds and the ratios compare medians of the same run.
//
// Every reika run has REIKA_TRACE_STARTUP=1 (a dozen stderr lines), so the bench also prints where
// the time goes: the median moment of each startup milestone, in ms since the process started.

/** What ships (package.json `bin`: the bundle), and tsc's output it is made from, for comparison. */
const mainJs = reikaBin;
const tscMainJs = new URL('../cli/main.js', import.meta.url).pathname;
const RUNS = Number(process.env.REIKA_BENCH_RUNS) || 7;

/** Startup milestones (REIKA_TRACE_STARTUP lines) shown in the breakdown, by the start of their label. */
const MILESTONES: [label: string, start: string][] = [
  ['arguments read, indexer thread started', 'headless: arguments read'],
  ['bootstrap cache checked', 'bootstrap cache:'],
  ['runtime started (model-io thread spawned)', 'headless: runtime started'],
  ['indexer thread booted', 'indexer thread: modules loaded'],
  ['scan done (in the indexer thread)', 'indexer thread: scanned'],
  ['repo map ranked (in the indexer thread)', 'indexer thread: ranked'],
  ['model-io thread ready', 'runtime: model-io ready'],
  ['first request handed to model-io', 'session: request'],
];

/** The reference client: one streamed chat request, read to the end. */
const BARE_CLIENT = `(async () => {
  const response = await fetch(process.env.BENCH_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'say ok' }] }),
  });
  for await (const chunk of response.body) void chunk;
})();`;

interface Sample {
  firstMs: number;
  peakRss: number;
  firstBytes: number;
  system: string;
  /** Milliseconds since the process started, by milestone label. */
  marks: Map<string, number>;
}

function milestones(stderr: string): Map<string, number> {
  const marks = new Map<string, number>();
  for (const line of stderr.split('\n')) {
    const match = /^\[startup (\d+\.\d) ms t\d+\] (.*)$/.exec(line);
    if (!match) continue;
    const start = MILESTONES.find(([, prefix]) => match[2]!.startsWith(prefix))?.[1];
    if (start && !marks.has(start)) marks.set(start, Number(match[1]));
  }
  return marks;
}

/** Spawns `args` in `cwd` against a fresh scripted server; times spawn → first chat request. */
async function once(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const run = await firstRequest({ args, cwd, env: { ...env, REIKA_TRACE_STARTUP: '1' }, sample: treeRss });
  return { firstMs: run.firstMs, peakRss: run.peak, firstBytes: Buffer.byteLength(run.request.body), system: String(run.request.json.messages[0].content), marks: milestones(run.stderr) };
}

function repoMapLines(system: string): number {
  const map = system.split('# Repo map')[1] ?? '';
  return map.split('\n').filter((line) => /^[\w./-]+\.\w+(: .*)?$/.test(line)).length;
}

/** A tree the bench may change: `change()` adds one new file (and drops the one added before). */
function changer(root: string, folder: string): () => void {
  let n = 0;
  return () => {
    rmSync(join(root, folder, `bench-cold-${n}.ts`), { force: true });
    n++;
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, `bench-cold-${n}.ts`), `export const cold${n} = ${n};\n`);
  };
}

type Case = 'tinyCold' | 'tinyWarm' | 'bigCold' | 'bigWarm' | 'tinyWarmTsc';

export default async function (): Promise<void> {
  const tiny = gitRepo({ 'package.json': '{"name":"tiny","scripts":{"test":"node --test"}}\n', 'src/index.ts': 'export function main() {}\n', 'README.md': '# tiny\n' });
  const source = await ensureBigTree();
  // A hard-link copy: the bench adds and removes files in it, never writes a file in place.
  const big = join(tempDir('reika-bench-startup-'), 'tree');
  execFileSync('cp', ['-al', source, big]);
  const env = { XDG_STATE_HOME: tempDir('reika-bench-state-') };
  const changeTiny = changer(tiny, 'src');
  const changeBig = changer(big, 'packages/pkg-07/src');
  const reika = [mainJs, '-p', 'say ok'];

  // Warm the file cache and any compile cache once; not counted.
  await once(['-e', BARE_CLIENT], tiny, env);
  await once(reika, tiny, env);
  await once(reika, big, env);

  const reference: Sample[] = [];
  const results: Record<Case, Sample[]> = { tinyCold: [], tinyWarm: [], bigCold: [], bigWarm: [], tinyWarmTsc: [] };
  for (let i = 0; i < RUNS; i++) {
    reference.push(await once(['-e', BARE_CLIENT], tiny, env));
    changeTiny();
    results.tinyCold.push(await once(reika, tiny, env));
    results.tinyWarm.push(await once(reika, tiny, env));
    results.tinyWarmTsc.push(await once([tscMainJs, ...reika.slice(1)], tiny, env));
    changeBig();
    results.bigCold.push(await once(reika, big, env));
    results.bigWarm.push(await once(reika, big, env));
  }
  rmSync(big, { recursive: true, force: true });

  const median = (samples: Sample[]) => summarize(samples.map((s) => s.firstMs)).p50;
  const peak = (samples: Sample[]) => Math.max(...samples.map((s) => s.peakRss)) / 1024 / 1024;
  const ref = median(reference);
  const refText = `${fmt(ref)} node fetch`;
  const ratio = (name: Case) => median(results[name]) / ref;
  row('spawn → first request, tiny repo, warm (median ms)', fmt(median(results.tinyWarm)), refText, ratio('tinyWarm'), '≤ ×2.0');
  row('  the same from tsc output, unbundled (median ms)', fmt(median(results.tinyWarmTsc)), refText, ratio('tinyWarmTsc'));
  row('spawn → first request, tiny repo, cold (median ms)', fmt(median(results.tinyCold)), refText, ratio('tinyCold'), '≤ ×2.0');
  row('spawn → first request, 150k tree, warm (median ms)', fmt(median(results.bigWarm)), refText, ratio('bigWarm'), '≤ ×2.5');
  row('spawn → first request, 150k tree, cold (median ms)', fmt(median(results.bigCold)), refText, ratio('bigCold'), '≤ ×3.5');
  const bigPeak = Math.max(peak(results.bigCold), peak(results.bigWarm));
  row('peak RSS of the process tree, 150k tree (MB)', fmt(bigPeak), `${fmt(peak(reference))} node fetch`, bigPeak / peak(reference), '≤ 110 MB');
  const tinyPeak = Math.max(peak(results.tinyCold), peak(results.tinyWarm));
  row('peak RSS of the process tree, tiny repo (MB)', fmt(tinyPeak), `${fmt(peak(reference))} node fetch`, tinyPeak / peak(reference));
  const bigFirst = results.bigWarm[0]!;
  row('first request, 150k tree (KB)', fmt(bigFirst.firstBytes / 1024), '30 target', bigFirst.firstBytes / 1024 / 30, '≤ 30');
  row('repo-map lines in the first request (150k tree)', String(repoMapLines(bigFirst.system)), `${repoMapLines(results.tinyWarm[0]!.system)} tiny`, undefined);
  // A warm run must send what a cold run of the same tree sends (the cache is invisible).
  const sameBytes = results.bigWarm.every((s, i) => s.system === results.bigCold[i]!.system) && results.tinyWarm.every((s, i) => s.system === results.tinyCold[i]!.system);
  process.stdout.write(`system prompt of each warm run identical to the cold run before it: ${sameBytes ? 'yes' : 'NO'}\n`);

  process.stdout.write(`where the time goes (median ms since the process started)   tiny cold  tiny warm  150k cold  150k warm\n`);
  const at = (samples: Sample[], start: string) => {
    const values = samples.map((s) => s.marks.get(start)).filter((v): v is number => v !== undefined);
    return values.length === samples.length ? fmt(summarize(values).p50) : '–';
  };
  for (const [label, start] of MILESTONES) {
    const cells = (['tinyCold', 'tinyWarm', 'bigCold', 'bigWarm'] as const).map((name) => at(results[name], start).padStart(10));
    process.stdout.write(`  ${label.padEnd(56)} ${cells.join(' ')}\n`);
  }
}
