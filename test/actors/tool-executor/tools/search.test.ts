import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { executorTools, sessionTools } from '../../../../actors/tool-executor/registry.js';
import { tempDir } from '../../../helpers/temp.js';
import { call } from '../harness.js';

/** `search{query}` against a fake SearXNG on loopback (issue 37). */

interface FakeSearxng {
  url: string;
  queries: URLSearchParams[];
}

/** Answers /search?format=json as SearXNG does: `results` with title, url and content. */
async function fakeSearxng(t: { teardown(fn: () => void): void }, results: unknown[], status = 200): Promise<FakeSearxng> {
  const queries: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/search') return void response.writeHead(404).end();
    queries.push(url.searchParams);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ query: url.searchParams.get('q'), number_of_results: results.length, results, answers: [], suggestions: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queries };
}

const hits = Array.from({ length: 12 }, (_, i) => ({ title: `Result ${i + 1}`, url: `https://example.com/${i + 1}`, content: `Snippet\n number ${i + 1}.`, engine: 'duckduckgo', score: 12 - i }));

test('a search sends the query as SearXNG JSON and gives at most 8 results as title, URL and snippet', async (t) => {
  const searx = await fakeSearxng(t, [...hits, { ...hits[0] }]);
  const result = await call(tempDir(), 'search', { query: 'node abort signal' }, { searchUrl: searx.url });
  t.is(result.status, 'done', result.summary);
  t.is(result.summary, 'search "node abort signal": 8 results');
  t.deepEqual(result.asked, [], 'the endpoint is the user\'s: nothing is asked');
  t.is(result.payload.split('\n').slice(0, 6).join('\n'), '1. Result 1\n   https://example.com/1\n   Snippet number 1.\n2. Result 2\n   https://example.com/2\n   Snippet number 2.');
  t.is(result.payload.split('\n').filter((line) => /^\d+\. /.test(line)).length, 8);
  t.is(searx.queries[0]!.get('q'), 'node abort signal');
  t.is(searx.queries[0]!.get('format'), 'json');
});

test('the endpoint may be given with its /search path; no results and an endpoint that fails are one line', async (t) => {
  const empty = await fakeSearxng(t, []);
  t.is((await call(tempDir(), 'search', { query: 'nothing' }, { searchUrl: `${empty.url}/search` })).summary, 'search "nothing": no results');
  const refusing = await fakeSearxng(t, [], 403);
  const refused = await call(tempDir(), 'search', { query: 'x' }, { searchUrl: refusing.url });
  t.is(refused.errorCode, 'SEARCH_FAILED');
  t.is(refused.summary, `the search endpoint ${refusing.url}/search answered HTTP 403 (SearXNG answers JSON only when its settings list json under search.formats)`);
  const closed = await call(tempDir(), 'search', { query: 'x' }, { searchUrl: 'http://127.0.0.1:9' });
  t.regex(closed.summary, /^the search endpoint http:\/\/127\.0\.0\.1:9\/search could not be reached: /);
});

test('search is offered only when an endpoint is set', (t) => {
  const names = (searchUrl?: string) => sessionTools({ searchUrl }).map((tool) => tool.name);
  t.false(names().includes('search'));
  t.true(names('http://127.0.0.1:8888').includes('search'));
  t.truthy(executorTools.get('search'), 'the executor knows it, and refuses it without an endpoint');
});

test('without an endpoint the executor refuses a search call in one line', async (t) => {
  const result = await call(tempDir(), 'search', { query: 'x' });
  t.is(result.errorCode, 'UNKNOWN_TOOL');
  t.is(result.summary, 'search is not available: no search endpoint is set (REIKA_SEARCH_URL)');
});
