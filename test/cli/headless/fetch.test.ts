import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { runReika } from '../headless-helpers.js';

/** `fetch` headless: nobody can approve a domain, so it is declined and the page is never requested (issue 37). */

test('headless, a fetch without a rule is declined and the web server sees no request', async (t) => {
  const seen: string[] = [];
  const web = createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('secret page');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  t.teardown(() => web.close());
  const page = `http://127.0.0.1:${(web.address() as AddressInfo).port}/notes`;
  const model = await startScriptedServer([{ toolCalls: [{ name: 'fetch', arguments: { url: page } }] }, { content: 'could not read it' }], { models: ['scripted-model'] });
  t.teardown(() => model.close());
  const run = await runReika(['-p', 'read the notes page', '--json'], { cwd: gitRepo({ 'README.md': '# r\n' }), env: { REIKA_BASE_URL: model.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.is(result.toolCalls[0].status, 'declined');
  t.regex(result.toolCalls[0].summary, /headless/);
  t.deepEqual(seen, [], 'the page was never requested');
  const messages = (model.chatRequests()[1]!.json as { messages: { role: string; content: string }[] }).messages;
  t.regex(messages.find((message) => message.role === 'tool')!.content, /declined/);
});

test('headless, a fetch that a user rule WebFetch(domain:…) allows reads the page', async (t) => {
  const seen: string[] = [];
  const web = createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><nav>Menu</nav><main><p>The release notes.</p></main></body></html>');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  t.teardown(() => web.close());
  const page = `http://127.0.0.1:${(web.address() as AddressInfo).port}/notes`;
  const home = tempDir('reika-home-');
  mkdirSync(join(home, '.config', 'reika'), { recursive: true });
  writeFileSync(join(home, '.config', 'reika', 'settings.json'), JSON.stringify({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } }));
  const model = await startScriptedServer([{ toolCalls: [{ name: 'fetch', arguments: { url: page } }] }, { content: 'read it' }], { models: ['scripted-model'] });
  t.teardown(() => model.close());
  const run = await runReika(['-p', 'read the notes page', '--json'], { cwd: gitRepo({ 'README.md': '# r\n' }), env: { HOME: home, REIKA_BASE_URL: model.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  t.is(JSON.parse(run.stdout).toolCalls[0].status, 'done');
  t.deepEqual(seen, ['/notes']);
  const messages = (model.chatRequests()[1]!.json as { messages: { role: string; content: string }[] }).messages;
  const told = messages.find((message) => message.role === 'tool')!.content;
  t.regex(told, /The release notes\./);
  t.notRegex(told, /Menu/);
});
