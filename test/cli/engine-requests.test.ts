import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { llamaCppModel, llamaCppProps, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/**
 * How much reika asks a server before its first chat request (SPEC §20): each endpoint at most
 * once per start, nothing past llama.cpp's /props once it answered, only /v1/models of a hosted
 * API, and on a warm start nothing it learnt last time (the answers are kept in the state folder
 * and asked again once the first request has gone).
 */

function beforeFirstChat(server: ScriptedServer, from = 0): string[] {
  const asked: string[] = [];
  for (const request of server.requests.slice(from)) {
    if (request.method === 'POST' && request.path === '/v1/chat/completions') break;
    asked.push(`${request.method} ${request.path}`);
  }
  return asked;
}

test('against llama.cpp a cold start asks each endpoint once and a warm start asks nothing before the first request', async (t) => {
  const server = await startScriptedServer([{ content: 'one' }, { content: 'two' }], { models: [llamaCppModel('qwen', 32768)], props: llamaCppProps(16384) });
  t.teardown(() => server.close());
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const state = tempDir('reika-state-');
  const env = { REIKA_BASE_URL: server.url, REIKA_MODEL: 'qwen', XDG_STATE_HOME: state };

  const cold = await runReika(['-p', 'hi', '--json'], { cwd: repo, env });
  t.is(cold.code, 0, cold.stderr);
  const coldAsked = beforeFirstChat(server);
  t.log('cold:', coldAsked.join(', '));
  t.is(new Set(coldAsked).size, coldAsked.length, 'no endpoint asked twice');
  t.true(coldAsked.length <= 3, coldAsked.join(', '));
  t.false(coldAsked.some((r) => /\/api\/|\/version|get_server_info/.test(r)), 'llama.cpp answered /props: no other engine asked');

  const second = server.requests.length;
  const warm = await runReika(['-p', 'hi', '--json'], { cwd: repo, env });
  t.is(warm.code, 0, warm.stderr);
  const warmAsked = beforeFirstChat(server, second);
  t.log('warm:', warmAsked.join(', ') || 'nothing');
  t.true(warmAsked.length <= 2, warmAsked.join(', '));
  t.deepEqual(warmAsked, [], 'the models, the window and the engine record came from the last start');
  const afterwards = server.requests.slice(second).map((r) => `${r.method} ${r.path}`);
  t.true(afterwards.indexOf('GET /v1/models') > afterwards.indexOf('POST /v1/chat/completions'), 'the server is asked again once the first request has gone');
  t.is(afterwards.filter((r) => r === 'GET /props').length, 1);
});

test('a hosted URL is asked /v1/models only', async (t) => {
  const server = await startScriptedServer([{ content: 'hello' }], { models: ['gpt-x'] });
  t.teardown(() => server.close());
  // `api.hosted.example` resolves to the scripted server in reika's process and threads only.
  const dir = tempDir('reika-hosts-');
  const preload = join(dir, 'hosts.cjs');
  writeFileSync(
    preload,
    `const dns = require('node:dns');\nconst lookup = dns.lookup;\ndns.lookup = (host, options, callback) => {\n  if (typeof options === 'function') { callback = options; options = {}; }\n  if (host !== 'api.hosted.example') return lookup(host, options, callback);\n  return options && options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);\n};\n`,
  );
  const url = server.url.replace('127.0.0.1', 'api.hosted.example');
  const run = await runReika(['-p', 'hi'], { cwd: gitRepo({ 'a.txt': 'a\n' }), env: { REIKA_BASE_URL: url, REIKA_MODEL: 'gpt-x', REIKA_API_KEY: 'k', XDG_STATE_HOME: tempDir('reika-state-'), NODE_OPTIONS: `--require ${preload}` } });
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /hello/);
  t.deepEqual(beforeFirstChat(server), ['GET /v1/models']);
  t.false(server.requests.some((r) => r.path !== '/v1/models' && r.path !== '/v1/chat/completions'), 'no engine endpoint is asked of a hosted API at all');
});
