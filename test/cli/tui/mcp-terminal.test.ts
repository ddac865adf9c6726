import test from 'ava';
import { tmuxMissing } from '../../helpers/tmux.js';
import { everythingEntry } from '../../actors/mcp/servers.js';
import { startReika } from './reika-term.js';

/**
 * The built `reika` in tmux with a project that brings an MCP server, a custom command and a skill:
 * the server is asked for at the terminal, joins the first request once ready, and /mcp shows it.
 */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;

maybe("a project's MCP server, custom command and skill, end to end in the terminal", async (t) => {
  const { term, server } = await startReika(
    t,
    { width: 120, height: 35, noColor: true },
    [{ content: 'said hello' }, { content: 'listed' }],
    {
      tree: {
        'README.md': '# demo\n',
        '.mcp.json': JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } } }),
        '.reika/commands/greet.md': '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS.\n',
        '.reika/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release\n---\nBump, tag, push.\n',
      },
    },
  );
  await term.waitFor('? MCP server everything needs approval');
  term.type('y');
  await term.waitFor(/MCP server everything ready: \d+ tools/);
  term.type('/greet the team');
  term.keys('Enter');
  await term.waitFor('said hello');
  const first = server.chatRequests()[0]!.json;
  t.is(first.messages.at(-1).content, 'Say hello to the team.');
  t.true((first.tools as { function: { name: string } }[]).some((tool) => tool.function.name === 'mcp__everything__echo'), 'ready before the first message: in its tools');
  t.regex(String(first.messages[0].content), /- release: Cut a release \(\.reika\/skills\/release\/SKILL\.md\)/);
  await term.waitFor('› type a message');
  term.type('/mcp');
  term.keys('Enter');
  await term.waitFor(/everything \(project, stdio\) ready: \d+ tools/);
  term.type('/exit');
  term.keys('Enter');
  t.is(await term.waitForExit(), 0);
});
