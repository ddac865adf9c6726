import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startScriptedServer, type ScriptedRequest } from '../test/helpers/scripted-server.js';

// One reika process from spawn to its first chat request, against a scripted server of its own
// (what the startup and MCP benches time). The process tree is sampled every few ms meanwhile.

export interface FirstRequest {
  /** Spawn → the first chat request at the server. */
  firstMs: number;
  request: ScriptedRequest;
  stderr: string;
  /** The largest value `sample` gave for the process tree while it ran (0 without one). */
  peak: number;
}

export interface FirstRequestOptions {
  /** Node's arguments: the reika entry and its own. */
  args: string[];
  cwd: string;
  /** Added to this process's environment; the server's URL, model and window are set too (the URL also as BENCH_URL). */
  env: NodeJS.ProcessEnv;
  /** A figure of the process tree rooted at the pid, sampled every 5 ms (see {@link treeRss}, {@link treeSize}). */
  sample?: (pid: number) => number;
}

/**
 * The server's port, the same for every run of this bench process: a user's server keeps its URL
 * from one start to the next, and what reika remembers of it (`actors/session/engine-memory.ts`) is
 * kept per URL.
 */
let port: number | undefined;

export async function firstRequest(options: FirstRequestOptions): Promise<FirstRequest> {
  let firstAt = 0;
  const server = await startScriptedServer(
    () => {
      firstAt ||= performance.now();
      return { content: 'ok' };
    },
    port === undefined ? {} : { port },
  );
  port ??= Number(new URL(server.url).port);
  try {
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, options.args, {
      cwd: options.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...options.env, BENCH_URL: server.url, REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let peak = 0;
    const sample = options.sample;
    const sampler = sample ? setInterval(() => (peak = Math.max(peak, sample(child.pid!))), 5) : undefined;
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearInterval(sampler);
    const request = server.chatRequests()[0];
    if (!request || code !== 0) throw new Error(`${options.args[0]} made no request in ${options.cwd} (exit ${code}): ${stderr.slice(-500)}`);
    return { firstMs: firstAt - spawnedAt, request, stderr, peak };
  } finally {
    await server.close();
  }
}

/** `pid` and all its descendants now (none once it is gone). */
export function processTree(pid: number): number[] {
  const tree: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    let children: string;
    try {
      children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8');
    } catch {
      continue; // gone
    }
    tree.push(current);
    for (const child of children.trim().split(/\s+/)) if (child) stack.push(Number(child));
  }
  return tree;
}

/** How many processes the tree of `pid` is now. */
export function treeSize(pid: number): number {
  return processTree(pid).length;
}

/** Sum of VmRSS over the tree of `pid`, in bytes (0 once it is gone). */
export function treeRss(pid: number): number {
  let total = 0;
  for (const current of processTree(pid)) {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${current}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}
