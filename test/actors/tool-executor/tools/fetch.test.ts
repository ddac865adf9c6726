import test from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fetchBody } from '../../../../actors/tool-executor/web/fetch-page.js';
import { tempDir } from '../../../helpers/temp.js';
import { call } from '../harness.js';

/** `fetch{url}` against real HTTP servers on loopback (issue 37). */

interface Site {
  url: string;
  /** Paths requested so far. */
  seen: string[];
}

async function site(t: { teardown(fn: () => void): void }, handle: (request: IncomingMessage, response: ServerResponse) => void, host = 'localhost'): Promise<Site> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, seen };
}

const ARTICLE = `<!doctype html><html><head><title>Changelog 4.2</title>
<script>window.secretTracker = "do-not-show";</script><style>.nav { color: red }</style></head>
<body><header><nav><a href="/">Home</a> · <a href="/pricing">Pricing</a> · <a href="/login">Log in</a></nav></header>
<aside class="sidebar"><h3>Related posts</h3><a href="/old">An old post</a></aside>
<main><article><h1>Version 4.2</h1>
<p>The parser now keeps <strong>trailing commas</strong>; see <a href="/docs/parser#commas">the parser guide</a>.</p>
<ul><li>Faster tokenizer</li><li>New <code>strict</code> option</li></ul>
<pre><code class="language-ts">parse(source, { strict: true });</code></pre>
</article></main>
<footer><nav><a href="/privacy">Privacy</a></nav> © ACME</footer><script src="/app.js"></script></body></html>`;

test('an HTML page comes back as its main content in Markdown: scripts, styles and navigation dropped, links kept', async (t) => {
  const web = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE));
  const result = await call(tempDir(), 'fetch', { url: `${web.url}/blog/4.2` });
  t.is(result.status, 'done', result.summary);
  t.is(result.summary, `fetched ${web.url}/blog/4.2 — Changelog 4.2: ${result.summary.split(': ').at(-1)}`);
  t.is(
    result.payload,
    [
      `URL: ${web.url}/blog/4.2`,
      'Title: Changelog 4.2',
      '',
      '# Version 4.2',
      '',
      `The parser now keeps **trailing commas**; see [the parser guide](${web.url}/docs/parser#commas).`,
      '',
      '- Faster tokenizer',
      '- New `strict` option',
      '',
      '```ts',
      'parse(source, { strict: true });',
      '```',
    ].join('\n'),
  );
  for (const gone of ['secretTracker', 'color: red', 'Pricing', 'Related posts', 'Privacy', 'ACME']) t.false(result.payload.includes(gone), gone);
  t.is(result.asked.length, 1);
  t.is(result.asked[0]!.tool, 'fetch');
  t.is(result.asked[0]!.domain, 'localhost');
  t.is(result.asked[0]!.reason, 'reads a web page from localhost');
  t.deepEqual(web.seen, ['/blog/4.2']);
});

test('a page served as application/xhtml+xml is read as XML: `<script .../>` holds nothing, the text after it stays', async (t) => {
  const xhtml = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Spec</title><script src="/a.js"/></head><body><main><p>Section one.</p><div class="clear"/><p>Section two.</p></main></body></html>';
  const web = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'application/xhtml+xml' }).end(xhtml));
  const result = await call(tempDir(), 'fetch', { url: `${web.url}/spec` }, { approvals: 'bypass' });
  t.is(result.status, 'done', result.summary);
  t.is(result.payload, [`URL: ${web.url}/spec`, 'Title: Spec', '', 'Section one.', '', 'Section two.'].join('\n'));
});

test('declined, the page is not requested at all; bypass fetches without asking', async (t) => {
  const web = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
  const declined = await call(tempDir(), 'fetch', { url: `${web.url}/x` }, { ask: async () => ({ decision: 'decline', note: 'declined: reika runs headless' }) });
  t.is(declined.status, 'declined');
  t.deepEqual(web.seen, [], 'the server saw no request');
  const bypass = await call(tempDir(), 'fetch', { url: `${web.url}/y` }, { approvals: 'bypass' });
  t.is(bypass.status, 'done');
  t.deepEqual(bypass.asked, []);
  t.is(bypass.payload, `URL: ${web.url}/y\n\nhello`);
});

