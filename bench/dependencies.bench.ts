import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fdir } from 'fdir';
import { nanoid } from 'nanoid';
import { ALWAYS_SKIPPED } from '../actors/indexer/crawl/ignore-rules.js';
import { scan } from '../actors/indexer/scan.js';
import { pack, unpack } from '../runtime/codec.js';
import { client, Supervisor } from '../runtime/index.js';
import { tempDir } from '../test/helpers/temp.js';
import { benchActor } from './fixtures/bench-actor.js';
import { fmt, row, summarize } from './stats.js';

// The measurements behind the README's "Dependencies": for each package of the design card that
// reika does not use where the card put it, the figure that decided, beside the reference it lost
// to (or beat) in the same run.
//
// - comlink (the typed call façade to a worker) vs reika's own `client()` through the supervisor,
//   and a raw MessagePort: round trips of the same echo.
// - fdir vs the own breadth-first crawler on a home-directory-like tree that is not a git repo
//   (caches, toolchains, deep node_modules, a few projects): the time to a first index and how
//   many of the files within two folders of the root each one lists — what `@`-completion and the
//   repo map need first.
// - msgpackr (process frames) vs JSON for the same envelopes; nanoid vs `crypto.randomUUID`.
// - @napi-rs/system-ocr: whether it loads on this platform.

const require = createRequire(import.meta.url);

/** What the bench uses of comlink. */
interface ComlinkApi {
  wrap(endpoint: unknown): unknown;
}

const ROUND_TRIPS = Number(process.env.REIKA_BENCH_ROUND_TRIPS) || 5_000;
const RUNS = 5;
const message = { type: 'echo' as const, value: { text: 'hello from the bench', n: 42, list: [1, 2, 3] } };

