import test from 'ava';
import { join } from 'node:path';
import { McpHub } from '../../../actors/mcp/hub.js';
import { McpTrust } from '../../../actors/mcp/trust.js';
import { APPROVER, type ApproverProtocol } from '../../../actors/approver/protocol.js';
import { defineActor, Supervisor } from '../../../runtime/index.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { everythingEntry, isolatedEnv, whereOf } from '../../actors/mcp/servers.js';
import { appHarness } from './app-harness.js';

/** A project's .mcp.json server, approved at the terminal: asked once with its command line, remembered for the project. */

async function hubAtTerminal(t: Parameters<typeof appHarness>[0], env: NodeJS.ProcessEnv) {
  const h = await appHarness(t, []);
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  // What cli/start-runtime.ts registers: the approver actor answers with the terminal's prompt.
  await supervisor.register(APPROVER, defineActor<ApproverProtocol>({ handle: (request, context) => h.session.askPerson!(request, context.signal) }));
  const hub = new McpHub({ supervisor, headless: false, env, trust: new McpTrust(join(env.XDG_STATE_HOME!, 'trust.json')) });
  return { h, hub };
}

test("the terminal asks once for a project's MCP server, showing its command line; the answer is remembered for the project", async (t) => {
  const entry = everythingEntry();
  const root = writeTree(tempDir(), { '.mcp.json': JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [entry, 'stdio'] } } }) });
  const env = isolatedEnv();
  const first = await hubAtTerminal(t, env);
  await first.hub.start(root, whereOf(env));
  await first.h.until('? MCP server proj needs approval');
  // The screen wraps at 100 columns (inside words too): compare without white space.
  const squeezed = (text: string) => text.replace(/\s+/g, '');
  const shown = squeezed(first.h.vt.all());
  t.true(shown.includes(squeezed("this project's .mcp.json starts it (approved once, remembered for this project)")));
  t.true(shown.includes(squeezed(`$ ${process.execPath} ${entry} stdio`)));
  t.true(shown.includes(squeezed('Approve, remembered for this project (y)')));
  t.false(shown.includes('Always'), 'the answer is kept for the project, so no session-long choice is offered');
  t.is(first.hub.status()[0]?.state, 'starting', 'nothing runs before the answer');
  first.h.type('y');
  await first.h.until('→ approved');
  await first.hub.settled(30_000);
  t.is(first.hub.status()[0]?.state, 'ready', first.hub.status()[0]?.reason);

  const second = await hubAtTerminal(t, env);
  await second.hub.start(root, whereOf(env));
  await second.hub.settled(30_000);
  t.is(second.hub.status()[0]?.state, 'ready');
  t.false(second.h.vt.all().includes('needs approval'), 'not asked again in this project');
});
