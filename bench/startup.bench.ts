import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startScriptedServer } from '../test/helpers/scripted-server.js';
import { gitRepo } from '../test/helpers/temp.js';
import { ensureBigTree } from './fixtures/big-tree.js';
import { fmt, row, summarize } from './stats.js';

/**
 * `reika -p` startup: time from spawning the binary to the first chat request reaching the
 * server (bootstrap, actor spawning, system prompt), in a tiny repo and in the 150k-file tree;
 * peak RSS of the whole process tree; the first request's size. The reference is a bare
 * `node -e ""` spawn measured in the same run.
 *
 * Every run has REIKA_TRACE_STARTUP=1 (a dozen stderr lines), so the bench also prints where the
 * time goes: the median moment of each startup milestone, in ms since the process started.
 */

const mainJs = new URL('../cli/main.js', import.meta.url).pathname;
const RUNS = 5;

/** Startup milestones (REIKA_TRACE_STARTUP lines) shown in the breakdown, by the end of their label. */
const MILESTONES: [label: string, ending: string][] = [
  ['arguments read, indexer thread started', 'headless: arguments read'],
  ['runtime started (model-io thread spawned)', 'headless: runtime started'],
  ['indexer thread booted', 'indexer thread: modules loaded'],
  ['scan done (in the indexer thread)', 'indexer thread: scanned'],
  ['repo map ranked (in the indexer thread)', 'indexer thread: ranked'],
  ['model-io thread ready', 'runtime: model-io ready'],
  ['first request handed to model-io', 'session: request'],
];

/** Sum of VmRSS over `pid` and all its descendants, in bytes (0 once it is gone). */
function treeRss(pid: number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    try {
      const status = readFileSync(`/proc/${current}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      for (const task of readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').trim().split(/\s+/)) if (task) stack.push(Number(task));
    } catch {
      // gone
    }
  }
  return total;
}

interface Sample {
  firstMs: number;
  peakRss: number;
  firstBytes: number;
  repoMapLines: number;
  /** Milliseconds since the process started, by milestone ending. */
  marks: Map<string, number>;
}

function milestones(stderr: string): Map<string, number> {
  const marks = new Map<string, number>();
  for (const line of stderr.split('\n')) {
    const match = /^\[startup (\d+\.\d) ms t\d+\] (.*?)(?: \(.*\))?$/.exec(line);
    if (match && !marks.has(match[2]!)) marks.set(match[2]!, Number(match[1]));
  }
  return marks;
}

async function once(cwd: string): Promise<Sample> {
  let spawnedAt = 0;
  let firstAt = 0;
  const server = await startScriptedServer(() => {
    firstAt ||= performance.now();
    return { content: 'ok' };
  });
  try {
    spawnedAt = performance.now();
    const child = spawn(process.execPath, [mainJs, '-p', 'say ok'], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', REIKA_TRACE_STARTUP: '1' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(child.pid!))), 5);
    await new Promise((resolve) => child.on('close', resolve));
    clearInterval(sampler);
    const first = server.chatRequests()[0];
    if (!first) throw new Error(`reika made no request in ${cwd}`);
    const system = String(first.json.messages[0].content);
    const map = system.split('# Repo map')[1] ?? '';
    return {
      firstMs: firstAt - spawnedAt,
      peakRss,
      firstBytes: Buffer.byteLength(first.body),
      repoMapLines: map.split('\n').filter((line) => /^[\w./-]+\.\w+(: .*)?$/.test(line)).length,
      marks: milestones(stderr),
    };
  } finally {
    await server.close();
  }
}

async function bareNode(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return performance.now() - started;
}

export default async function (): Promise<void> {
  const tiny = gitRepo({ 'package.json': '{"name":"tiny","scripts":{"test":"node --test"}}\n', 'src/index.ts': 'export function main() {}\n', 'README.md': '# tiny\n' });
  const big = await ensureBigTree();
  const reference: number[] = [];
  const results: Record<'tiny' | 'big', Sample[]> = { tiny: [], big: [] };
  await once(tiny); // warm the file cache and the compile cache once; not counted
  for (let i = 0; i < RUNS; i++) {
    reference.push(await bareNode());
    results.tiny.push(await once(tiny));
    results.big.push(await once(big));
  }
  const ref = summarize(reference).p50;
  const tinyMs = summarize(results.tiny.map((s) => s.firstMs)).p50;
  const bigMs = summarize(results.big.map((s) => s.firstMs)).p50;
  const peak = Math.max(...[...results.tiny, ...results.big].map((s) => s.peakRss)) / 1024 / 1024;
  const bigFirst = results.big[0]!;
  row('spawn → first request, tiny repo (median ms)', fmt(tinyMs), `${fmt(ref)} node -e`, tinyMs / ref, '≤ 300');
  row('spawn → first request, 150k tree (median ms)', fmt(bigMs), `${fmt(ref)} node -e`, bigMs / ref, '≤ 300');
  row('150k tree − tiny repo (ms)', fmt(bigMs - tinyMs), `${fmt(tinyMs)} tiny`, bigMs / tinyMs, '≤ +100');
  row('peak RSS of the process tree (MB)', fmt(peak), '160 target', peak / 160, '≤ 160');
  row('first request, 150k tree (KB)', fmt(bigFirst.firstBytes / 1024), '30 target', bigFirst.firstBytes / 1024 / 30, '≤ 30');
  row('repo-map lines in the first request (150k tree)', String(bigFirst.repoMapLines), `${results.tiny[0]!.repoMapLines} tiny`, undefined);
  process.stdout.write('where the time goes (median ms since the process started)      tiny      150k tree\n');
  const at = (samples: Sample[], ending: string) => {
    const values = samples.map((s) => s.marks.get(ending)).filter((v): v is number => v !== undefined);
    return values.length === samples.length ? fmt(summarize(values).p50) : '–';
  };
  for (const [label, ending] of MILESTONES) process.stdout.write(`  ${label.padEnd(56)} ${at(results.tiny, ending).padStart(8)} ${at(results.big, ending).padStart(14)}\n`);
}