async function timed(count: number, once: () => Promise<unknown>): Promise<ReturnType<typeof summarize>> {
  for (let i = 0; i < 300; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await once();
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

async function facades(): Promise<void> {
  const raw = new Worker(new URL('./fixtures/raw-echo-worker.js', import.meta.url));
  const rawStats = await timed(ROUND_TRIPS, () => new Promise((resolve) => (raw.once('message', resolve), raw.postMessage(message))));
  await raw.terminate();

  let comlinkStats: ReturnType<typeof summarize> | undefined;
  try {
    // Resolved at run time (a devDependency used by this bench alone; the build does not need it).
    const comlinkPath = require.resolve('comlink');
    const adapterPath = require.resolve('comlink/dist/umd/node-adapter.js');
    const Comlink = require(comlinkPath) as ComlinkApi;
    const nodeEndpoint = require(adapterPath) as (port: unknown) => unknown;
    // The worker: the same echo the actor fixture answers, exposed as an object method.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const Comlink = require(${JSON.stringify(comlinkPath)});
       const nodeEndpoint = require(${JSON.stringify(adapterPath)});
       Comlink.expose({ echo: (value) => value }, nodeEndpoint(parentPort));`,
      { eval: true },
    );
    const remote = Comlink.wrap(nodeEndpoint(worker)) as { echo(value: unknown): Promise<unknown> };
    comlinkStats = await timed(ROUND_TRIPS, () => remote.echo(message.value));
    worker.unref();
    await worker.terminate();
  } catch (error) {
    process.stdout.write(`comlink not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): npm install\n`);
  }

  const supervisor = new Supervisor();
  try {
    await supervisor.spawn({ name: 'echo', kind: 'thread', module: new URL('./fixtures/bench-actor.js', import.meta.url) });
    const actor = client(supervisor, benchActor('echo'));
    const ours = await timed(ROUND_TRIPS, () => actor.request(message));
    const us = (ms: number) => `${fmt(ms * 1000, 0)} µs`;
    row('raw MessagePort round trip p50', us(rawStats.p50), '—', undefined);
    if (comlinkStats) {
      row('comlink proxy round trip p50', us(comlinkStats.p50), `${us(rawStats.p50)} raw`, comlinkStats.p50 / rawStats.p50);
      row('client() via supervisor round trip p50', us(ours.p50), `${us(comlinkStats.p50)} comlink`, ours.p50 / comlinkStats.p50);
      row('client() via supervisor round trip p99', us(ours.p99), `${us(comlinkStats.p99)} comlink`, ours.p99 / comlinkStats.p99);
    } else row('client() via supervisor round trip p50', us(ours.p50), `${us(rawStats.p50)} raw`, ours.p50 / rawStats.p50);
  } finally {
    await supervisor.close();
  }
}

/**
 * A home folder as reika meets it when started in `~`: not a git repo; dot-folders of caches and
 * toolchains holding most files, deep; a few projects with their own node_modules; documents.
 * Returns the root and the files within two folders of it (depth ≤ 2).
 */
function homeLikeTree(): { root: string; files: number; shallow: Set<string> } {
  const root = tempDir('reika-bench-home-tree-');
  let files = 0;
  const shallow = new Set<string>();
  const file = (path: string) => {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, 'x\n');
    files++;
    if (path.split('/').length <= 3) shallow.add(path);
  };
  for (const name of ['.bashrc', '.profile', '.gitconfig', 'notes.md', 'todo.txt']) file(name);
  for (let d = 0; d < 10; d++) for (let f = 0; f < 10; f++) file(`Documents/folder${d}/doc${f}.md`);
  for (let f = 0; f < 40; f++) file(`Downloads/file${f}.pdf`);
  // Caches: wide and deep (a package manager's content store, a browser cache).
  for (let a = 0; a < 40; a++) for (let b = 0; b < 25; b++) for (let f = 0; f < 12; f++) file(`.cache/pkg/${a.toString(16)}/${b.toString(16)}/blob${f}`);
  for (let a = 0; a < 30; a++) for (let f = 0; f < 100; f++) file(`.npm/_cacache/index-v5/${a}/x${f}`);
  // Toolchains: versions of a runtime with their standard libraries.
  for (let v = 0; v < 4; v++) for (let m = 0; m < 60; m++) for (let f = 0; f < 25; f++) file(`.local/share/toolchains/v${v}/lib/mod${m}/f${f}.py`);
  // Projects, each with sources and a deep node_modules (always skipped by both crawlers here).
  for (let p = 0; p < 6; p++) {
    for (let s = 0; s < 8; s++) for (let f = 0; f < 15; f++) file(`Projects/app${p}/src/part${s}/file${f}.ts`);
    file(`Projects/app${p}/package.json`);
    for (let d = 0; d < 40; d++) for (let f = 0; f < 20; f++) file(`Projects/app${p}/node_modules/dep${d}/lib/f${f}.js`);
  }
  return { root, files, shallow };
}

function crawlers(): void {
  const made = performance.now();
  const tree = homeLikeTree();
  process.stdout.write(`home-like tree, not git: ${tree.files.toLocaleString('en-US')} files, ${tree.shallow.size} within two folders of the root (made in ${fmt((performance.now() - made) / 1000)} s)\n`);
  const skipped = new Set(ALWAYS_SKIPPED);
  const median = (fn: () => number): { ms: number; value: number } => {
    const times: number[] = [];
    let value = 0;
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      value = fn();
      times.push(performance.now() - start);
    }
    return { ms: summarize(times).p50, value };
  };
  let ownPaths: string[] = [];
  const own = median(() => (ownPaths = scan(tree.root).paths).length);
  const cap = ownPaths.length;
  let fdirCapped: string[] = [];
  const fdirFull = median(() => new fdir().withRelativePaths().exclude((name) => skipped.has(name)).crawl(tree.root).sync().length);
  const fdirCap = median(() => (fdirCapped = new fdir().withRelativePaths().withMaxFiles(cap).exclude((name) => skipped.has(name)).crawl(tree.root).sync()).length);
  const shallowIn = (paths: string[]) => paths.filter((path) => tree.shallow.has(path)).length;
  row('own BFS scan (index caps) → first index', `${fmt(own.ms)} ms`, `${fmt(fdirFull.ms)} ms fdir all`, own.ms / fdirFull.ms);
  row('fdir withMaxFiles(same count)', `${fmt(fdirCap.ms)} ms`, `${fmt(own.ms)} ms own`, fdirCap.ms / own.ms);
  row('  files within two folders listed: own', `${shallowIn(ownPaths)} of ${tree.shallow.size}`, `${shallowIn(fdirCapped)} fdir capped`, undefined);
  process.stdout.write(`  (own: ${own.value.toLocaleString('en-US')} paths; fdir all: ${fdirFull.value.toLocaleString('en-US')}; fdir capped: ${fdirCap.value.toLocaleString('en-US')})\n`);
}

function codecs(): void {
  const small = { id: 'V1StGXR8_Z5jdHi6B-myT', type: 'request', from: 'supervisor', to: 'tool-executor', scope: 'turn-abc', body: { type: 'run', callId: 'call_1', name: 'read', args: { path: 'src/a.ts' } } };
  const large = { ...small, type: 'reply', body: { callId: 'call_1', name: 'read', status: 'done', summary: 'read src/a.ts (2,000 lines)', payload: 'export const line = "some source text";\n'.repeat(2_000) } };
  const time = (fn: () => unknown, n: number) => {
    for (let i = 0; i < 200; i++) fn();
    const start = performance.now();
    for (let i = 0; i < n; i++) fn();
    return ((performance.now() - start) / n) * 1000;
  };
  for (const [label, envelope, n] of [['small envelope', small, 20_000], ['80 KB tool result', large, 500]] as const) {
    const packed = time(() => unpack(pack(envelope)), n);
    const json = time(() => JSON.parse(Buffer.from(JSON.stringify(envelope)).toString('utf8')), n);
    row(`msgpackr pack+unpack, ${label}`, `${fmt(packed, 1)} µs`, `${fmt(json, 1)} µs JSON`, packed / json);
  }
  const ids = (fn: () => string) => time(fn, 100_000) * 1000;
  row('nanoid() per id', `${fmt(ids(() => nanoid()), 0)} ns`, `${fmt(ids(() => randomUUID()), 0)} ns randomUUID`, undefined);
}

async function ocr(): Promise<void> {
  try {
    await import('@napi-rs/system-ocr');
    process.stdout.write(`@napi-rs/system-ocr loads on ${process.platform}-${process.arch}\n`);
  } catch (error) {
    process.stdout.write(`@napi-rs/system-ocr does not load on ${process.platform}-${process.arch}: ${error instanceof Error ? error.message.split('\n')[0]!.slice(0, 80) : String(error)}\n`);
  }
}

export default async function bench(): Promise<void> {
  await facades();
  crawlers();
  codecs();
  await ocr();
}
