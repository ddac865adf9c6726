import test from 'ava';
import { McpHub } from '../../../actors/mcp/hub.js';
import { mcpAddress } from '../../../actors/mcp/protocol.js';
import { McpTrust } from '../../../actors/mcp/trust.js';
import type { ToolResult } from '../../../actors/tool-executor/protocol.js';
import { client, Supervisor } from '../../../runtime/index.js';
import { tempDir } from '../../helpers/temp.js';
import { recordingProxy, startEverythingHttp } from './http-server.js';
import { isolatedEnv, whereOf, writeUserConfig } from './servers.js';
import { join } from 'node:path';
import { toolSettings } from '../../helpers/tool-settings.js';

/** server-everything over HTTP: its streamable HTTP mode, and its older HTTP+SSE mode reached by the fallback. */

function hubWith(t: { teardown(fn: () => Promise<void>): void }, env: NodeJS.ProcessEnv) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  const hub = new McpHub({ supervisor, headless: true, env, trust: new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json')) });
  return { supervisor, hub };
}

function run(supervisor: Supervisor, name: string, args: Record<string, unknown>, root: string, options: { scope?: string; onDelta?: (delta: { text: string }) => void } = {}): Promise<ToolResult> {
  return client(supervisor, mcpAddress('everything')).request({ type: 'run', callId: 'c1', name, args, context: { root, approvals: 'bypass', mode: 'agent', settings: toolSettings(root) } }, options);
}

interface JsonRpc {
  method?: string;
  id?: number;
  params?: { name?: string; requestId?: number };
}

test('a server over streamable HTTP lists its tools, answers calls and errors, gets the expanded headers, and is told of a cancelled call', async (t) => {
  const server = await startEverythingHttp('streamableHttp');
  const proxy = await recordingProxy(server.url);
  t.teardown(async () => {
    await proxy.close();
    await server.close();
  });
  const env = isolatedEnv({ MCP_TEST_TOKEN: 'sesame' });
  writeUserConfig(env, { everything: { type: 'http', url: proxy.url, headers: { Authorization: 'Bearer ${MCP_TEST_TOKEN}' } } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const [status] = hub.status();
  t.is(status?.state, 'ready', status?.reason);
  t.is(status?.type, 'http');
  t.true(status!.tools.includes('mcp__everything__echo'));
  t.true(proxy.seen.length > 0);
  t.true(proxy.seen.every((request) => request.headers.authorization === 'Bearer sesame'), 'every request carries the expanded header');

  const echo = await run(supervisor, 'mcp__everything__echo', { message: 'over http' }, root);
  t.is(echo.status, 'done');
  t.regex(echo.payload, /Echo: over http/);
  const bad = await run(supervisor, 'mcp__everything__get-sum', { a: 'x' }, root);
  t.is(bad.status, 'error');
  t.regex(bad.summary, /^get-sum \(everything\) failed: /);

  let progressed!: () => void;
  const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
  const call = run(supervisor, 'mcp__everything__trigger-long-running-operation', { duration: 60, steps: 60 }, root, { scope: 'turn-h', onDelta: (delta) => /progress 1\/60/.test(delta.text) && progressed() });
  await firstProgress;
  supervisor.abort('turn-h', 'interrupted by the user');
  const result = await call.catch((error: Error) => ({ status: 'rejected', summary: error.message }) as const);
  t.true(result.status === 'cancelled' || result.status === 'rejected', JSON.stringify(result));
  // A later call's answer means the cancellation's POST (sent before it) reached the server.
  t.regex((await run(supervisor, 'mcp__everything__echo', { message: 'still here' }, root)).payload, /still here/);
  const sent = proxy.seen.filter((request) => request.method === 'POST').flatMap((request) => [JSON.parse(request.body) as JsonRpc | JsonRpc[]].flat());
  const started = sent.find((message) => message.method === 'tools/call' && message.params?.name === 'trigger-long-running-operation');
  const cancelled = sent.find((message) => message.method === 'notifications/cancelled');
  t.truthy(started);
  t.is(cancelled?.params?.requestId, started!.id);
});

test('"type": "http" falls back to the older HTTP+SSE transport when the server does not take streamable HTTP', async (t) => {
  const server = await startEverythingHttp('sse');
  t.teardown(() => server.close());
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { type: 'http', url: server.url } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  t.is(hub.status()[0]?.state, 'ready', hub.status()[0]?.reason);
  const echo = await run(supervisor, 'mcp__everything__echo', { message: 'over sse' }, root);
  t.regex(echo.payload, /Echo: over sse/, JSON.stringify(echo));
});

test('an HTTP server that is not there is one line in its status', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { gone: { type: 'http', url: 'http://127.0.0.1:9/mcp' } });
  const { supervisor, hub } = hubWith(t, env);
  await hub.start(tempDir(), whereOf(env));
  await hub.settled(30_000);
  const [status] = hub.status();
  t.is(status?.state, 'failed');
  t.regex(status?.reason ?? '', /^http:\/\/127\.0\.0\.1:9\/mcp: /);
  t.false((status?.reason ?? '').includes('\n'));
  t.false(supervisor.has(mcpAddress('gone')));
});
