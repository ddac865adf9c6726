import { createRequire } from 'node:module';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { onAbort } from '../../../runtime/abort.js';
import { ReikaError } from '../../../runtime/errors.js';

// One HTTP exchange with the model server, on `node:http` rather than the global `fetch`:
// - the bytes arrive as Buffers straight from the socket, with no WHATWG-stream layer per chunk
//   (bench/model-io.bench.ts measures both on the same 1 MB stream);
// - connection failures keep their `code` (ECONNREFUSED, ECONNRESET…) instead of a generic
//   `TypeError: fetch failed`, which is what the retry policy branches on;
// - `setTimeout` is exactly the idle timeout REIKA_REQUEST_TIMEOUT_MS means: time without a byte.
// Keep-alive agents reuse the connection to a local server across the turns of a session.

const httpAgent = new HttpAgent({ keepAlive: true });

/**
 * `node:https` and its agent, loaded for the first https URL: a local server is plain http, and
 * node:https (with TLS) costs the model-io thread ~2 ms of its boot, which the first request waits for.
 */
let https: { request: typeof import('node:https').request; agent: import('node:https').Agent } | undefined;
function httpsClient(): NonNullable<typeof https> {
  if (!https) {
    const loaded = createRequire(import.meta.url)('node:https') as typeof import('node:https');
    https = { request: loaded.request, agent: new loaded.Agent({ keepAlive: true }) };
  }
  return https;
}

/** Thrown when the server sent nothing for the idle timeout (classify-failure.ts reports it as a timeout). */
export class IdleTimeoutError extends ReikaError {
  constructor(readonly ms: number) {
    super('REIKA_ERR_IDLE_TIMEOUT', `no data for ${ms} ms`);
  }

  /** True for an IdleTimeoutError from any realm, or its flattened record (which has no `ms`). */
  static override isInstance(value: unknown): value is IdleTimeoutError {
    return ReikaError.isInstance(value) && value.code === 'REIKA_ERR_IDLE_TIMEOUT';
  }
}

export interface HttpOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** 0 = no timeout. */
  idleTimeoutMs: number;
}

export interface HttpExchange {
  response: IncomingMessage;
  /** Closes the connection at once (abort, or enough read). */
  destroy(): void;
}

/** Sends the request and resolves once the response headers arrived. */
export function openHttp(url: string, options: HttpOptions): Promise<HttpExchange> {
  return new Promise<HttpExchange>((resolve, reject) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      reject(Object.assign(new Error(`invalid URL ${url}`), { code: 'ERR_INVALID_URL' }));
      return;
    }
    const secure = parsed.protocol === 'https:';
    if (!secure && parsed.protocol !== 'http:') {
      reject(Object.assign(new Error(`unsupported protocol ${parsed.protocol}`), { code: 'ERR_INVALID_URL' }));
      return;
    }
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const request = secure ? httpsClient().request(parsed, { method: options.method, headers, agent: httpsClient().agent }) : httpRequest(parsed, { method: options.method, headers, agent: httpAgent });
    const removeAbort = onAbort(options.signal, () => request.destroy(Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ABORT_ERR' })));
    request.once('close', removeAbort);
    if (options.idleTimeoutMs > 0) request.setTimeout(options.idleTimeoutMs, () => request.destroy(new IdleTimeoutError(options.idleTimeoutMs)));
    request.once('error', reject);
    request.once('response', (response) => {
      // Errors after the headers surface through the response stream the caller reads.
      request.removeListener('error', reject);
      request.on('error', (error) => response.destroy(error));
      resolve({ response, destroy: () => request.destroy() });
    });
    request.end(options.body);
  });
}

/** Reads a (small) response body as text, at most `limit` bytes. */
export async function readText(response: IncomingMessage, limit = 1 << 20): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}
