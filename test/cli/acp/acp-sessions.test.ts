import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { type ScriptedRequest, type WireJson } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { acpEnv as env, acpFixtures, answerText, updatesOf } from './acp-harness.js';

const { server, editor } = acpFixtures((fn) => test.after.always(fn));

/** The earlier body up to the end of its last message: what a warm engine has cached, as it went on the wire. */
function messagesPrefix(request: ScriptedRequest): string {
  const messages = JSON.stringify(request.json.messages);
  if (!request.body.startsWith(`{"messages":${messages}`)) throw new Error('the body starts with its messages');
  return request.body.slice(0, '{"messages":'.length + messages.length - 1);
}

test('a session loaded in a new reika is replayed to the editor and goes on with the bytes the engine saw', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'alpha\nbeta\n' });
  const home = tempDir('reika-home-');
  const s = await server([
    { content: 'Reading.', toolCalls: [{ id: 'call_notes', name: 'read', arguments: { path: 'notes.txt' } }] },
    { content: 'Two lines: alpha, beta.' },
    { content: 'You asked about notes.txt.' },
  ]);
  const first = editor({ cwd: repo, env: env(s, { HOME: home }) });
  await first.initialize();
  const { sessionId } = await first.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  t.is((await first.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'what is in notes.txt?' }] })).stopReason, 'end_turn');
  first.close();
  t.is(await first.exited, 0);

  const second = editor({ cwd: repo, env: env(s, { HOME: home }) });
  const init = (await second.initialize()) as WireJson;
  t.true(init.agentCapabilities.loadSession);
  const loaded = await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd: repo, mcpServers: [] });
  t.is(loaded.modes?.currentModeId, 'agent');
  // The replay came before the answer.
  const replayed = second.updates.map((n) => n.update.sessionUpdate);
  t.deepEqual(replayed, ['user_message_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk']);
  const user = updatesOf(second, 'user_message_chunk')[0]!;
  t.deepEqual(user.content, { type: 'text', text: 'what is in notes.txt?' });
  t.is(answerText(second), 'Reading.Two lines: alpha, beta.');
  const call = updatesOf(second, 'tool_call')[0]!;
  t.like(call, { toolCallId: 'call_notes', kind: 'read', locations: [{ path: join(repo, 'notes.txt') }] });
  t.is(updatesOf(second, 'tool_call_update')[0]!.status, 'completed');

  const answer = await second.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'what did I ask?' }] });
  t.is(answer.stopReason, 'end_turn');
  const chats = s.chatRequests();
  t.is(chats.length, 3);
  t.true(chats[2]!.body.startsWith(messagesPrefix(chats[1]!)), 'the loaded session’s request extends the last one sent before, byte for byte');
  t.deepEqual(chats[2]!.json.tools, chats[1]!.json.tools);
  t.is(chats[2]!.json.messages.at(-1).content, 'what did I ask?');
});

test('a session that does not exist is a JSON-RPC error naming it', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const e = editor({ cwd: repo, env: { REIKA_BASE_URL: 'http://127.0.0.1:9/v1' } });
  await e.initialize();
  const error = await t.throwsAsync(e.connection.agent.request(methods.agent.session.load, { sessionId: 'zzzzzzzzzz', cwd: repo, mcpServers: [] }));
  t.is((error as { code?: number }).code, -32002);
  t.regex(error!.message, /zzzzzzzzzz/);
});