test('a page read once in the session comes from the cache: nothing asked, nothing downloaded', async (t) => {
  const web = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"4.2","ok":true}'));
  const first = await call(tempDir(), 'fetch', { url: `${web.url}/api.json` });
  t.is(first.payload, `URL: ${web.url}/api.json\n\n{"version":"4.2","ok":true}`, 'JSON as it is');
  const again = await call(tempDir(), 'fetch', { url: `${web.url}/api.json#top` });
  t.regex(again.summary, /\(from this session's cache\)$/);
  t.deepEqual(again.asked, []);
  t.deepEqual(web.seen, ['/api.json']);
});

test('redirects are followed within the approved domain and refused to another, which sees no request', async (t) => {
  const other = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('elsewhere'), '127.0.0.1');
  const web = await site(t, (request, response) => {
    if (request.url === '/old') response.writeHead(301, { location: '/new' }).end();
    else if (request.url === '/away') response.writeHead(302, { location: `${other.url}/landing` }).end();
    else response.writeHead(200, { 'content-type': 'text/plain' }).end('the new place');
  });
  const moved = await call(tempDir(), 'fetch', { url: `${web.url}/old` });
  t.is(moved.status, 'done');
  t.regex(moved.summary, new RegExp(`\\(redirected to ${web.url}/new\\)`));
  t.regex(moved.payload, /the new place$/);
  const away = await call(tempDir(), 'fetch', { url: `${web.url}/away` });
  t.is(away.status, 'error');
  t.is(away.errorCode, 'FETCH_REFUSED');
  t.is(away.summary, `${web.url}/away redirects to ${other.url}/landing, on another domain (127.0.0.1); fetch that URL to follow it (it asks for 127.0.0.1 first)`);
  t.deepEqual(other.seen, []);
});

test('a PDF, an image, an HTTP error and a closed port are one line each', async (t) => {
  const web = await site(t, (request, response) => {
    if (request.url === '/paper.pdf') response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
    else if (request.url === '/logo.png') response.writeHead(200, { 'content-type': 'image/png' }).end('png');
    else response.writeHead(404, 'Not Found').end('nope');
  });
  const root = tempDir();
  t.is((await call(root, 'fetch', { url: `${web.url}/paper.pdf` })).summary, `${web.url}/paper.pdf is a PDF; fetch reads HTML, text and JSON only`);
  t.is((await call(root, 'fetch', { url: `${web.url}/logo.png` })).summary, `${web.url}/logo.png is image/png, not a page; fetch reads HTML, text and JSON only`);
  t.is((await call(root, 'fetch', { url: `${web.url}/missing` })).summary, `${web.url}/missing answered HTTP 404 Not Found`);
  // A port nothing listens on: one that was just freed.
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  const port = (spare.address() as AddressInfo).port;
  await new Promise((resolve) => spare.close(resolve));
  const closed = await call(root, 'fetch', { url: `http://127.0.0.1:${port}/x` });
  t.is(closed.errorCode, 'FETCH_FAILED');
  t.is(closed.summary, `http://127.0.0.1:${port}/x: connect ECONNREFUSED 127.0.0.1:${port}`);
  t.is((await call(root, 'fetch', { url: 'file:///etc/passwd' })).summary, 'fetch: fetch reads http and https URLs only, not file');
  t.is((await call(root, 'fetch', { url: 'not a url' })).summary, 'fetch: "not a url" is not a URL (give a full http:// or https:// address)');
});

