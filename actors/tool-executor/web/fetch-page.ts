import { ToolError } from '../tools/tool-error.js';
import { formatBytes } from '../tools/tool-env.js';

// One web page read over HTTP(S) for the `fetch` tool: redirects followed only within the domain
// the person approved, the body read up to a cap, its type and charset taken from the response.
// Every failure is a ToolError with one line; an abort of `signal` rejects as it is.

/** Bodies are read up to this many bytes; the rest is not downloaded. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** A page that has not arrived whole by then fails. */
export const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

export interface FetchedBody {
  /** The URL the body came from, after redirects. */
  url: string;
  /** `text/html`, `application/json`…, lower case, without parameters. */
  type: string;
  text: string;
  bytes: number;
  /** Set when the body was cut at {@link MAX_BODY_BYTES}. */
  truncated: boolean;
}

export interface FetchOptions {
  signal: AbortSignal;
  timeoutMs?: number;
  /** The host that was approved: a redirect elsewhere is not followed. */
  host: string;
}

/** Types read as text; anything else (a PDF, an image, an archive) is refused. */
const TEXT_TYPES = /^(text\/|application\/(json|ld\+json|xhtml\+xml|xml|rss\+xml|atom\+xml|javascript|x-javascript|ecmascript|x-ndjson|yaml|x-yaml|toml)$|application\/[\w.+-]+\+(json|xml)$)/;

export async function fetchBody(start: URL, options: FetchOptions): Promise<FetchedBody> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  let url = start;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, {
        redirect: 'manual',
        signal,
        headers: { 'user-agent': 'reika (terminal coding agent)', accept: 'text/html,application/xhtml+xml,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5' },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel().catch(() => {});
        const next = new URL(response.headers.get('location')!, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new ToolError('FETCH_REFUSED', `${url.href} redirects to ${next.href}, which is not an http(s) URL`);
        if (!sameSite(next.hostname, options.host)) {
          throw new ToolError('FETCH_REFUSED', `${url.href} redirects to ${next.href}, on another domain (${next.hostname}); fetch that URL to follow it (it asks for ${next.hostname} first)`);
        }
        if (hop >= MAX_REDIRECTS) throw new ToolError('FETCH_FAILED', `${start.href}: more than ${MAX_REDIRECTS} redirects`);
        url = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new ToolError('FETCH_FAILED', `${url.href} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
      }
      const contentType = response.headers.get('content-type') ?? '';
      const type = contentType.split(';')[0]!.trim().toLowerCase() || 'text/plain';
      if (type === 'application/pdf') {
        await response.body?.cancel().catch(() => {});
        throw new ToolError('FETCH_REFUSED', `${url.href} is a PDF; fetch reads HTML, text and JSON only`);
      }
      if (!TEXT_TYPES.test(type)) {
        await response.body?.cancel().catch(() => {});
        throw new ToolError('FETCH_REFUSED', `${url.href} is ${type}, not a page; fetch reads HTML, text and JSON only`);
      }
      const { bytes, truncated } = await readCapped(response, MAX_BODY_BYTES);
      return { url: url.href, type, text: decode(bytes, charsetOf(contentType)), bytes: bytes.length, truncated };
    }
  } catch (error) {
    if (options.signal.aborted) throw error;
    if (ToolError.isInstance(error)) throw error;
    if (timeout.aborted) throw new ToolError('FETCH_FAILED', `${url.href} did not answer within ${+(timeoutMs / 1000).toFixed(1)} s`);
    throw new ToolError('FETCH_FAILED', `${url.href}: ${describeNetworkError(error)}`);
  }
}

/** The same host, or one a `www.` apart (example.com ↔ www.example.com). */
export function sameSite(host: string, approved: string): boolean {
  const bare = (name: string) => name.toLowerCase().replace(/^www\./, '');
  return bare(host) === bare(approved);
}

async function readCapped(response: Response, cap: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks, size), truncated: false };
    const room = cap - size;
    if (value.byteLength >= room) {
      chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
      await reader.cancel().catch(() => {});
      return { bytes: Buffer.concat(chunks, cap), truncated: true };
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    size += value.byteLength;
  }
}

function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
}

/** The body as text: the header's charset, else a `<meta charset>` in the first bytes, else UTF-8. */
function decode(bytes: Buffer, charset: string | undefined): string {
  const label = charset ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 2048).toString('latin1'))?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** undici's "fetch failed" with its cause, as one line: `connect ECONNREFUSED 127.0.0.1:9`. */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const inner = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  const code = (inner as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host was not found (${code})`;
  return (inner?.message ?? String(error)).split('\n')[0]!;
}

/** "1.2 MB" for a note about a cut body. */
export function describeCap(): string {
  return formatBytes(MAX_BODY_BYTES);
}
