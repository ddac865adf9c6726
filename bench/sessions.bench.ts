import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { ContextManager } from '../actors/context/context-manager.js';
import type { ContextOp } from '../actors/context/context-op.js';
import type { ToolSchema } from '../actors/model-io/protocol.js';
import { TranscriptWriter } from '../actors/transcript/transcript-writer.js';
import { startScriptedServer, type ScriptedReply } from '../test/helpers/scripted-server.js';
import { reikaBin } from '../test/helpers/binary.js';
import { gitRepo, tempDir } from '../test/helpers/temp.js';
import { fmt, row, summarize } from './stats.js';

// Session transcripts:
//
// - The write cost per event on the hot path: a 200-round session's context changes, each
//   serialised and written to its transcript as it happens (what the session's journal does),
//   beside the context manager's own work for the same change.
// - `reika -p … --continue` of a 200-round session, spawn to its first chat request at the
//   scripted server, beside a fresh `reika -p` in the same repo (its bootstrap comes from the
//   bootstrap cache after the first run): the resume reads and replays the transcript instead.
//   `REIKA_BENCH_TRACE=1` prints each run's startup trace.

const ROUNDS = 200;
const RUNS = Number(process.env.REIKA_BENCH_RUNS) || 5;
// The binary as it ships (package.json's bin: the bundle).
const mainJs = reikaBin;

const tools: ToolSchema[] = ['read', 'grep', 'edit', 'bash', 'write', 'list', 'glob'].map((name) => ({
  type: 'function',
  function: { name, description: `The ${name} tool. ${'It does one thing well. '.repeat(20)}`, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
}));

function payload(n: number): string {
  const line = `${n}: export function step${n}(input: string): string { return input.trim(); }\n`;
  return line.repeat(n % 10 === 0 ? 120 : 20);
}

function writeCost(): void {
  const env = { XDG_STATE_HOME: tempDir('reika-bench-state-') };
  const writer = TranscriptWriter.create(tempDir('reika-bench-root-'), 'bench', { env, secrets: ['sk-bench-secret-key-0000'] });
  const write: number[] = [];
  const work: number[] = [];
  const journal = (op: ContextOp) => {
    const start = performance.now();
    writer.append({ type: 'ctx', ...op });
    write.push(performance.now() - start);
  };
  const context = new ContextManager({ system: `You are reika.\n${'Project facts and rules. '.repeat(300)}`, tools, window: 32_768, journal });
  const timed = (fn: () => void) => {
    const start = performance.now();
    const before = write.length;
    fn();
    // The manager's own time for the change: the whole call less the journal's write.
    const journalMs = write.slice(before).reduce((a, b) => a + b, 0);
    work.push(performance.now() - start - journalMs);
  };
  timed(() => context.addUser('Fix the failing tests; read what you need first.'));
  for (let n = 1; n <= ROUNDS; n++) {
    timed(() => context.prepare());
    timed(() => context.recordUsage({ promptTokens: 4_000 + n * 300, completionTokens: 30, cachedTokens: 3_900 + n * 290 }, 'tool_calls'));
    timed(() => context.addAssistant('', [{ id: `call_${n}`, name: 'read', arguments: { path: `src/m${n % 40}.ts` }, source: 'native' }]));
    timed(() => context.addToolResult({ callId: `call_${n}`, name: 'read', summary: `read src/m${n % 40}.ts`, payload: payload(n) }));
  }
  writer.close();
  const w = summarize(write);
  const c = summarize(work);
  process.stdout.write(`${write.length} events of a ${ROUNDS}-round session (payloads 1.5–9 KB), each written at once\n`);
  row('transcript write per event, median', `${fmt(w.p50, 3)} ms`, `${fmt(c.p50, 3)} ms`, w.p50 / c.p50, '≤ 0.2 ms');
  row('transcript write per event, p99', `${fmt(w.p99, 3)} ms`, `${fmt(c.p99, 3)} ms`, w.p99 / c.p99);
  process.stdout.write('  (ref: the context manager\'s own work for the same change)\n');
}

/** Spawns reika and resolves with the ms from spawn to its first chat request at the server. */
async function firstRequestMs(args: string[], cwd: string, env: Record<string, string>, arrivals: number[]): Promise<number> {
  const before = arrivals.length;
  const started = performance.now();
  const child = spawn(process.execPath, [mainJs, ...args], { cwd, env: { ...process.env, ...env, ...(process.env.REIKA_BENCH_TRACE ? { REIKA_TRACE_STARTUP: '1' } : {}) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (process.env.REIKA_BENCH_TRACE) process.stderr.write(`${args.join(' ')}\n${stderr}`);
  if (code !== 0 || arrivals.length === before) throw new Error(`reika ${args.join(' ')} failed (${code}): ${stderr}`);
  return arrivals[before]! - started;
}

async function resumeCost(): Promise<void> {
  const tree: Record<string, string> = { 'package.json': JSON.stringify({ name: 'bench', scripts: { test: 'node t.js' } }) };
  for (let i = 0; i < 300; i++) tree[`src/m${i}.ts`] = `export function step${i}(input: string): string {\n  return input.trim();\n}\n`.repeat(3);
  const repo = gitRepo(tree);
  const arrivals: number[] = [];
  let rounds = 0;
  const server = await startScriptedServer((request): ScriptedReply => {
    arrivals.push(performance.now());
    const last = request.json.messages.at(-1);
    // The long session: a read per round until 200 rounds, then the answer; later runs answer at once.
    if (last.role === 'user' && last.content !== 'build the long session') return { content: 'ok' };
    if (rounds < ROUNDS) return { toolCalls: [{ name: 'read', arguments: { path: `src/m${rounds++ % 300}.ts` } }] };
    return { content: 'done' };
  });
  const env = { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '131072', REIKA_MAX_TURNS: String(ROUNDS + 5), XDG_STATE_HOME: tempDir('reika-bench-state-'), REIKA_CHECKPOINTS: 'off', REIKA_SANDBOX: 'off' };
  // Fresh runs keep their sessions apart, so --continue always finds the long one.
  const freshEnv = { ...env, XDG_STATE_HOME: tempDir('reika-bench-state-') };
  const built = performance.now();
  await firstRequestMs(['-p', 'build the long session'], repo, env, arrivals);
  process.stdout.write(`a ${ROUNDS}-round session recorded in ${fmt((performance.now() - built) / 1000, 1)} s\n`);
  const fresh: number[] = [];
  const resumed: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Each resume adds a turn to the same session; each fresh run starts a new one (its own bootstrap).
    fresh.push(await firstRequestMs(['-p', 'hello'], repo, freshEnv, arrivals));
    resumed.push(await firstRequestMs(['-p', 'hello', '--continue'], repo, env, arrivals));
  }
  await server.close();
  const f = summarize(fresh);
  const r = summarize(resumed);
  row(`--continue (${ROUNDS} rounds) → first request, median`, `${fmt(r.p50, 0)} ms`, `${fmt(f.p50, 0)} ms`, r.p50 / f.p50, '≤ ×1.5 of a fresh start');
  process.stdout.write(`  (ref: a fresh reika -p in the same 300-file repo; ${RUNS} runs each, alternating)\n`);
}

export default async function bench(): Promise<void> {
  writeCost();
  await resumeCost();
}
