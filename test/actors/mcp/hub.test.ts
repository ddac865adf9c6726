import test from 'ava';
import { McpHub, type McpChange } from '../../../actors/mcp/hub.js';
import { mcpAddress } from '../../../actors/mcp/protocol.js';
import { McpTrust } from '../../../actors/mcp/trust.js';
import type { ToolResult } from '../../../actors/tool-executor/protocol.js';
import { client, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { everythingEntry, filesystemEntry, isolatedEnv, TAP, whereOf, writeUserConfig } from './servers.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolSettings } from '../../helpers/tool-settings.js';

function hubWith(t: { teardown(fn: () => Promise<void>): void }, env: NodeJS.ProcessEnv, headless = true) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  const hub = new McpHub({ supervisor, headless, env, trust: new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json')) });
  return { supervisor, hub };
}

function run(supervisor: Supervisor, server: string, name: string, args: Record<string, unknown>, root: string): Promise<ToolResult> {
  return client(supervisor, mcpAddress(server)).request({ type: 'run', callId: 'c1', name, args, context: { root, approvals: 'bypass', mode: 'agent', settings: toolSettings(root) } });
}

test('a user server over stdio lists its tools as mcp__server__tool and answers a call', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const [status] = hub.status();
  t.is(status?.state, 'ready', status?.reason);
  t.true(status!.tools.includes('mcp__everything__echo'));
  t.true(status!.tools.includes('mcp__everything__get-sum'));
  const echo = await run(supervisor, 'everything', 'mcp__everything__echo', { message: 'hello there' }, root);
  t.is(echo.status, 'done');
  t.regex(echo.payload, /hello there/);
  const sum = await run(supervisor, 'everything', 'mcp__everything__get-sum', { a: 2, b: 40 }, root);
  t.regex(sum.payload, /42/);
});

test('error results, images, resources and structured content come back through summary and payload', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const bad = await run(supervisor, 'everything', 'mcp__everything__get-sum', { a: 'x' }, root);
  t.is(bad.status, 'error');
  t.is(bad.errorCode, 'MCP_TOOL_ERROR');
  t.regex(bad.summary, /^get-sum \(everything\) failed: .*Input validation error/);
  t.false(bad.summary.includes('\n'));

  const image = await run(supervisor, 'everything', 'mcp__everything__get-tiny-image', {}, root);
  t.is(image.status, 'done');
  const saved = /saved to (\S+\.png)\]/.exec(image.payload)?.[1];
  t.truthy(saved, image.payload);
  t.deepEqual([...readFileSync(saved!).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  t.regex(image.payload, /The image above is the MCP logo/);

  const resource = await run(supervisor, 'everything', 'mcp__everything__get-resource-reference', { resourceType: 'Text', resourceId: 1 }, root);
  t.regex(resource.payload, /\[resource demo:\/\/resource\/dynamic\/text\/1\]\nResource 1: This is a plaintext resource/);

  const structured = await run(supervisor, 'everything', 'mcp__everything__get-structured-content', { location: 'New York' }, root);
  t.is(JSON.parse(structured.payload).temperature, 33);
});

test('an aborted long-running call ends cancelled and the server is sent notifications/cancelled for it', async (t) => {
  const env = isolatedEnv();
  const log = join(tempDir(), 'stdin.log');
  writeUserConfig(env, { everything: { command: process.execPath, args: [TAP, log, process.execPath, everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  t.is(hub.status()[0]?.state, 'ready', hub.status()[0]?.reason);
  let progressed!: () => void;
  const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
  const call = client(supervisor, mcpAddress('everything')).request(
    { type: 'run', callId: 'long', name: 'mcp__everything__trigger-long-running-operation', args: { duration: 60, steps: 60 }, context: { root, approvals: 'bypass', mode: 'agent', settings: toolSettings(root) } },
    { scope: 'turn-a', onDelta: (delta: { text: string }) => /progress 1\/60/.test(delta.text) && progressed() },
  );
  await firstProgress;
  supervisor.abort('turn-a', 'interrupted by the user');
  const result = await call.catch((error: Error) => ({ status: 'rejected', summary: error.message }) as const);
  t.true(result.status === 'cancelled' || result.status === 'rejected', JSON.stringify(result));
  // The server reads its stdin in order: once it answered this, the tap has logged the cancellation.
  const echo = await run(supervisor, 'everything', 'mcp__everything__echo', { message: 'still here' }, root);
  t.regex(echo.payload, /still here/);
  const sent = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { method?: string; id?: number; params?: { name?: string; requestId?: number } });
  const started = sent.find((message) => message.method === 'tools/call' && message.params?.name === 'trigger-long-running-operation');
  const cancelled = sent.find((message) => message.method === 'notifications/cancelled');
  t.truthy(started);
  t.is(cancelled?.params?.requestId, started!.id);
});

test('a server killed mid-call fails that call with one sentence, restarts, and answers the next call', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const changes: McpChange[] = [];
  let readyAgain!: () => void;
  const restarted = new Promise<void>((resolve) => (readyAgain = resolve));
  hub.onChange((change) => {
    changes.push(change);
    if (change.state === 'ready') readyAgain();
  });
  let progressed!: () => void;
  const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
  const call = client(supervisor, mcpAddress('everything')).request(
    { type: 'run', callId: 'long', name: 'mcp__everything__trigger-long-running-operation', args: { duration: 60, steps: 60 }, context: { root, approvals: 'bypass', mode: 'agent', settings: toolSettings(root) } },
    { onDelta: () => progressed() },
  );
  await firstProgress;
  const actorPid = supervisor.pidOf(mcpAddress('everything'))!;
  const serverPid = Number(readFileSync(`/proc/${actorPid}/task/${actorPid}/children`, 'utf8').trim().split(/\s+/)[0]);
  process.kill(serverPid, 'SIGKILL');
  const error = await t.throwsAsync(call);
  t.is((error as { code?: string }).code, 'REIKA_ERR_MCP_SERVER_GONE');
  t.is(error!.message, 'the MCP server everything was killed by SIGKILL during the call; reika restarts it, so the call may be tried again');
  await restarted;
  t.is(changes[0]?.state, 'starting');
  t.regex(changes[0]?.reason ?? '', /^restarting: the server was killed by SIGKILL/);
  t.not(supervisor.pidOf(mcpAddress('everything')), actorPid);
  const echo = await run(supervisor, 'everything', 'mcp__everything__echo', { message: 'back' }, root);
  t.regex(echo.payload, /back/);
});

test('a server that never starts is one line in its status, and the other servers work', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, {
    missing: { command: 'reika-no-such-mcp-server', args: [] },
    quits: { command: process.execPath, args: ['-e', 'console.error("cannot open the database"); process.exit(3)'] },
    files: { command: process.execPath, args: [filesystemEntry(), '.'] },
  });
  const { supervisor, hub } = hubWith(t, env);
  const root = writeTree(tempDir(), { 'notes.txt': 'one\ntwo\n' });
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const byName = Object.fromEntries(hub.status().map((s) => [s.name, s]));
  t.is(byName.missing?.state, 'failed');
  t.is(byName.missing?.reason, 'the command "reika-no-such-mcp-server" was not found (check "command" and PATH)');
  t.is(byName.quits?.state, 'failed');
  t.is(byName.quits?.reason, 'the server exited with code 3 before it answered (its last words: cannot open the database)');
  t.false(supervisor.has(mcpAddress('missing')));
  t.is(byName.files?.state, 'ready', byName.files?.reason);
  const read = await run(supervisor, 'files', 'mcp__files__read_text_file', { path: join(root, 'notes.txt') }, root);
  t.is(read.status, 'done', read.summary);
  t.regex(read.payload, /one\ntwo/);
  t.deepEqual(hub.readyTools().map((tool) => tool.name).filter((name) => !name.startsWith('mcp__files__')), []);
});

test('a project server is declined headless unless REIKA_MCP_TRUST_PROJECT=1 or approved before', async (t) => {
  const root = writeTree(tempDir(), { '.mcp.json': JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [everythingEntry(), 'stdio'] } } }) });
  const env = isolatedEnv();
  const declined = hubWith(t, env);
  await declined.hub.start(root, whereOf(env));
  const [status] = declined.hub.status();
  t.is(status?.state, 'declined');
  t.is(status?.source, 'project');
  t.regex(status?.reason ?? '', /REIKA_MCP_TRUST_PROJECT=1/);
  t.regex(status?.command ?? '', /server-everything\/dist\/index\.js stdio$/);
  t.false(declined.supervisor.has(mcpAddress('proj')));

  const trusted = hubWith(t, { ...env, REIKA_MCP_TRUST_PROJECT: '1' });
  await trusted.hub.start(root, whereOf({ ...env, REIKA_MCP_TRUST_PROJECT: '1' }));
  await trusted.hub.settled(30_000);
  t.is(trusted.hub.status()[0]?.state, 'ready');

  const trust = new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json'));
  const [server] = (await import('../../../actors/mcp/config.js')).loadMcpConfig(root, whereOf(env).userFolder, env).servers;
  trust.remember(root, server!);
  const remembered = hubWith(t, env);
  await remembered.hub.start(root, whereOf(env));
  t.is(remembered.hub.status()[0]?.state, 'starting');
});

test('servers still starting when reika closes are not reported as failed', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  const changes: McpChange[] = [];
  hub.onChange((change) => changes.push(change));
  await hub.start(tempDir(), whereOf(env));
  await supervisor.close();
  await hub.settled(30_000);
  t.deepEqual(changes.filter((change) => change.state === 'failed'), []);
});

/** The nice value of a process, from /proc (field 19 of its stat line). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

test('a stdio server and its actor run ten steps nicer than reika, so their start does not take CPU from the session', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  await hub.start(tempDir(), whereOf(env));
  await hub.settled(30_000);
  t.is(hub.status()[0]?.state, 'ready', hub.status()[0]?.reason);
  const actorPid = supervisor.pidOf(mcpAddress('everything'))!;
  const serverPid = Number(readFileSync(`/proc/${actorPid}/task/${actorPid}/children`, 'utf8').trim().split(/\s+/)[0]);
  const expected = Math.min(19, niceOf(process.pid) + 10);
  t.is(niceOf(actorPid), expected);
  t.is(niceOf(serverPid), expected, 'the server inherits it');
});
