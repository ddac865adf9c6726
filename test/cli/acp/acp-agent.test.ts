import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { type WireJson } from '../../helpers/scripted-server.js';
import { reikaBin } from '../../helpers/binary.js';
import { gitRepo } from '../../helpers/temp.js';
import { testSite, watchChild } from '../../helpers/watchdog.js';
import { cleanEnv, processesIn } from '../headless-helpers.js';
import { acpEnv as env, acpFixtures, answerText, updatesOf } from './acp-harness.js';

const { server, editor } = acpFixtures((fn) => test.after.always(fn));

function toolMessages(body: WireJson): string[] {
  return body.messages.filter((m: WireJson) => m.role === 'tool').map((m: WireJson) => m.content as string);
}

test('an editor initializes, opens a session and sees a prompt read, edit and run a command as tool calls', async (t) => {
  const repo = gitRepo({ 'src/add.js': 'export function add(a, b) {\n  return a - b;\n}\n', 'test.js': "import { add } from './src/add.js';\nconsole.log(add(2, 3) === 5 ? 'PASS' : 'FAIL');\n" });
  const s = await server([
    { reasoning: 'Look first.', content: 'Let me look.', toolCalls: [{ id: 'call_read', name: 'read', arguments: { path: 'src/add.js' } }] },
    { toolCalls: [{ id: 'call_edit', name: 'edit', arguments: { path: 'src/add.js', old_string: 'return a - b;', new_string: 'return a + b;' } }] },
    { toolCalls: [{ id: 'call_bash', name: 'bash', arguments: { command: 'node test.js' } }] },
    { content: 'Fixed: add() subtracted.' },
  ]);
  const e = editor({ cwd: repo, env: env(s) });
  const init = (await e.initialize()) as WireJson;
  t.is(init.protocolVersion, 1);
  t.true(init.agentCapabilities.loadSession);
  t.deepEqual(init.agentCapabilities.promptCapabilities, { image: true, audio: false, embeddedContext: true });
  t.deepEqual(init.agentCapabilities.mcpCapabilities, { http: true, sse: true });

  const created = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  t.regex(created.sessionId, /^[0-9a-z]{10}$/);
  t.is(created.modes?.currentModeId, 'agent');
  t.deepEqual(created.modes?.availableModes.map((m) => m.id), ['agent', 'plan']);

  const answer = await e.connection.agent.request(methods.agent.session.prompt, { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'fix add' }] });
  t.is(answer.stopReason, 'end_turn');
  t.is(readFileSync(join(repo, 'src/add.js'), 'utf8'), 'export function add(a, b) {\n  return a + b;\n}\n');
  t.true(e.updates.every((n) => n.sessionId === created.sessionId));
  t.is(answerText(e), 'Let me look.Fixed: add() subtracted.');
  t.is(updatesOf(e, 'agent_thought_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join(''), 'Look first.');

  const calls = updatesOf(e, 'tool_call');
  t.deepEqual(calls.map((c) => [c.toolCallId, c.kind, c.status]), [['call_read', 'read', 'pending'], ['call_edit', 'edit', 'pending'], ['call_bash', 'execute', 'pending']]);
  t.deepEqual(calls[0]!.locations, [{ path: join(repo, 'src/add.js') }]);
  t.is(calls[2]!.title, 'bash: node test.js');
  const statuses = (id: string) => updatesOf(e, 'tool_call_update').filter((u) => u.toolCallId === id && u.status).map((u) => u.status);
  for (const id of ['call_read', 'call_edit', 'call_bash']) t.deepEqual(statuses(id), ['in_progress', 'completed'], id);
  const edited = updatesOf(e, 'tool_call_update').find((u) => u.toolCallId === 'call_edit' && u.status === 'completed')!;
  t.deepEqual(edited.content, [{ type: 'diff', path: join(repo, 'src/add.js'), oldText: 'return a - b;', newText: 'return a + b;' }]);
  t.deepEqual(edited.locations, [{ path: join(repo, 'src/add.js'), line: 2 }]);
  const ran = updatesOf(e, 'tool_call_update').find((u) => u.toolCallId === 'call_bash' && u.status === 'completed')!;
  const shown = ran.content?.[0];
  t.true(shown?.type === 'content' && shown.content.type === 'text' && shown.content.text.includes('PASS'), JSON.stringify(shown));
  // An ordinary command runs without asking.
  t.is(e.permissions.length, 0);
  t.true(toolMessages(s.chatRequests()[3]!.json).at(-1)!.includes('PASS'));
});

