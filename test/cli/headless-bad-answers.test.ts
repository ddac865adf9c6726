import test from 'ava';
import { createServer } from 'node:http';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** Hostile or broken answers to `reika -p` (issue 21): a clear error or the whole answer, never a silent empty success. */

test('an HTTP 200 with an HTML page ends reika -p with exit 1 and a sentence naming it, after one request', async (t) => {
  let chats = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/chat/completions')) {
        chats++;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Login required</title></head><body>Sign in to continue</body></html>\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  const run = await runReika(['-p', 'hello', '--json'], { cwd: gitRepo({ 'a.txt': 'a\n' }), env: { REIKA_BASE_URL: `http://127.0.0.1:${port}/v1`, REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '16384' } });
  t.is(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  t.is(result.status, 'error');
  t.is(result.answer, '');
  t.regex(result.error.message, /HTTP 200 with text\/html: "<html><head><title>Login required<\/title>/);
  t.is(chats, 1, 'no empty-reply nudge was sent as a second request');
});

test('a stream whose [DONE] never comes still answers reika -p, at once and complete', async (t) => {
  const server = await startScriptedServer([{ content: 'Here is the full answer.', done: false, fault: { type: 'stall', afterBytes: 1e9 } }]);
  t.teardown(() => server.close());
  const run = await runReika(['-p', 'hello', '--json'], {
    cwd: gitRepo({ 'a.txt': 'a\n' }),
    env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '16384', REIKA_REQUEST_TIMEOUT_MS: '0' },
  });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.is(result.status, 'answered');
  t.is(result.answer, 'Here is the full answer.');
  t.truthy(result.usage.requests[0], 'the usage after the finish chunk was kept');
});
