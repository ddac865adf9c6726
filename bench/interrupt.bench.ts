import { spawn } from 'node:child_process';
import { startScriptedServer, type ScriptedReply } from '../test/helpers/scripted-server.js';
import { gitRepo, tempDir } from '../test/helpers/temp.js';
import { fmt, row, summarize } from './stats.js';

// How long `reika -p` takes to exit after a SIGINT, at each startup milestone
// (REIKA_TRACE_STARTUP lines; the signal comes when the bench reads the line) and in the middle of
// a model stream. The reference is a bare `node -e` that exits 130 on SIGINT, signalled once it is
// running, measured in the same rounds: what any Node process pays to be told and to go.
// The test (test/cli/headless-early-interrupt.test.ts) asserts the facts; this only measures.

const mainJs = new URL('../cli/main.js', import.meta.url).pathname;
const RUNS = Number(process.env.REIKA_BENCH_RUNS) || 5;
const TARGET_MS = 150;

const MILESTONES = ['headless: arguments read', 'headless: runtime started', 'headless: session loaded', 'runtime: model-io ready', 'session: bootstrap', 'session: request'];

/**
 * Every reply calls a tool, slowly streamed (200-byte pieces 5 ms apart, ~0.6 s): a signal at
 * `session: request` lands in a stream. Unsplit, the whole reply would be written at once.
 */
const reply = (_request: unknown, index: number): ScriptedReply => ({ content: 'working on it '.repeat(40), chunkDelayMs: 5, split: { mode: 'fixed', size: 200 }, toolCalls: [{ name: 'write', arguments: { path: `w${index}.txt`, content: 'x\n' } }] });

const BARE = "process.on('SIGINT', () => process.exit(130)); process.stderr.write('ready\\n'); setInterval(() => {}, 1000);";

/** Spawns, signals when stderr shows `when`, resolves with ms from the kill to the exit (and the code). */
function signalAt(args: string[], env: NodeJS.ProcessEnv, cwd: string, when: string): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let killedAt = 0;
    let buffered = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      if (killedAt === 0 && buffered.includes(when)) {
        killedAt = performance.now();
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: killedAt === 0 ? NaN : performance.now() - killedAt, code }));
  });
}

export default async function bench(): Promise<void> {
  const server = await startScriptedServer(reply);
  const home = tempDir('reika-bench-home-');
  const env: NodeJS.ProcessEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('REIKA_'))), HOME: home, REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', REIKA_TRACE_STARTUP: '1' };
  const bare: number[] = [];
  const byMilestone = new Map<string, number[]>(MILESTONES.map((m) => [m, []]));
  let wrongCodes = 0;
  try {
    for (let round = 0; round < RUNS; round++) {
      bare.push((await signalAt(['-e', BARE], env, home, 'ready\n')).ms);
      for (const milestone of MILESTONES) {
        const repo = gitRepo({ 'a.txt': 'v0\n' });
        const run = await signalAt([mainJs, '-p', 'change the files'], env, repo, `] ${milestone}\n`);
        if (run.code !== 130) wrongCodes++;
        byMilestone.get(milestone)!.push(run.ms);
      }
    }
  } finally {
    await server.close();
  }
  const reference = summarize(bare);
  process.stdout.write(`SIGINT → exit, ${RUNS} rounds (median, max); every reika run exits 130${wrongCodes ? ` except ${wrongCodes}` : ''}\n`);
  row('bare node -e, exits on SIGINT', `${fmt(reference.p50)} ms`, '—', undefined);
  const all: number[] = [];
  for (const [milestone, samples] of byMilestone) {
    const s = summarize(samples);
    all.push(...samples);
    row(`after "${milestone}"`, `${fmt(s.p50)} / ${fmt(s.max)} ms`, `${fmt(reference.p50)} ms`, s.p50 / reference.p50);
  }
  const worst = summarize(all);
  row('any milestone, worst', `${fmt(worst.max)} ms`, `${fmt(reference.max)} ms`, worst.max / reference.max, `≤ ${TARGET_MS} ms`);
}