test('a long page gives its first part inline and the whole in a file read can open; a huge body is cut at the cap', async (t) => {
  const paragraph = `<p>${'word '.repeat(200)}</p>`;
  const web = await site(t, (request, response) => {
    if (request.url === '/long') response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main>${paragraph.repeat(100)}</main></body></html>`);
    else {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 7; i++) response.write(chunk);
      response.end();
    }
  });
  const long = await call(tempDir(), 'fetch', { url: `${web.url}/long` });
  t.is(long.status, 'done');
  const spill = long.meta?.spillPath;
  t.truthy(spill);
  t.regex(long.summary, /first 39,\d{3} characters of \d{2,3},\d{3} characters inline; the whole Markdown is in \S+\.md \(read it with an offset\)/);
  t.is(readFileSync(spill!, 'utf8').split('\n\n').length, 100);
  const huge = await call(tempDir(), 'fetch', { url: `${web.url}/huge.txt` });
  t.regex(huge.summary, /only the first 5\.0 MB of the page were read/);
});

test('a page that does not answer in time fails in one line, and an abort cancels the call', async (t) => {
  const web = await site(t, () => {
    // Never answers.
  });
  const slow = await fetchBody(new URL(`${web.url}/slow`), { signal: new AbortController().signal, host: 'localhost', timeoutMs: 300 }).catch((error: Error) => error.message);
  t.is(slow, `${web.url}/slow did not answer within 0.3 s`);
  const stalled = await site(t, () => {
    // Never answers either.
  });
  const controller = new AbortController();
  let settled = false;
  const pending = call(tempDir(), 'fetch', { url: `${stalled.url}/stuck` }, { signal: controller.signal, approvals: 'bypass' }).finally(() => (settled = true));
  // Aborted once the server has the request (or at once if the call ended before it got there).
  while (stalled.seen.length < 1 && !settled) await new Promise((resolve) => setImmediate(resolve));
  controller.abort();
  const stuck = await pending;
  t.is(stuck.status, 'cancelled', stuck.summary);
});

test('a WebFetch(domain:…) rule allows the domain with nobody to ask, and a deny rule refuses it even under bypass', async (t) => {
  const web = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('allowed page'));
  const headless = async () => ({ decision: 'decline' as const, note: 'declined: reika runs headless' });
  const user = { scope: 'user' as const, file: '/home/u/.config/reika/settings.json' };
  const allowed = await call(tempDir(), 'fetch', { url: `${web.url}/a` }, { ask: headless, permissions: [{ ...user, effect: 'allow', rule: 'WebFetch(domain:localhost)' }] });
  t.is(allowed.status, 'done', allowed.summary);
  t.deepEqual(allowed.asked, []);
  const other = await call(tempDir(), 'fetch', { url: `${web.url.replace('localhost', '127.0.0.1')}/b` }, { ask: headless, permissions: [{ ...user, effect: 'allow', rule: 'WebFetch(domain:localhost)' }] });
  t.is(other.status, 'declined', 'another domain is still asked about, and headless declines it');
  const denied = await call(tempDir(), 'fetch', { url: `${web.url}/c` }, { approvals: 'bypass', permissions: [{ ...user, effect: 'deny', rule: 'WebFetch(domain:localhost)' }] });
  t.is(denied.status, 'declined');
  t.regex(denied.summary, /denied by the permission rule/);
  t.deepEqual(web.seen, ['/a']);
});

test('a URL that holds a secret reika knows is refused before anything is asked or sent', async (t) => {
  const web = await site(t, (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('x'));
  // The session's API key: a secret of reika's own configuration.
  const before = process.env.REIKA_API_KEY;
  process.env.REIKA_API_KEY = 'sk-fetch-test-7f3a9c2e41b8';
  t.teardown(() => (before === undefined ? delete process.env.REIKA_API_KEY : (process.env.REIKA_API_KEY = before)));
  const leaked = await call(tempDir(), 'fetch', { url: `${web.url}/collect?k=sk-fetch-test-7f3a9c2e41b8` }, { approvals: 'bypass' });
  t.is(leaked.errorCode, 'FETCH_REFUSED');
  t.is(leaked.summary, 'the URL holds a value reika knows to be secret (a key or token from the environment or settings); it is not sent anywhere');
  t.deepEqual(leaked.asked, []);
  t.deepEqual(web.seen, []);
});
