import test from 'ava';
import { join } from 'node:path';
import { checkMcpServers } from '../../../actors/mcp/check-servers.js';
import { McpTrust } from '../../../actors/mcp/trust.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { everythingEntry, isolatedEnv, whereOf, writeUserConfig } from './servers.js';

test('reika doctor: each configured server is started, described in one line with its command, and stopped again', async (t) => {
  const env = isolatedEnv();
  writeUserConfig(env, { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] }, missing: { command: 'reika-no-such-mcp-server' }, bad: { type: 'ftp' } });
  const root = writeTree(tempDir(), { '.mcp.json': JSON.stringify({ mcpServers: { proj: { command: 'node', args: ['x.js'] } } }) });
  const check = await checkMcpServers({ root, userFolder: whereOf(env).userFolder, env, trust: new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json')) });
  const byName = Object.fromEntries(check.servers.map((s) => [s.name, s]));
  t.is(byName.everything?.state, 'ready', byName.everything?.reason);
  t.true(byName.everything!.tools.includes('mcp__everything__echo'));
  t.is(byName.missing?.state, 'failed');
  t.is(byName.proj?.state, 'declined');
  t.regex(check.lines.join('\n'), /^everything \(user, stdio\) ready: \d+ tools\n  \$ \S+ \S+server-everything\/dist\/index\.js stdio$/m);
  t.true(check.lines.includes('missing (user, stdio) failed: the command "reika-no-such-mcp-server" was not found (check "command" and PATH)'));
  t.regex(check.lines.join('\n'), /^proj \(project, stdio\) declined: .*REIKA_MCP_TRUST_PROJECT=1/m);
  t.regex(check.lines.at(-1)!, /^config: .*server "bad": unknown "type" "ftp"/);
});

test('reika doctor with no servers says how to add one', async (t) => {
  const env = isolatedEnv();
  const check = await checkMcpServers({ root: tempDir(), userFolder: whereOf(env).userFolder, env });
  t.deepEqual(check.lines, ['no MCP servers configured (.mcp.json, ~/.config/reika/mcp.json)']);
});