test('plan mode, set by the editor, refuses a write: the file is not created and the model is told why', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await server([{ toolCalls: [{ id: 'call_write', name: 'write', arguments: { path: 'new.txt', content: 'x\n' } }] }, { content: 'Plan: create new.txt.' }]);
  const e = editor({ cwd: repo, env: env(s) });
  await e.initialize();
  const { sessionId, modes } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  t.is(modes?.currentModeId, 'agent');
  await e.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
  const answer = await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'make new.txt' }] });
  t.is(answer.stopReason, 'end_turn');
  t.false(existsSync(join(repo, 'new.txt')));
  const tools = s.chatRequests()[0]!.json.tools.map((tool: WireJson) => tool.function.name);
  t.false(tools.includes('write'), 'plan mode offers no write');
  const result = s.chatRequests()[1]!.json.messages.at(-1);
  t.is(result.role, 'tool');
  t.regex(result.content, /plan mode|read-only/);
  t.is(updatesOf(e, 'tool_call_update').filter((u) => u.toolCallId === 'call_write' && u.status).at(-1)!.status, 'failed');
  const error = await t.throwsAsync(e.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'yolo' }));
  t.is((error as { code?: number }).code, -32602);
});

test('when the editor offers its files, reads see its unsaved buffer and edits and writes go through it', async (t) => {
  const repo = gitRepo({ 'src/a.js': 'const a = 1;\n' });
  const buffers = new Map<string, string>([[join(repo, 'src/a.js'), 'const a = 1; // unsaved\n']]);
  const reads: string[] = [];
  const writes: Array<{ path: string; content: string }> = [];
  const s = await server([
    { toolCalls: [{ id: 'call_read', name: 'read', arguments: { path: 'src/a.js' } }] },
    { toolCalls: [{ id: 'call_edit', name: 'edit', arguments: { path: 'src/a.js', old_string: '// unsaved', new_string: '// edited' } }] },
    { toolCalls: [{ id: 'call_write', name: 'write', arguments: { path: 'src/b.js', content: 'const b = 2;\n' } }] },
    { toolCalls: [{ id: 'call_cat', name: 'bash', arguments: { command: 'cat src/a.js' } }] },
    { content: 'Done.' },
  ]);
  const e = editor({
    cwd: repo,
    env: env(s),
    readTextFile: ({ path }) => {
      reads.push(path);
      const text = buffers.get(path);
      if (text === undefined) throw new Error(`no buffer for ${path}`);
      return { content: text };
    },
    writeTextFile: ({ path, content }) => {
      writes.push({ path, content });
      buffers.set(path, content);
    },
  });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  const answer = await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'work' }] });
  t.is(answer.stopReason, 'end_turn');
  const results = s.chatRequests().slice(1).map((request) => request.json.messages.at(-1).content as string);
  t.regex(results[0]!, /const a = 1; \/\/ unsaved/, 'read saw the unsaved buffer');
  t.true(reads.includes(join(repo, 'src/a.js')));
  t.deepEqual(writes, [
    { path: join(repo, 'src/a.js'), content: 'const a = 1; // edited\n' },
    { path: join(repo, 'src/b.js'), content: 'const b = 2;\n' },
  ]);
  // The editor had not saved: the disk is as it was, and commands see the disk.
  t.is(readFileSync(join(repo, 'src/a.js'), 'utf8'), 'const a = 1;\n');
  t.false(existsSync(join(repo, 'src/b.js')));
  t.regex(results[3]!, /const a = 1;\n/);
});

test('the model’s todo list is the editor’s plan, and a loaded session shows it again', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const home = tempDir('reika-home-');
  const items = [
    { content: 'Read the parser', status: 'completed' },
    { content: 'Fix the bug', status: 'in_progress' },
    { content: 'Run the tests', status: 'pending' },
  ];
  const s = await server([{ toolCalls: [{ id: 'call_todo', name: 'todo', arguments: { todos: items } }] }, { content: 'Planned.' }]);
  const first = editor({ cwd: repo, env: env(s, { HOME: home }) });
  await first.initialize();
  const { sessionId } = await first.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await first.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'plan it' }] });
  const expected = items.map((item) => ({ content: item.content, priority: 'medium', status: item.status }));
  t.deepEqual(updatesOf(first, 'plan').map((u) => u.entries), [expected]);
  t.is(updatesOf(first, 'tool_call')[0]!.kind, 'think');
  first.close();
  t.is(await first.exited, 0);

  const second = editor({ cwd: repo, env: env(s, { HOME: home }) });
  await second.initialize();
  await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd: repo, mcpServers: [] });
  t.deepEqual(updatesOf(second, 'plan').map((u) => u.entries), [expected]);
});

