import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '../../../actors/session/session.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import { declineHeadless, HEADLESS_DECLINE_NOTE } from '../../../cli/headless/approver.js';
import { startScriptedServer, type Script, type WireJson } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { everythingEntry, isolatedEnv, TAP, writeUserConfig } from './servers.js';

/** MCP tools through the real agent loop: model-io against the scripted server, real MCP servers. */

async function sessionWith(t: { teardown(fn: () => Promise<void>): void }, script: Script, servers: Record<string, unknown>, extra: Record<string, string> = {}) {
  const env = isolatedEnv();
  writeUserConfig(env, servers);
  const root = gitRepo({ 'README.md': '# demo\n' });
  const model = await startScriptedServer(script);
  const runtime = startRuntime({ approve: declineHeadless, cwd: root, headless: true, env });
  t.teardown(async () => {
    await runtime.close();
    await model.close();
  });
  const config = loadConfig({ cwd: root, home: env.HOME!, env: { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME!, REIKA_BASE_URL: model.url, REIKA_MODEL: 'coder', REIKA_CONTEXT_WINDOW: '32768', ...extra } });
  const session = new Session({ runtime, config, cwd: root, headless: true });
  return { session, model, runtime, root };
}

const everything = { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } };

function toolMessages(json: WireJson): string[] {
  return json.messages.filter((m: WireJson) => m.role === 'tool').map((m: WireJson) => String(m.content));
}

test('MCP tools run through the agent loop, and every request of the session sends the same tools array', async (t) => {
  const { session, model } = await sessionWith(
    t,
    [
      { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hi from the model' } }] },
      { toolCalls: [{ name: 'mcp__everything__get-tiny-image', arguments: {} }, { name: 'mcp__everything__toggle-simulated-logging', arguments: {} }] },
      { content: 'done' },
      { content: 'second turn' },
    ],
    everything,
    { REIKA_MCP_WAIT_MS: '60000' },
  );
  const first = await session.run('use the tools');
  t.is(first.status, 'answered', first.error?.message);
  t.is((await session.run('again')).status, 'answered');
  const requests = model.chatRequests();
  t.is(requests.length, 4);
  const tools = requests.map((request) => JSON.stringify(request.json.tools));
  t.true(tools.every((json) => json === tools[0]), 'one tools array, byte for byte');
  const names = (requests[0]!.json.tools as WireJson[]).map((tool) => tool.function.name);
  t.true(names.includes('mcp__everything__echo'));
  t.deepEqual(names.slice(0, 2), ['read', 'list'], 'the built-ins first, in their order');
  t.regex(toolMessages(requests[1]!.json)[0]!, /Echo: hi from the model/);
  const [, image, toggle] = toolMessages(requests[2]!.json);
  t.regex(image!, /\[image: image\/png, [\d.]+ (B|KB), saved to \S+\.png\]/);
  // Not read-only and no "approve": "always": safe mode asks, and headless nobody can answer.
  t.is(first.toolCalls[2]?.status, 'declined');
  t.true(toggle!.includes(HEADLESS_DECLINE_NOTE.replace(/^declined: /, '')));
});

test('a server that is not ready at the first request joins at reloadTools, and the tools stay fixed after that', async (t) => {
  const { session, model, runtime } = await sessionWith(t, [{ content: 'one' }, { content: 'two' }, { content: 'three' }], everything);
  t.is((await session.run('first')).status, 'answered');
  const hub = await runtime.mcp();
  await hub.settled(60_000);
  t.is(hub.status()[0]?.state, 'ready', hub.status()[0]?.reason);
  const { added, removed } = await session.reloadTools();
  t.true(added.includes('mcp__everything__echo'));
  t.deepEqual(removed, []);
  await session.run('second');
  await session.run('third');
  const [one, two, three] = model.chatRequests().map((request) => JSON.stringify(request.json.tools));
  t.false(one!.includes('mcp__everything__'), 'the slow server did not hold up the first request');
  t.true(two!.includes('mcp__everything__echo'));
  t.is(two, three);
});

test('aborting the turn during a long MCP call ends it aborted and the server is told', async (t) => {
  const log = join(tempDir(), 'stdin.log');
  const { session, runtime } = await sessionWith(
    t,
    [
      { toolCalls: [{ name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 60, steps: 60 } }] },
      { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'after' } }] },
      { content: 'after' },
    ],
    { everything: { command: process.execPath, args: [TAP, log, process.execPath, everythingEntry(), 'stdio'] } },
    { REIKA_MCP_WAIT_MS: '60000' },
  );
  session.subscribe((event: AgentEvent) => {
    if (event.type === 'tool-output' && /progress 1\//.test(event.text)) session.abort('interrupted by the user');
  });
  const result = await session.run('wait for it');
  t.is(result.status, 'aborted');
  t.is(result.toolCalls[0]?.status, 'cancelled');
  const hub = await runtime.mcp();
  t.is(hub.status()[0]?.state, 'ready');
  // The next call goes through the same stdin after the cancellation: once it is answered, the log has both.
  const again = await session.run('go on');
  t.is(again.status, 'answered');
  t.is(again.toolCalls[0]?.status, 'done');
  const sent = readFileSync(log, 'utf8');
  t.regex(sent, /"method":"notifications\/cancelled"/);
});

test('a server that is not ready at the first request joins at /cd ., which says so', async (t) => {
  const { session, model, runtime } = await sessionWith(t, [{ content: 'one' }, { content: 'two' }], everything);
  t.is((await session.run('first')).status, 'answered');
  const hub = await runtime.mcp();
  await hub.settled(60_000);
  const { SessionAdapter } = await import('../../../cli/tui/session-adapter.js');
  const adapter = new SessionAdapter(session, loadConfig({ cwd: tempDir(), home: tempDir(), env: {} }), async () => {}, runtime.mcp);
  const line = await adapter.cd('.');
  t.regex(line, /^now in .*; \d+ tools joined \(everything\): the tools array changed, so the server's prefix cache starts over with the next request$/);
  await session.run('second');
  const [one, two] = model.chatRequests().map((request) => JSON.stringify(request.json.tools));
  t.false(one!.includes('mcp__everything__'));
  t.true(two!.includes('mcp__everything__echo'));
  t.deepEqual((await session.cd('.')), { boot: session.bootstrap!, added: [], removed: [] }, 'a second /cd . changes nothing');
});

test('a server that is ready before the first message joins the tools array then, and it stays fixed after', async (t) => {
  const { session, model, runtime } = await sessionWith(t, [{ content: 'one' }, { content: 'two' }], everything);
  await session.ready;
  t.false(session.toolNames().some((name) => name.startsWith('mcp__')), 'not ready at the end of the bootstrap');
  t.false(session.toolsFixed);
  const hub = await runtime.mcp();
  await hub.settled(60_000);
  t.is((await session.run('first')).status, 'answered');
  t.true(session.toolsFixed);
  await session.run('second');
  const [one, two] = model.chatRequests().map((request) => JSON.stringify(request.json.tools));
  t.true(one!.includes('mcp__everything__echo'), 'the user was still typing: the first request has them');
  t.is(one, two);
});
