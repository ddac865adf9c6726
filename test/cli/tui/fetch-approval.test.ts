import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmuxMissing } from '../../helpers/tmux.js';
import { startReika, TERMINALS } from './reika-term.js';

/** `fetch` in a real terminal: the domain is asked about once; "Always here" writes its rule, which covers the next page (issues 37, 30). */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

maybe('a fetch asks for its domain, and after Always a second page of that domain is read without asking', async (t) => {
  const seen: string[] = [];
  const web = createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Page ${request.url}</title></head><body><nav>Menu</nav><main><p>Body of ${request.url}</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  t.teardown(() => web.close());
  const base = `http://localhost:${(web.address() as AddressInfo).port}`;
  const { term, server } = await startReika(t, TERMINALS[1]!, [
    { toolCalls: [{ name: 'fetch', arguments: { url: `${base}/one` } }] },
    { toolCalls: [{ name: 'fetch', arguments: { url: `${base}/two` } }] },
    { content: 'read both pages' },
  ]);
  term.type('read the two pages');
  term.keys('Enter');
  const asking = await term.waitFor('Always here (a)');
  t.regex(asking, /"Always" allows WebFetch\(domain:localhost\)/);
  t.regex(asking, /\? fetch needs approval: reads a web page from localhost/);
  t.regex(asking, new RegExp(`${base}/one`));
  t.deepEqual(seen, [], 'nothing is requested before the answer');
  term.type('a');
  const done = await term.waitFor('read both pages');
  t.deepEqual(seen, ['/one', '/two']);
  t.is(done.split('needs approval').length - 1, 1, 'asked once for the domain');
  const toolMessages = server.chatRequests()[2]!.json.messages.filter((message: { role: string }) => message.role === 'tool');
  t.regex(toolMessages[1].content, /Body of \/two/);
  t.notRegex(toolMessages[1].content, /Menu/);
});
