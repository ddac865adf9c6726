import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpHub } from '../../../actors/mcp/hub.js';
import { mcpAddress } from '../../../actors/mcp/protocol.js';
import { McpTrust } from '../../../actors/mcp/trust.js';
import { type ApprovalMode, type ToolResult } from '../../../actors/tool-executor/protocol.js';
import { APPROVER, type ApprovalReply, type ApprovalRequest, type ApproverProtocol } from '../../../actors/approver/protocol.js';
import { client, defineActor, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { everythingEntry, isolatedEnv, whereOf, writeUserConfig } from './servers.js';
import { toolSettings } from '../../helpers/tool-settings.js';

/**
 * Who is asked, and when (SPEC §4, §14): a project's servers once per project, shown with their
 * command line; MCP tools per approvals mode, the config's "approve" and the server's read-only hint.
 */

async function hubWith(t: { teardown(fn: () => Promise<void>): void }, env: NodeJS.ProcessEnv, answer: (request: ApprovalRequest) => ApprovalReply) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  const asked: ApprovalRequest[] = [];
  await supervisor.register(
    APPROVER,
    defineActor<ApproverProtocol>({
      handle(request) {
        asked.push(request);
        return answer(request);
      },
    }),
  );
  const hub = new McpHub({ supervisor, headless: false, env, trust: new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json')) });
  return { supervisor, hub, asked };
}

const approve = (): ApprovalReply => ({ decision: 'approve' });
const decline = (): ApprovalReply => ({ decision: 'decline', note: 'the user declined this action' });

test("a project's server is asked for once with its command line, remembered for the project, and asked again when its command changes", async (t) => {
  const entry = everythingEntry();
  const root = writeTree(tempDir(), { '.mcp.json': JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [entry, 'stdio'] } } }) });
  const env = isolatedEnv();

  const first = await hubWith(t, env, approve);
  await first.hub.start(root, whereOf(env));
  await first.hub.settled(30_000);
  t.is(first.asked.length, 1);
  t.is(first.asked[0]?.tool, 'MCP server proj');
  t.is(first.asked[0]?.command, `${process.execPath} ${entry} stdio`);
  t.regex(first.asked[0]?.reason ?? '', /this project's \.mcp\.json starts it \(approved once, remembered for this project\)/);
  t.is(first.hub.status()[0]?.state, 'ready', first.hub.status()[0]?.reason);

  const again = await hubWith(t, env, approve);
  await again.hub.start(root, whereOf(env));
  await again.hub.settled(30_000);
  t.is(again.asked.length, 0, 'remembered for this project');
  t.is(again.hub.status()[0]?.state, 'ready');

  const elsewhere = writeTree(tempDir(), { '.mcp.json': JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [entry, 'stdio'] } } }) });
  const other = await hubWith(t, env, decline);
  await other.hub.start(elsewhere, whereOf(env));
  await other.hub.settled(30_000);
  t.is(other.asked.length, 1, 'another project asks for itself');
  t.is(other.hub.status()[0]?.state, 'declined');
  t.is(other.hub.status()[0]?.reason, 'you declined it; /mcp reload asks again');
  t.false(other.supervisor.has(mcpAddress('proj')));

  writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [entry, 'stdio', '--changed'] } } }));
  const changed = await hubWith(t, env, decline);
  await changed.hub.start(root, whereOf(env));
  await changed.hub.settled(30_000);
  t.is(changed.asked.length, 1, 'a changed command line is asked for again');
  t.regex(changed.asked[0]?.command ?? '', /stdio --changed$/);
  t.is(changed.hub.status()[0]?.state, 'declined');
});

test("a user's servers start without asking", async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { hub, asked } = await hubWith(t, env, decline);
  await hub.start(tempDir(), whereOf(env));
  await hub.settled(30_000);
  t.is(hub.status()[0]?.state, 'ready', hub.status()[0]?.reason);
  t.is(asked.length, 0);
});

/** Which of server-everything's tools ask, per approvals mode and config: `echo` is annotated read-only, `toggle-simulated-logging` is not. */
async function askedFor(t: { teardown(fn: () => Promise<void>): void }, mode: ApprovalMode, approveAlways: boolean): Promise<string[]> {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'], ...(approveAlways ? { approve: 'always' } : {}) } });
  const { supervisor, hub, asked } = await hubWith(t, env, approve);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const run = (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    client(supervisor, mcpAddress('everything')).request({ type: 'run', callId: name, name, args, context: { root, approvals: mode, mode: 'agent', settings: toolSettings(root) } });
  for (const [name, args] of [['mcp__everything__echo', { message: 'hi' }], ['mcp__everything__toggle-simulated-logging', {}]] as const) {
    const result = await run(name, args);
    if (result.status !== 'done') throw new Error(`${name}: ${result.summary}`);
  }
  return asked.map((request) => request.tool);
}

test('safe mode asks for an MCP tool unless it is annotated read-only', async (t) => {
  t.deepEqual(await askedFor(t, 'safe', false), ['mcp__everything__toggle-simulated-logging']);
});

test('safe mode asks for none of a server\'s tools when its config says "approve": "always"', async (t) => {
  t.deepEqual(await askedFor(t, 'safe', true), []);
});

test('approvals off asks for every MCP tool, read-only or "approve": "always" alike', async (t) => {
  t.deepEqual(await askedFor(t, 'off', true), ['mcp__everything__echo', 'mcp__everything__toggle-simulated-logging']);
});

test('bypass never asks', async (t) => {
  t.deepEqual(await askedFor(t, 'bypass', false), []);
});

test('the question shows the tool and its arguments; a decline reaches the model as declined', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub, asked } = await hubWith(t, env, decline);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const result = await client(supervisor, mcpAddress('everything')).request({ type: 'run', callId: 'c', name: 'mcp__everything__gzip-file-as-resource', args: { name: 'notes.gz', data: 'data:text/plain,hello' }, context: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) } });
  t.is(result.status, 'declined');
  t.is(result.summary, 'declined: the user declined this action');
  t.deepEqual(asked[0], {
    type: 'approve',
    tool: 'mcp__everything__gzip-file-as-resource',
    reason: 'mcp__everything__gzip-file-as-resource asks before every use',
    command: 'gzip-file-as-resource {"name":"notes.gz","data":"data:text/plain,hello"}',
    rules: ['mcp__everything__gzip-file-as-resource'],
  });
});

test('a PreToolUse hook’s answer counts for MCP tools too: its ask asks about a read-only tool (offering no rule), its allow runs one safe mode asks about', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub, asked } = await hubWith(t, env, approve);
  const root = tempDir();
  await hub.start(root, whereOf(env));
  await hub.settled(30_000);
  const run = (name: string, args: Record<string, unknown>, hook: { hookAsked?: string; hookApproved?: string }): Promise<ToolResult> =>
    client(supervisor, mcpAddress('everything')).request({ type: 'run', callId: name, name, args, context: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root), ...hook } });
  t.is((await run('mcp__everything__echo', { message: 'hi' }, { hookAsked: 'echoes are reviewed' })).status, 'done');
  t.is((await run('mcp__everything__toggle-simulated-logging', {}, { hookApproved: 'logging is harmless' })).status, 'done');
  t.deepEqual(asked.map((request) => [request.tool, request.reason, request.rules]), [['mcp__everything__echo', 'a PreToolUse hook asks first: echoes are reviewed', undefined]]);
});
