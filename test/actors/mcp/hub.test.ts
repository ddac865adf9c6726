import test from 'ava';
import { McpHub, type McpChange } from '../../../actors/mcp/hub.js';
import { mcpAddress } from '../../../actors/mcp/protocol.js';
import { McpTrust } from '../../../actors/mcp/trust.js';
import type { ToolResult } from '../../../actors/tool-executor/protocol.js';
import { Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { everythingEntry, filesystemEntry, isolatedEnv, writeUserConfig } from './servers.js';
import { join } from 'node:path';

function hubWith(t: { teardown(fn: () => Promise<void>): void }, env: NodeJS.ProcessEnv, headless = true) {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  const hub = new McpHub({ supervisor, headless, env, trust: new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json')) });
  return { supervisor, hub };
}

function run(supervisor: Supervisor, server: string, name: string, args: Record<string, unknown>, root: string): Promise<ToolResult> {
  return supervisor.request<ToolResult>(mcpAddress(server), { type: 'run', callId: 'c1', name, args, context: { root, approvals: 'bypass', mode: 'agent' } });
}

test('a user server over stdio lists its tools as mcp__server__tool and answers a call', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } });
  const { supervisor, hub } = hubWith(t, env);
  const root = tempDir();
  await hub.start(root);
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