test('a dangerous command is put to the editor, and a rejection is declined to the model with nothing deleted', async (t) => {
  const repo = gitRepo({ 'keep/notes.txt': 'precious\n' });
  const s = await server([{ toolCalls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf keep' } }] }, { content: 'I will not delete it.' }]);
  const e = editor({ cwd: repo, env: env(s), permission: () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } }) });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  const answer = await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'clean up' }] });
  t.is(answer.stopReason, 'end_turn');
  t.true(existsSync(join(repo, 'keep/notes.txt')));
  t.is(e.permissions.length, 1);
  const asked = e.permissions[0]!;
  t.is(asked.sessionId, sessionId);
  t.is(asked.toolCall.toolCallId, 'call_rm');
  t.deepEqual(asked.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once', 'reject_always']);
  const details = asked.toolCall.content?.[0];
  t.true(details?.type === 'content' && details.content.type === 'text' && details.content.text.includes('rm -rf keep'), JSON.stringify(details));
  t.regex(toolMessages(s.chatRequests()[1]!.json).at(-1)!, /declined|rejected/i);
  const ended = updatesOf(e, 'tool_call_update').filter((u) => u.toolCallId === 'call_rm' && u.status).map((u) => u.status);
  t.deepEqual(ended, ['in_progress', 'failed']);
});

test('session/cancel during a slow stream ends the prompt cancelled and leaves no process behind', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await server([{ content: 'word '.repeat(400), charsPerDelta: 5, split: { mode: 'fixed', size: 64 }, chunkDelayMs: 50 }]);
  const e = editor({ cwd: repo, env: env(s) });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  const prompt = e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'talk' }] });
  await e.waitFor((n) => n.update.sessionUpdate === 'agent_message_chunk');
  await e.connection.agent.notify(methods.agent.session.cancel, { sessionId });
  const stopped = await prompt;
  t.is(stopped.stopReason, 'cancelled');
  t.is(await s.chatRequests()[0]!.outcome, 'client-closed');
  e.close();
  t.is(await e.exited, 0);
  t.deepEqual(processesIn(repo), []);
});

test('malformed JSON-RPC and unknown methods are answered with errors, and the agent goes on; closing stdin ends it', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const child = spawn(process.execPath, [reikaBin, 'acp'], { cwd: repo, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  watchChild(child, 'reika acp', { site: testSite() });
  const lines: WireJson[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(pending.slice(0, newline)));
      pending = pending.slice(newline + 1);
    }
    if (waiting && lines.length >= waiting.count) waiting.resolve();
  });
  const until = (count: number) => new Promise<void>((resolve) => (lines.length >= count ? resolve() : (waiting = { count, resolve })));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}\n');
  child.stdin.write('this is not json\n');
  child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"no/such/method","params":{}}\n');
  child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nosuchsession","prompt":[]}}\n');
  child.stdin.write('{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"relative/path","mcpServers":[]}}\n');
  child.stdin.write('{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":1}}\n');
  await until(6);
  const byId = (id: number | null) => lines.filter((line) => line.id === id);
  t.is(byId(null)[0]?.error?.code, -32700);
  t.is(byId(2)[0]?.error?.code, -32601);
  t.is(byId(3)[0]?.error?.code, -32002);
  t.is(byId(4)[0]?.error?.code, -32602);
  t.regex(byId(4)[0]?.error?.message ?? '', /absolute/);
  t.is(byId(5)[0]?.result?.protocolVersion, 1);
  child.stdin.end();
  t.is(await exited, 0);
});

