import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A real `llama-server` for the tests that measure what the engine does with reika's requests
 * (issue 33's compaction cost): built from node-llama-cpp's bundled llama.cpp and run on a tiny
 * random-weight qwen2 GGUF with Qwen2's real tokenizer and Qwen2.5's template, both made by
 * `scripts/real-engine.sh`. They are found through `REIKA_LLAMA_SERVER` (the binary) and
 * `REIKA_TINY_GGUF` (the model); where either is missing the tests are skipped and say why, as
 * the embedded engine's are where node-llama-cpp cannot load.
 */

export interface RealEngine {
  server: string;
  model: string;
}

/** The binary and model, or why the real-engine tests cannot run here (one line). */
export function realEngine(): RealEngine | string {
  const server = process.env['REIKA_LLAMA_SERVER'];
  const model = process.env['REIKA_TINY_GGUF'];
  if (!server || !model) return 'REIKA_LLAMA_SERVER and REIKA_TINY_GGUF are not set (scripts/real-engine.sh builds llama-server and the tiny model)';
  if (!existsSync(server)) return `REIKA_LLAMA_SERVER: ${server} does not exist`;
  if (!existsSync(model)) return `REIKA_TINY_GGUF: ${model} does not exist`;
  return { server, model };
}

export interface LlamaServer {
  origin: string;
  /** Everything it printed (for a failure's message). */
  log(): string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts llama-server on `engine.model` with a `window`-token context, one slot, the model's
 * own template (`--jinja`), and `--cache-reuse N` when given; resolves once it answers `/health`
 * (it says so on its log first).
 */
export async function startLlamaServer(engine: RealEngine, options: { window: number; cacheReuse?: number }): Promise<LlamaServer> {
  const port = await freePort();
  const args = ['-m', engine.model, '-c', String(options.window), '-np', '1', '--jinja', '--host', '127.0.0.1', '--port', String(port), '-t', '2', '--no-webui'];
  if (options.cacheReuse) args.push('--cache-reuse', String(options.cacheReuse));
  const child: ChildProcess = spawn(engine.server, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const origin = `http://127.0.0.1:${port}`;
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on http/.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`llama-server exited (${code}) before it was ready:\n${output.slice(-2_000)}`)));
    child.once('error', reject);
  });
  await ready;
  const health = await fetch(`${origin}/health`);
  if (!health.ok) throw new Error(`llama-server /health answered ${health.status}`);
  return {
    origin,
    log: () => output,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