test('a session loaded from another folder goes on in the folder it ran in, with that folder’s settings, and the log says so', async (t) => {
  const ran = gitRepo({ 'notes.txt': 'alpha\n', '.reika/settings.json': '{ "colour": "red" }\n' });
  const elsewhere = gitRepo({ 'notes.txt': 'other\n', '.reika/settings.json': '{ "shade": "blue" }\n' });
  const home = tempDir('reika-home-');
  const s = await server([{ content: 'Hello.' }, { toolCalls: [{ id: 'call_notes', name: 'read', arguments: { path: 'notes.txt' } }] }, { content: 'It says alpha.' }]);
  const first = editor({ cwd: ran, env: env(s, { HOME: home }) });
  await first.initialize();
  const { sessionId } = await first.connection.agent.request(methods.agent.session.new, { cwd: ran, mcpServers: [] });
  await first.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  first.close();
  t.is(await first.exited, 0);

  const second = editor({ cwd: elsewhere, env: env(s, { HOME: home }) });
  await second.initialize();
  await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd: elsewhere, mcpServers: [] });
  const answer = await second.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'what is in notes.txt?' }] });
  t.is(answer.stopReason, 'end_turn');
  const chats = s.chatRequests();
  t.regex(chats[2]!.json.messages.at(-1).content, /alpha/, 'the read ran in the session’s folder');
  t.like(updatesOf(second, 'tool_call').at(-1), { toolCallId: 'call_notes', locations: [{ path: join(ran, 'notes.txt') }] });
  t.true(second.stderr().includes(`session ${sessionId} ran in ${ran}: it goes on there`), second.stderr());
  // The settings read are the session's folder's (each names its file in a note), not the editor's.
  t.true(second.stderr().includes(`${join(ran, '.reika', 'settings.json')}:1: unknown key "colour"`), second.stderr());
  t.false(second.stderr().includes('"shade"'), second.stderr());
});

test('a session the editor opened but never prompted loads in a new reika, empty, and goes on', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const home = tempDir('reika-home-');
  const s = await server([{ content: 'Hello again.' }]);
  const first = editor({ cwd: repo, env: env(s, { HOME: home }) });
  await first.initialize();
  const { sessionId } = await first.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  first.close();
  t.is(await first.exited, 0);

  const second = editor({ cwd: repo, env: env(s, { HOME: home }) });
  await second.initialize();
  const loaded = await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd: repo, mcpServers: [] });
  t.is(loaded.modes?.currentModeId, 'agent');
  t.deepEqual(second.updates.filter((n) => n.update.sessionUpdate !== 'available_commands_update'), []);
  const answer = await second.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  t.is(answer.stopReason, 'end_turn');
  t.is(answerText(second), 'Hello again.');
  second.close();
  t.is(await second.exited, 0);

  // Prompted now, it is an ordinary stored session under the same id, replayed when loaded.
  const third = editor({ cwd: repo, env: env(s, { HOME: home }) });
  await third.initialize();
  await third.connection.agent.request(methods.agent.session.load, { sessionId, cwd: repo, mcpServers: [] });
  t.deepEqual(updatesOf(third, 'user_message_chunk')[0]!.content, { type: 'text', text: 'hi' });
  t.is(answerText(third), 'Hello again.');
});

test('an id session/new never gave out is still an error', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const home = tempDir('reika-home-');
  const e = editor({ cwd: repo, env: { REIKA_BASE_URL: 'http://127.0.0.1:9/v1', HOME: home } });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  const other = sessionId.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  const error = await t.throwsAsync(e.connection.agent.request(methods.agent.session.load, { sessionId: other, cwd: repo, mcpServers: [] }));
  t.is((error as { code?: number }).code, -32002);
});
