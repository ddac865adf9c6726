import test from 'ava';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { llamaCppModel, startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** A session against a scripted llama-server that exposes a real chat template. */

const templates = new URL('../../../test/fixtures/chat-templates/', import.meta.url);

function props(template: string): Record<string, unknown> {
  return { default_generation_settings: { n_ctx: 32768, params: {} }, total_slots: 1, chat_template: template, bos_token: '<s>', eos_token: '</s>', build_info: 'b6870' };
}

test('Mistral-Nemo’s template drops the system prompt: reika sends its instructions at the start of the first user message, in every request', async (t) => {
  const nemo = readFileSync(new URL('mistralai-Mistral-Nemo-Instruct-2407.jinja', templates), 'utf8');
  const server = await startScriptedServer([{ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { content: 'It says a.' }], { models: [llamaCppModel('nemo', 32768)], props: props(nemo) });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['-p', 'what is in a.txt?', '--json'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'nemo', REIKA_ENGINE_WAIT_MS: '60000' } });
  t.is(run.code, 0, run.stderr);
  const chats = server.chatRequests().map((r) => r.json.messages as Array<{ role: string; content: string }>);
  t.is(chats.length, 2);
  for (const messages of chats) {
    t.false(messages.some((m) => m.role === 'system'));
    t.is(messages[0]!.role, 'user');
    t.regex(messages[0]!.content, /Working directory: [\s\S]*\n\nwhat is in a\.txt\?$/);
  }
  t.deepEqual(chats[1]!.slice(0, chats[0]!.length), chats[0], 'the second request extends the first');
});

test('--json totals and --stream per request carry the real cache figures; a re-prefill is flagged with its cause', async (t) => {
  const qwen = readFileSync(new URL('Qwen-Qwen2.5-7B-Instruct.jinja', templates), 'utf8');
  const script = [
    { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }], usageIn: 'finish' as const },
    // The engine lost its cache: everything prefilled again.
    { content: 'It says a.', usageIn: 'finish' as const, usage: { cached_tokens: 0 } },
  ];
  const server = await startScriptedServer(script, { models: [llamaCppModel('qwen', 32768)], props: props(qwen) });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['-p', 'what is in a.txt?', '--stream'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'qwen', REIKA_ENGINE_WAIT_MS: '60000' } });
  t.is(run.code, 0, run.stderr);
  const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
  const usages = events.filter((e) => e.type === 'usage');
  t.is(usages.length, 2);
  t.like(usages[0].cache, { request: 1 });
  t.is(usages[0].usage.cacheFrom, 'timings');
  t.like(usages[1].cache, { request: 2, cachedTokens: 0, reprefill: { cause: 'engine' } });
  t.true(usages[1].cache.prefilledTokens > usages[1].cache.appendedTokens);
  const result = events.at(-1);
  t.is(result.type, 'result');
  t.is(result.usage.prefilledTokens, usages[0].cache.prefilledTokens + usages[1].cache.prefilledTokens);
  t.deepEqual(result.usage.reprefills.map((r: { request: number; cause: string }) => [r.request, r.cause]), [[2, 'engine']]);
  t.true(server.chatRequests().every((r) => r.json.return_progress === true && r.json.id_slot === undefined), 'progress asked; one slot: no id_slot');
});

test('the template check names the first break of a session in one notice: Hermes 3 re-renders the last tool result', async (t) => {
  const hermes = readFileSync(new URL('NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja', templates), 'utf8');
  const server = await startScriptedServer(
    [{ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { toolCalls: [{ name: 'read', arguments: { path: 'b.txt' } }] }, { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' }, id: 'again' }] }, { content: 'Both read.' }],
    { models: [llamaCppModel('hermes', 32768)], props: { ...props(hermes), bos_token: '<|begin_of_text|>', eos_token: '<|im_end|>' } },
  );
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const run = await runReika(['-p', 'read a.txt and b.txt', '--stream'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'hermes', REIKA_ENGINE_WAIT_MS: '60000' } });
  t.is(run.code, 0, run.stderr);
  const notices = run.stdout.trim().split('\n').map((line) => JSON.parse(line)).filter((e) => e.type === 'notice' && /chat template/.test(e.message));
  t.is(notices.length, 1, 'one line, at the first break');
  t.regex(notices[0].message, /^the chat template changed the prompt at request 3: the template renders the last tool result differently once another message follows it \(≈\d+ tokens re-prefilled; reika doctor says more\)$/);
});

test('a server that accepts the request and then goes silent and deaf ends reika -p with one sentence and exit 1', async (t) => {
  // It answers /v1/models, takes the chat request, sends its headers, then nothing; /health never answers.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
      if (req.url === '/v1/chat/completions') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
      }
      // Anything else (detection, /health): no answer.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const run = await runReika(['-p', 'hi'], { cwd: repo, env: { REIKA_BASE_URL: url, REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '8192', REIKA_REQUEST_TIMEOUT_MS: '2000' } });
  t.is(run.code, 1);
  const lines = run.stderr.trim().split('\n').filter((line) => !/sandbox|indexed/.test(line));
  t.deepEqual(lines, [`reika: The model server at ${url} stopped answering: nothing on the stream and no answer to a health check for 2 s — check that it still runs (REIKA_REQUEST_TIMEOUT_MS sets this limit; 0 waits forever).`]);
});