test('a permission question nobody answers keeps the call waiting, and session/cancel still ends the turn', async (t) => {
  const repo = gitRepo({ 'keep/notes.txt': 'precious\n' });
  const s = await server([{ toolCalls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf keep' } }] }]);
  let asked: () => void = () => {};
  const question = new Promise<void>((resolve) => (asked = resolve));
  const e = editor({
    cwd: repo,
    env: env(s),
    permission: () => {
      asked();
      // The person never answers.
      return new Promise(() => {});
    },
  });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  const prompt = e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'clean up' }] });
  await question;
  t.is(s.chatRequests().length, 1, 'the turn waits for the answer');
  await e.connection.agent.notify(methods.agent.session.cancel, { sessionId });
  t.is((await prompt).stopReason, 'cancelled');
  t.true(existsSync(join(repo, 'keep/notes.txt')));
  t.is(s.chatRequests().length, 1, 'nothing more was asked of the model');
  t.is(updatesOf(e, 'tool_call_update').filter((u) => u.toolCallId === 'call_rm' && u.status).at(-1)!.status, 'failed');
});

test('"always allow" answers the same command again without asking, for the rest of the session', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await server([
    { toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'rm -rf scratch' } }] },
    { toolCalls: [{ id: 'call_2', name: 'bash', arguments: { command: 'rm -rf scratch' } }] },
    { content: 'Cleaned twice.' },
  ]);
  const e = editor({ cwd: repo, env: env(s), permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_always' } }) });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'clean' }] });
  t.is(e.permissions.length, 1);
  t.is(e.permissions[0]!.toolCall.toolCallId, 'call_1');
  for (const id of ['call_1', 'call_2']) t.is(updatesOf(e, 'tool_call_update').filter((u) => u.toolCallId === id && u.status).at(-1)!.status, 'completed', id);
  // The rule the question named is written to the project's local settings (SPEC §17).
  const local = JSON.parse(readFileSync(join(repo, '.reika/settings.local.json'), 'utf8'));
  t.true(local.permissions.allow.some((rule: string) => /^Bash\(rm\b/i.test(rule)), JSON.stringify(local));
});

test('"always reject" writes the question\'s rule as a deny rule: the same command later is refused without asking, in this session and the next', async (t) => {
  const repo = gitRepo({ 'scratch/keep.txt': 'keep\n' });
  const s = await server([
    { toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'rm -rf scratch' } }] },
    { toolCalls: [{ id: 'call_2', name: 'bash', arguments: { command: 'rm -rf scratch' } }] },
    { content: 'Left it.' },
    { toolCalls: [{ id: 'call_3', name: 'bash', arguments: { command: 'rm -rf scratch' } }] },
    { content: 'Still left it.' },
  ]);
  const e = editor({ cwd: repo, env: env(s), permission: () => ({ outcome: { outcome: 'selected', optionId: 'reject_always' } }) });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'clean' }] });
  t.is(e.permissions.length, 1, 'asked once');
  t.true(existsSync(join(repo, 'scratch/keep.txt')));
  const local = JSON.parse(readFileSync(join(repo, '.reika/settings.local.json'), 'utf8'));
  t.deepEqual(local.permissions, { deny: ['Bash(rm -rf scratch)'] });
  t.regex(toolMessages(s.chatRequests()[1]!.json).at(-1)!, /a deny rule: Bash\(rm -rf scratch\)/);
  // A new session of the same project reads the rule: refused by it, nobody asked.
  const next = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await e.connection.agent.request(methods.agent.session.prompt, { sessionId: next.sessionId, prompt: [{ type: 'text', text: 'clean again' }] });
  t.is(e.permissions.length, 1, 'not asked again');
  t.true(existsSync(join(repo, 'scratch/keep.txt')));
  t.regex(toolMessages(s.chatRequests()[4]!.json).at(-1)!, /denied by the permission rule Bash\(rm -rf scratch\)/);
});

test("a project's deny rule holds in the editor: the command is refused without asking", async (t) => {
  const repo = gitRepo({ 'keep/notes.txt': 'precious\n', '.reika/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }) });
  const s = await server([{ toolCalls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf keep' } }] }, { content: 'Not allowed.' }]);
  const e = editor({ cwd: repo, env: env(s), permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });
  await e.initialize();
  const { sessionId } = await e.connection.agent.request(methods.agent.session.new, { cwd: repo, mcpServers: [] });
  await e.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'clean' }] });
  t.true(existsSync(join(repo, 'keep/notes.txt')));
  t.is(e.permissions.length, 0);
  t.regex(toolMessages(s.chatRequests()[1]!.json).at(-1)!, /deny|denied|rule/i);
});
