import { ToolError } from '../tools/tool-error.js';

// A query to a SearXNG-compatible endpoint (`REIKA_SEARCH_URL`): `GET <endpoint>/search?q=…&format=json`,
// its `results` read as title, URL and snippet. The endpoint may be given with or without its
// `/search` path. Failures are one-line ToolErrors; an abort of `signal` rejects as it is.

export const SEARCH_TIMEOUT_MS = 15_000;
/** Results given to the model at most. */
export const MAX_RESULTS = 8;

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** The request URL for `query` at `endpoint`. */
export function searchUrl(endpoint: string, query: string): URL {
  const url = new URL(endpoint);
  if (!/\/search\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  return url;
}

export async function search(endpoint: string, query: string, signal: AbortSignal, timeoutMs = SEARCH_TIMEOUT_MS): Promise<SearchResult[]> {
  let url: URL;
  try {
    url = searchUrl(endpoint, query);
  } catch {
    throw new ToolError('SEARCH_FAILED', `REIKA_SEARCH_URL is not a URL: ${endpoint}`);
  }
  const shown = `${url.origin}${url.pathname}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  let body: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.any([signal, timeout]), headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      const hint = response.status === 403 ? ' (SearXNG answers JSON only when its settings list json under search.formats)' : '';
      throw new ToolError('SEARCH_FAILED', `the search endpoint ${shown} answered HTTP ${response.status}${hint}`);
    }
    const text = await response.text();
    try {
      body = JSON.parse(text);
    } catch {
      throw new ToolError('SEARCH_FAILED', `the search endpoint ${shown} did not answer JSON`);
    }
  } catch (error) {
    if (signal.aborted || ToolError.isInstance(error)) throw error;
    if (timeout.aborted) throw new ToolError('SEARCH_FAILED', `the search endpoint ${shown} did not answer within ${Math.round(timeoutMs / 1000)} s`);
    const cause = (error as { cause?: Error }).cause;
    throw new ToolError('SEARCH_FAILED', `the search endpoint ${shown} could not be reached: ${(cause ?? (error as Error)).message?.split('\n')[0] ?? String(error)}`);
  }
  const results = (body as { results?: unknown }).results;
  if (!Array.isArray(results)) throw new ToolError('SEARCH_FAILED', `the search endpoint ${shown} answered JSON without a results list`);
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  for (const entry of results) {
    if (out.length >= MAX_RESULTS) break;
    const { title, url: link, content } = (entry ?? {}) as Record<string, unknown>;
    if (typeof link !== 'string' || seen.has(link)) continue;
    seen.add(link);
    out.push({ title: oneLine(typeof title === 'string' ? title : link), url: link, snippet: oneLine(typeof content === 'string' ? content : '') });
  }
  return out;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
