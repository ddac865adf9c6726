import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { everythingEntry } from './servers.js';
import { watchChild } from '../../helpers/watchdog.js';

/**
 * server-everything over HTTP (`streamableHttp` at `/mcp`, or the older HTTP+SSE at `/sse`), on a
 * free port, started with this Node. Resolves once it says it listens (its own stderr line).
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry(), mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  // Ended by close(); the watchdog ends it if the test never gets there (or its process ends first).
  watchChild(child, `server-everything ${mode}`);
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (/(listening|running) on port/i.test(said)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with code ${code}: ${said.trim()}`)));
  });
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** What a client sent through {@link recordingProxy}: each request's method, path, headers and body. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A plain HTTP proxy in front of `target` that records every request (the server's view of what
 * reika sent: `notifications/cancelled`, expanded headers) and streams the answers back as they come.
 */
export async function recordingProxy(target: string): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const { createServer: createHttpServer, request } = await import('node:http');
  const to = new URL(target);
  const seen: SeenRequest[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
