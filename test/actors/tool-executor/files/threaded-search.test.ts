import test from 'ava';
import { readFileSync } from 'node:fs';
import { IndexerPool } from '../../../../actors/indexer/pool.js';
import { grepWith, type GrepOptions } from '../../../../actors/tool-executor/tools/grep.js';
import type { ToolOutcome } from '../../../../actors/tool-executor/tools/tool-env.js';
import { tempDir, writeTree } from '../../../helpers/temp.js';
import { groups, spill } from '../harness.js';
import { toolSettings } from '../../../helpers/tool-settings.js';

// One channel reports every pool's batches: the tests run one at a time.

/**
 * grep's walk path (no rg, no git repository) reads the walk's files in the indexer threads, in
 * batches, and gives what one thread reading them in order gives; an abort ends the threads that
 * are reading. The pool here runs the real task behind a wrapper that reports each batch
 * (`grep-thread-tasks.ts`).
 */

const tasks = new URL('./grep-thread-tasks.js', import.meta.url);

interface BatchSeen {
  threadId: number;
  files: number;
  spin: boolean;
}

function watchBatches(): { seen: BatchSeen[]; next: () => Promise<BatchSeen>; close: () => void } {
  const channel = new BroadcastChannel('reika-grep-threads');
  const seen: BatchSeen[] = [];
  let waiting: ((batch: BatchSeen) => void) | undefined;
  channel.onmessage = (event) => {
    const batch = (event as unknown as { data: BatchSeen }).data;
    seen.push(batch);
    waiting?.(batch);
  };
  return { seen, next: () => new Promise((resolve) => (waiting = resolve)), close: () => channel.close() };
}

function grepIn(root: string, args: { pattern: string; glob?: string; ignore_case?: boolean }, options: GrepOptions, signal = new AbortController().signal): Promise<ToolOutcome> {
  return grepWith(args, { root, settings: toolSettings(root), signal, emit: () => {}, spill, groups }, options);
}

/** 30 folders of 12 files, every third file with two hits, and a few binary and ignored files: several batches. */
function wideTree(): string {
  const tree: Record<string, string | Buffer> = { '.gitignore': 'skip/\n*.log\n' };
  for (let d = 0; d < 30; d++) {
    for (let f = 0; f < 12; f++) tree[`d${String(d).padStart(2, '0')}/f${f}.txt`] = f % 3 === 0 ? `hit ${d} ${f}\nmiss\nhit again\n` : 'miss\n';
  }
  tree['d03/data.bin'] = Buffer.from([104, 105, 116, 0, 1, 2]);
  tree['skip/hit.txt'] = 'hit ignored\n';
  tree['d04/noise.log'] = 'hit ignored\n';
  return writeTree(tempDir('reika-threaded-'), tree);
}

test.serial('the walk path reads its files in the indexer threads, in batches, and gives the matches of one thread reading them in order', async (t) => {
  const root = wideTree();
  const pool = new IndexerPool({ filename: tasks, maxThreads: 2, minThreads: 0 });
  t.teardown(() => pool.close());
  const batches = watchBatches();
  t.teardown(() => batches.close());
  const threaded = await grepIn(root, { pattern: '^hit' }, { engine: 'js', pool });
  // The reference: the same files read on this thread, one at a time (a one-file grep each, in the walk's order).
  t.true(batches.seen.length > 1, `the files went out in ${batches.seen.length} batches`);
  t.true(batches.seen.every((batch) => batch.threadId !== 0), 'no batch ran on the main thread');
  t.is(batches.seen.reduce((sum, batch) => sum + batch.files, 0), 30 * 12 + 2, 'every file the walk kept (.gitignore and data.bin too) was read once, ignored ones not at all');
  t.regex(threaded.summary, /^grep \/\^hit\/: 240 matches in 120 files; first 100 shown, all in \S+; 1 binary file skipped$/);
  const lines = readFileSync(threaded.meta!.spillPath!, 'utf8').trimEnd().split('\n');
  const expected: string[] = [];
  for (let d = 0; d < 30; d++) for (const f of [0, 3, 6, 9]) expected.push(`d${String(d).padStart(2, '0')}/f${f}.txt:1: hit ${d} ${f}`, `d${String(d).padStart(2, '0')}/f${f}.txt:3: hit again`);
  t.deepEqual(lines, expected, 'the spill file holds every match in the walk order');
  t.is(threaded.payload.split('\n').slice(0, 100).join('\n'), expected.slice(0, 100).join('\n'));
});

test.serial('the match cap stops the threaded read where one thread would have stopped', async (t) => {
  const tree: Record<string, string> = {};
  for (let f = 0; f < 40; f++) tree[`f${String(f).padStart(2, '0')}.txt`] = 'hit\n'.repeat(600);
  const root = writeTree(tempDir('reika-threaded-cap-'), tree);
  const pool = new IndexerPool({ maxThreads: 2, minThreads: 0 });
  t.teardown(() => pool.close());
  const outcome = await grepIn(root, { pattern: 'hit' }, { engine: 'js', pool });
  t.regex(outcome.summary, /: 20,000 matches\+ in 34 files; .*\(the search stopped at 20,000 matches\)$/);
  const lines = readFileSync(outcome.meta!.spillPath!, 'utf8').trimEnd().split('\n');
  t.is(lines.length, 20_000);
  t.is(lines.at(-1), 'f33.txt:200: hit');
});

test.serial('an abort while the indexer threads read ends the thread reading: the call ends cancelled', async (t) => {
  const root = wideTree();
  writeTree(root, { 'd00/spin-here': 'hit\n' });
  const exited: number[] = [];
  let onExit: (id: number) => void = () => {};
  const pool = new IndexerPool({ filename: tasks, maxThreads: 2, minThreads: 0, onThreadExit: (id) => (exited.push(id), onExit(id)) });
  t.teardown(() => pool.close());
  const batches = watchBatches();
  t.teardown(() => batches.close());
  const controller = new AbortController();
  const running = grepIn(root, { pattern: '^hit' }, { engine: 'js', pool }, controller.signal);
  let batch = await batches.next();
  while (!batch.spin) batch = await batches.next();
  const spinning = batch.threadId;
  const ended = new Promise<void>((resolve) => {
    onExit = (id) => id === spinning && resolve();
    if (exited.includes(spinning)) resolve();
  });
  controller.abort('user pressed Esc');
  const outcome = await running;
  t.is(outcome.status, 'cancelled');
  t.regex(outcome.summary, /was cancelled after \d+ match/);
  await ended;
  t.pass('the spinning thread ended');
});
