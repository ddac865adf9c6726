import test from 'ava';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { tmuxMissing } from '../../helpers/tmux.js';
import { runReika } from '../headless-helpers.js';
import { startReika, TERMINALS } from './reika-term.js';

/**
 * `fetch` in a real terminal: the domain is asked about once; "Always here" writes its
 * `WebFetch(domain:…)` rule to `.reika/settings.local.json`, which covers the next page and the
 * next session (issues 37, 30).
 */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

maybe('a fetch asks for its domain; Always writes WebFetch(domain:…) to the settings file, which covers the next page and the next session', async (t) => {
  const seen: string[] = [];
  const web = createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Page ${request.url}</title></head><body><nav>Menu</nav><main><p>Body of ${request.url}</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  t.teardown(() => web.close());
  const base = `http://localhost:${(web.address() as AddressInfo).port}`;
  const { term, server, root } = await startReika(t, TERMINALS[1]!, [
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
  // (The line may wrap at 80 columns.)
  t.regex(done.replace(/\n/g, ''), /→ approved; always: allow WebFetch\(domain:localhost\) → .*\.reika\/settings\.local\.json/);
  t.deepEqual(JSON.parse(readFileSync(join(root, '.reika/settings.local.json'), 'utf8')), { permissions: { allow: ['WebFetch(domain:localhost)'] } });

  // The next session, headless (where nobody can answer): the rule reads the page. A project's
  // allow rules count once the project is trusted (SPEC §17); untrusted, the fetch is declined unsent.
  const next = async (trusted: boolean) => {
    const model = await startScriptedServer([{ toolCalls: [{ name: 'fetch', arguments: { url: `${base}/three` } }] }, { content: 'read it' }], { models: ['scripted-model'] });
    t.teardown(() => model.close());
    const run = await runReika(['-p', 'read the third page'], { cwd: root, env: { REIKA_BASE_URL: model.url, REIKA_MODEL: 'scripted-model', ...(trusted ? { REIKA_TRUST_PROJECT: '1' } : {}) } });
    return { run, tool: (model.chatRequests()[1]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!.content };
  };
  const untrusted = await next(false);
  t.regex(untrusted.tool, /declined/);
  t.deepEqual(seen, ['/one', '/two'], 'declined: the server sees no request');
  const trusted = await next(true);
  t.is(trusted.run.code, 0, trusted.run.stderr);
  t.regex(trusted.tool, /Body of \/three/);
  t.deepEqual(seen, ['/one', '/two', '/three']);
});
