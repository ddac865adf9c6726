import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CheckpointStore } from '../actors/tool-executor/safety/checkpoint-store.js';
import { sandboxedCommand } from '../actors/tool-executor/safety/sandbox-policy.js';
import { sandboxState } from '../actors/tool-executor/safety/sandbox.js';
import { ensureBigTree } from './fixtures/big-tree.js';
import { fmt, row, summarize } from './stats.js';

// Safety costs beside what they add to:
// - a checkpoint before a `bash` in the 160k-file bench tree, warm (the store already holds the
//   tree and its watcher runs; nothing changed), against the user's own `git status` in the same
//   tree (target ≤ 50 ms); the same with one file edited before each (made from the last tree and
//   the changed paths, no index), and the changed files found after the command (what `bash`
//   reports); the first, cold snapshot and
//   a full walk (the path taken without the watcher) are printed once;
// - a sandboxed `bash -c true` (bubblewrap, no network) against a plain spawn, interleaved.

const RUNS = 15;

function spawnMs(file: string, args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => spawn(file, args, { cwd, stdio: 'ignore' }).once('close', () => resolve(performance.now() - started)));
}

export default async function (): Promise<void> {
  const root = await ensureBigTree();
  // A store kept between runs, so "warm" means what it does in a session: the tree is held.
  const store = CheckpointStore.for(root, { stateHome: join(tmpdir(), 'reika-bench-state') });
  const coldStart = performance.now();
  await store.snapshot('bench', 'bash', 'warm-up');
  const cold = performance.now() - coldStart;
  // In a session the watcher is built long before the next step; the snapshot after it walks once more.
  const watcher = await store.watchSettled();
  let started = performance.now();
  await store.snapshot('bench', 'bash', 'behind the watcher');
  const fullWalk = performance.now() - started;
  const warm: number[] = [];
  const edited: number[] = [];
  const reported: number[] = [];
  const status: number[] = [];
  const scans = new Set<string>();
  const ways = new Set<string>();
  const file = join(root, 'packages/pkg-00/README.md');
  const original = readFileSync(file, 'utf8');
  try {
    for (let i = 0; i < RUNS; i++) {
      started = performance.now();
      const checkpoint = await store.snapshot('bench', 'bash', `npm test #${i}`);
      warm.push(performance.now() - started);
      scans.add(store.lastScan ?? '?');
      started = performance.now();
      spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, stdio: 'ignore' });
      status.push(performance.now() - started);
      writeFileSync(file, `${original}edit ${i}\n`);
      started = performance.now();
      await store.changedSince(checkpoint);
      reported.push(performance.now() - started);
      started = performance.now();
      await store.snapshot('bench', 'bash', `after an edit #${i}`);
      edited.push(performance.now() - started);
      ways.add(`${store.lastScan}, ${store.lastWay}`);
    }
  } finally {
    writeFileSync(file, original);
  }
  const warmMs = summarize(warm).p50;
  const editedMs = summarize(edited).p50;
  const statusMs = summarize(status).p50;
  row('checkpoint before bash, 160k tree, warm p50', `${fmt(warmMs)} ms`, `${fmt(statusMs)} git status`, warmMs / statusMs, '≤ 50 ms');
  row('  the same, one file edited before each, p50', `${fmt(editedMs)} ms`, `${fmt(statusMs)} git status`, editedMs / statusMs);
  const reportedMs = summarize(reported).p50;
  row('  files a bash changed, found after it, p50', `${fmt(reportedMs)} ms`, `${fmt(statusMs)} git status`, reportedMs / statusMs);
  const watching = watcher?.kind === 'ready' ? `${watcher.folders} folders watched` : watcher?.kind === 'off' ? `watcher off: ${watcher.reason}` : 'no watcher';
  process.stdout.write(`  ${watching}; warm snapshots ${[...scans].join('/')}, after an edit ${[...ways].join(' / ')}; a full walk (no watcher) ${fmt(fullWalk)} ms; first snapshot of the tree (cold, once per store): ${fmt(cold / 1000, 1)} s\n`);
  store.stopWatching();

  const state = await sandboxState(process.env.REIKA_SANDBOX);
  if (state.kind === 'none') {
    process.stdout.write(`  sandbox: none (${state.note})\n`);
    return;
  }
  const cwd = tmpdir();
  const sandboxed = sandboxedCommand(state, { command: 'true', root: cwd, network: false });
  const plain: number[] = [];
  const boxed: number[] = [];
  await spawnMs(sandboxed.file, sandboxed.args, cwd);
  for (let i = 0; i < 30; i++) {
    plain.push(await spawnMs('/bin/bash', ['-c', 'true'], cwd));
    boxed.push(await spawnMs(sandboxed.file, sandboxed.args, cwd));
  }
  const plainMs = summarize(plain).p50;
  const boxedMs = summarize(boxed).p50;
  row(`bash -c true under ${state.kind} (no network) p50`, `${fmt(boxedMs)} ms`, `${fmt(plainMs)} spawn`, boxedMs / plainMs);
}
