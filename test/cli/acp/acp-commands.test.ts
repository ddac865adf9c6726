import test from 'ava';
import { methods } from '@agentclientprotocol/sdk';
import { type WireJson } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';
import { everythingEntry } from '../../actors/mcp/servers.js';
import { acpFixtures, answerText } from './acp-harness.js';

const { server, editor } = acpFixtures((fn) => test.after.always(fn));

test('the editor is told the commands a prompt may start with, and a custom command expands to its prompt', async (t) => {
  const repo = gitRepo({ '.reika/commands/review.md': '---\ndescription: review a folder\nargument-hint: FOLDER\n---\nReview the code in $ARGUMENTS.\n', 'src/a.js': 'x\n' });
  const s = await server([{ content: 'Looks fine.' }]);
  const e = editor({ cwd: repo, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768' } });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  const listed = await e.waitFor((n) => n.update.sessionUpdate === 'available_commands_update');
  t.is(listed.sessionId, sessionId);
  const commands = listed.update.sessionUpdate === 'available_commands_update' ? listed.update.availableCommands : [];
  t.deepEqual(commands.map((c) => c.name), ['compact', 'tokens', 'review']);
  t.like(commands[2], { description: 'review a folder', input: { hint: 'FOLDER' } });

  await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/review src' }] });
  t.is(s.chatRequests()[0]!.json.messages.at(-1).content, 'Review the code in src.');
  const before = e.updates.length;
  const answer = await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/tokens' }] });
  t.is(answer.stopReason, 'end_turn');
  t.is(s.chatRequests().length, 1, '/tokens asks the model nothing');
  const said = e.updates.slice(before).map((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : '')).join('');
  t.regex(said, /^context ≈\S+ tokens of a 33k window · 1 requests · prompt/);
});

test('an engine whose window is unknown is named once, with its fix; a known window says nothing', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await server([{ content: 'One.' }, { content: 'Two.' }, { content: 'Three.' }]);
  const unknown = editor({ cwd: repo, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' } });
  await unknown.initialize();
  const { sessionId } = await unknown.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await unknown.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'one' }] });
  await unknown.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'two' }] });
  const text = answerText(unknown);
  t.regex(text, /context window is unknown[^\n]*Fix: set REIKA_CONTEXT_WINDOW/);
  t.is(text.split('context window is unknown').length, 2, 'said once');

  const known = editor({ cwd: repo, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768' } });
  await known.initialize();
  const other = await known.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await known.connection.agent.request(methods.agent.session.prompt, { sessionId: other.sessionId, prompt: [{ type: 'text', text: 'three' }] });
  t.is(answerText(known), 'Three.');
});

test('an MCP server the editor passes joins the session: its tools are in the first request and run', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await server([{ toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'from the editor' } }] }, { content: 'Echoed.' }]);
  const e = editor({ cwd: repo, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768' }, permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [{ name: 'everything', command: process.execPath, args: [everythingEntry(), 'stdio'], env: [] }] });
  const answer = await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'echo' }] });
  t.is(answer.stopReason, 'end_turn');
  const tools = s.chatRequests()[0]!.json.tools.map((tool: WireJson) => tool.function.name);
  t.true(tools.includes('mcp__everything__echo'), tools.join(', '));
  t.regex(s.chatRequests()[1]!.json.messages.at(-1).content, /from the editor/);
  const bad = await t.throwsAsync(e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [{ name: 'no spaces allowed', command: 'x', args: [], env: [] }] }));
  t.is((bad as { code?: number }).code, -32602);
});
