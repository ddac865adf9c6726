import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { agent, client, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { editorLink } from '../cli/acp/editor-link.js';
import { TurnUpdates } from '../cli/acp/turn-updates.js';
import { gitRepo, tempDir } from '../test/helpers/temp.js';
import { firstRequest } from './first-request.js';
import { fmt, row, summarize } from './stats.js';

// `reika acp` must be ready for an editor about as soon as `reika -p` is ready for its model
// (SPEC §18): spawn → `initialize` answered → `session/new` answered, against `reika -p`'s spawn →
// first chat request, both the shipped bundle in the same tiny repo, run after run in turn. Then
// what one update costs while a reply streams, in this process: a text delta through the session's
// update mapping and the SDK's notification onto a stream (serialised, written to a sink), beside
// what `reika -p --stream` does per event (one JSON line to a sink).

const mainJs = new URL('../bundle/cli/main.js', import.meta.url).pathname;
const RUNS = Number(process.env.REIKA_BENCH_RUNS) || 7;
const DELTAS = 20_000;

/** One `reika acp`: spawn, initialize, session/new, then stdin closed; spawn → session/new answered. */
async function editor(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [mainJs, 'acp'], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const app = client({ name: 'bench' }).onNotification(methods.client.session.update, () => {});
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    return performance.now() - spawnedAt;
  } catch (error) {
    throw new Error(`reika acp failed: ${error instanceof Error ? error.message : String(error)}\n${stderr.slice(-500)}`);
  } finally {
    child.stdin.end();
    await closed;
  }
}

export default async function (): Promise<void> {
  const tiny = gitRepo({ 'package.json': '{"name":"tiny"}\n', 'src/index.ts': 'export function main() {}\n', 'README.md': '# tiny\n' });
  const env = { XDG_STATE_HOME: tempDir('reika-bench-acp-state-'), HOME: tempDir('reika-bench-acp-home-') };
  const headless = () => firstRequest({ args: [mainJs, '-p', 'say ok'], cwd: tiny, env });
  // Warm the file cache, the compile cache and the bootstrap cache once; not counted.
  await headless();
  await editor(tiny, env);

  const ready: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      ready.push(await editor(tiny, env));
      first.push((await headless()).firstMs);
    } else {
      first.push((await headless()).firstMs);
      ready.push(await editor(tiny, env));
    }
  }
  const acp = summarize(ready);
  const p = summarize(first);
  row('acp: spawn → initialize → session/new (median ms)', fmt(acp.p50), `${fmt(p.p50)} -p 1st req`, acp.p50 / p.p50, '≤ ×1.5');
  process.stdout.write(`  (spread acp ${fmt(Math.min(...ready))}–${fmt(acp.max)} ms; reika -p ${fmt(Math.min(...first))}–${fmt(p.max)} ms; ${RUNS} runs each)\n`);

  await perUpdate(); // warm
  const costs = [await perUpdate(), await perUpdate(), await perUpdate()];
  const update = summarize(costs.map((c) => c.acp));
  const line = summarize(costs.map((c) => c.line));
  row('acp: one streamed update (median µs)', fmt(update.p50, 2), `${fmt(line.p50, 2)} --stream line`, update.p50 / line.p50, '< 200 µs');
}

/** µs per text delta: through TurnUpdates and an ACP notification onto a discarding stream, or as one JSON line. */
async function perUpdate(): Promise<{ acp: number; line: number }> {
  let written = 0;
  let done: () => void = () => {};
  const sink = new WritableStream<Uint8Array>({
    write() {
      if (++written === DELTAS) done();
    },
  });
  const connection = agent({ name: 'bench' }).connect(ndJsonStream(sink, new ReadableStream<Uint8Array>({ start() {} })));
  const link = editorLink(connection.client, {}, () => {});
  const updates = new TurnUpdates((update) => link.update('bench', update), () => '/');
  const all = new Promise<void>((resolve) => (done = resolve));
  let started = performance.now();
  for (let i = 0; i < DELTAS; i++) updates.handle({ type: 'text-delta', turn: 't', text: 'abcd' });
  await all;
  const acp = ((performance.now() - started) * 1000) / DELTAS;
  connection.close();
  let bytes = 0;
  started = performance.now();
  for (let i = 0; i < DELTAS; i++) bytes += Buffer.byteLength(`${JSON.stringify({ type: 'text-delta', turn: 't', text: 'abcd' })}\n`);
  const line = ((performance.now() - started) * 1000) / DELTAS;
  if (bytes === 0) throw new Error('nothing written');
  return { acp, line };
}
