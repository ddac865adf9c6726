import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '../../../actors/session/session.js';
import type { AgentEvent } from '../../../actors/agent/events.js';
import { loadConfig } from '../../../actors/config/load-config.js';
import { PermissionBook } from '../../../actors/session/permission-book.js';
import { startRuntime } from '../../../cli/start-runtime.js';
import type { ApprovalReply, ApprovalRequest } from '../../../actors/approver/protocol.js';
import { declineHeadless } from '../../../cli/headless/approver.js';
import { startScriptedServer, type Script, type WireJson } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';

// A session with hooks from a settings block, the real tool executor and real hook scripts; the
// model is the scripted server.

async function sessionWith(t: { teardown(fn: () => Promise<void>): void }, replies: Script, hooks: (root: string) => unknown, options: { tree?: Record<string, string>; approve?: (request: ApprovalRequest) => ApprovalReply } = {}) {
  const root = gitRepo({ 'a.txt': 'a\n', ...options.tree });
  const server = await startScriptedServer(replies);
  const approve = options.approve ?? (() => ({ decision: 'approve' }));
  const runtime = startRuntime({ cwd: root, approve: async (request) => approve(request) });
  t.teardown(async () => {
    await runtime.close();
    await server.close();
  });
  const config = loadConfig({ cwd: root, home: root, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '32768' } });
  const permissions = new PermissionBook([{ scope: 'project', path: join(root, '.reika/settings.json'), trusted: true, hooks: hooks(root) as Record<string, unknown> }]);
  if (permissions.notes.length > 0) throw new Error(permissions.notes.join('\n'));
  const session = new Session({ runtime, config, cwd: root, headless: true, permissions });
  const events: AgentEvent[] = [];
  session.subscribe((event) => events.push(event));
  return { root, server, session, events };
}

/** The session's notices, as an assertion's message: a hook that failed says why there. */
const noticesOf = (events: AgentEvent[]): string => `notices: ${JSON.stringify(events.flatMap((event) => (event.type === 'notice' ? [event.message] : [])))}`;

const toolMessages = (json: WireJson): string[] => (json.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').map((m) => m.content);

test('a PreToolUse hook that exits 2 stops the call and its message reaches the model', async (t) => {
  const { root, server, session } = await sessionWith(
    t,
    [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'touch pushed.txt' } }] }, { content: 'ok' }],
    () => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "pushing is done by CI, not by hand" >&2; exit 2' }] }] }),
  );
  const result = await session.run('push it');
  t.is(result.status, 'answered');
  t.deepEqual(result.toolCalls.map((call) => [call.status, call.summary]), [['declined', 'blocked by a PreToolUse hook: pushing is done by CI, not by hand']]);
  t.false(existsSync(join(root, 'pushed.txt')), 'the call did not run');
  t.regex(toolMessages(server.chatRequests()[1]!.json)[0]!, /pushing is done by CI, not by hand/);
});

test('PostToolUse sees hook_event_name, tool_name and tool_input; Stop runs once per turn', async (t) => {
  const { root, session } = await sessionWith(
    t,
    [
      { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo one' } }] },
      { toolCalls: [{ id: 'c2', name: 'read', arguments: { path: 'a.txt' } }] },
      { content: 'done' },
      { content: 'done again' },
    ],
    (root) => ({
      PostToolUse: [{ matcher: 'bash|read', hooks: [{ type: 'command', command: `cat >> ${join(root, 'post.jsonl')}` }] }],
      Stop: [{ hooks: [{ type: 'command', command: `cat >> ${join(root, 'stop.jsonl')}` }] }],
    }),
  );
  const result = await session.run('go');
  t.is(result.status, 'answered');
  const posts = readFileSync(join(root, 'post.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(posts.map((p) => [p.hook_event_name, p.tool_name, p.tool_input, p.tool_response.status, p.cwd]), [
    ['PostToolUse', 'bash', { command: 'echo one' }, 'done', root],
    ['PostToolUse', 'read', { path: 'a.txt', file_path: join(root, 'a.txt') }, 'done', root],
  ]);
  t.regex(posts[0].tool_response.output, /^one/);
  const stops = readFileSync(join(root, 'stop.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(stops.map((s) => [s.hook_event_name, s.stop_hook_active]), [['Stop', false]], 'once, at the end of the turn');
  t.is((await session.run('again')).status, 'answered');
  t.is(readFileSync(join(root, 'stop.jsonl'), 'utf8').trim().split('\n').length, 2, 'and once for the next turn');
});

test('a Stop hook that exits 2 sends the model on with its message, and is told so the second time', async (t) => {
  const { root, server, session } = await sessionWith(t, [{ content: 'first answer' }, { content: 'second answer' }], (root) => ({
    Stop: [{ hooks: [{ type: 'command', command: `cat >> ${join(root, 'stop.jsonl')}; [ -e ${join(root, 'once')} ] && exit 0; touch ${join(root, 'once')}; echo "run the tests before you stop" >&2; exit 2` }] }],
  }));
  const result = await session.run('fix it');
  t.is(result.status, 'answered');
  t.is(result.answer, 'second answer');
  t.is(server.chatRequests().length, 2);
  t.regex(JSON.stringify(server.chatRequests()[1]!.json.messages.at(-1)), /run the tests before you stop/);
  const stops = readFileSync(join(root, 'stop.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(stops.map((s) => s.stop_hook_active), [false, true]);
});

test('a UserPromptSubmit hook that exits 2 keeps the prompt from the model; its output otherwise joins the prompt', async (t) => {
  const { server, session } = await sessionWith(t, [{ content: 'ok' }], () => ({
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: `grep -q secret && { echo "prompts must not name the secret" >&2; exit 2; }; echo "branch: main"` }] }],
  }));
  const blocked = await session.run('tell me the secret');
  t.is(blocked.status, 'error');
  t.is(blocked.error?.message, 'a UserPromptSubmit hook did not let the prompt through: prompts must not name the secret');
  t.is(server.chatRequests().length, 0);
  const passed = await session.run('hello');
  t.is(passed.status, 'answered');
  const sent = JSON.stringify(server.chatRequests()[0]!.json.messages.at(-1));
  t.regex(sent, /hello/);
  t.regex(sent, /branch: main/);
});

test('a hook that hangs is killed at its timeout, said in one line, and the call goes on', async (t) => {
  const { root, session, events } = await sessionWith(t, [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo ran > ran.txt' } }] }, { content: 'ok' }], () => ({
    PreToolUse: [{ hooks: [{ type: 'command', command: 'sleep 300', timeout: 1 }] }],
  }));
  const result = await session.run('go');
  t.is(result.status, 'answered');
  t.is(readFileSync(join(root, 'ran.txt'), 'utf8'), 'ran\n');
  t.true(events.some((event) => event.type === 'notice' && event.message === 'PreToolUse hook `sleep 300` ran past its timeout and was killed'));
});

test('a PreToolUse hook that answers {"decision": "approve"} on stdout lets a dangerous call run without the question', async (t) => {
  const asked: string[] = [];
  const { root, server, session, events } = await sessionWith(
    t,
    [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf scratch' } }] }, { content: 'ok' }],
    () => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"decision": "approve", "reason": "scratch is ours to delete"}'` }] }] }),
    { tree: { 'scratch/x.txt': 'x\n' }, approve: (request) => (asked.push(request.reason), { decision: 'decline' }) },
  );
  t.true(existsSync(join(root, 'scratch/x.txt')));
  const result = await session.run('clean up');
  t.is(result.status, 'answered');
  t.deepEqual(result.toolCalls.map((call) => call.status), ['done'], noticesOf(events));
  t.deepEqual(asked, [], 'nobody was asked');
  t.false(existsSync(join(root, 'scratch')));
  t.is(server.chatRequests().length, 2);
});

test('a PreToolUse hook that exits 0 with {"decision": "block"} stops the call, and its reason reaches the model', async (t) => {
  const asked: string[] = [];
  const { root, server, session } = await sessionWith(
    t,
    [{ toolCalls: [{ id: 'c1', name: 'write', arguments: { path: 'gen/api.ts', content: 'export {};\n' } }] }, { content: 'ok' }],
    () => ({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: `echo '{"decision": "block", "reason": "gen/ is generated: change the schema instead"}'; exit 0` }] }] }),
    { approve: (request) => (asked.push(request.reason), { decision: 'approve' }) },
  );
  const result = await session.run('write the api');
  t.deepEqual(result.toolCalls.map((call) => [call.status, call.summary]), [['declined', 'blocked by a PreToolUse hook: gen/ is generated: change the schema instead']]);
  t.false(existsSync(join(root, 'gen/api.ts')));
  t.deepEqual(asked, []);
  t.regex(toolMessages(server.chatRequests()[1]!.json)[0]!, /gen\/ is generated: change the schema instead/);
});

test('SubagentStop runs when a subagent has answered, and one that exits 2 sends the subagent on; Stop runs once for the session turn', async (t) => {
  const isSubagent = (json: WireJson) => !(json.tools as { function: { name: string } }[]).some((tool) => tool.function.name === 'subagent');
  const { root, server, session } = await sessionWith(
    t,
    (request) => {
      const json = request.json;
      if (isSubagent(json)) return { content: JSON.stringify(json.messages).includes('cite the line') ? 'a.txt:1 says a.' : 'a.txt says a.' };
      if (!json.messages.some((m: { role: string }) => m.role === 'tool')) return { toolCalls: [{ id: 'sub_1', name: 'subagent', arguments: { task: 'What does a.txt say?' } }] };
      return { content: 'Reported.' };
    },
    (root) => ({
      SubagentStop: [{ hooks: [{ type: 'command', command: `cat >> ${join(root, 'substop.jsonl')}; [ -e ${join(root, 'once')} ] && exit 0; touch ${join(root, 'once')}; echo "cite the line you read" >&2; exit 2` }] }],
      Stop: [{ hooks: [{ type: 'command', command: `cat >> ${join(root, 'stop.jsonl')}` }] }],
    }),
  );
  const result = await session.run('what does a.txt say? ask a subagent');
  t.is(result.status, 'answered');
  t.is(result.answer, 'Reported.');
  const lines = (file: string) => readFileSync(join(root, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(lines('substop.jsonl').map((s) => [s.hook_event_name, s.stop_hook_active]), [['SubagentStop', false], ['SubagentStop', true]]);
  t.deepEqual(lines('stop.jsonl').map((s) => s.hook_event_name), ['Stop'], 'Stop once, for the session turn only');
  const subRequests = server.chatRequests().filter((request) => isSubagent(request.json));
  t.is(subRequests.length, 2, 'the subagent went on once');
  t.regex(JSON.stringify(subRequests[1]!.json.messages.at(-1)), /cite the line you read/);
  t.regex(toolMessages(server.chatRequests().at(-1)!.json).join('\n'), /a\.txt:1 says a\./);
});

/** A hook command that prints `json` (one JSON answer on stdout) and exits 0. */
const answers = (json: unknown) => ({ type: 'command', command: `cat > /dev/null; echo '${JSON.stringify(json)}'` });
const notices = (events: AgentEvent[]) => events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));
const lastUser = (json: WireJson): string => JSON.stringify((json.messages as { role: string }[]).filter((m) => m.role === 'user').at(-1));

test('a UserPromptSubmit hook’s additionalContext joins the prompt; its systemMessage is a notice', async (t) => {
  const { server, session, events } = await sessionWith(t, [{ content: 'ok' }], () => ({
    UserPromptSubmit: [{ hooks: [answers({ systemMessage: 'ticket context added', hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'open ticket: REIKA-42' } })] }],
  }));
  t.is((await session.run('what next?')).status, 'answered');
  const sent = lastUser(server.chatRequests()[0]!.json);
  t.regex(sent, /what next\?/);
  t.regex(sent, /open ticket: REIKA-42/);
  t.true(notices(events).includes('hook: ticket context added'), noticesOf(events));
});

test('a PostToolUse hook’s additionalContext reaches the model with the result, not as an objection; suppressOutput keeps it off the screen', async (t) => {
  const { server, session, events } = await sessionWith(t, [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo built' } }] }, { content: 'ok' }], () => ({
    PostToolUse: [{ matcher: 'Bash', hooks: [answers({ suppressOutput: true, hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'the build wrote dist/ too' } })] }],
  }));
  const result = await session.run('build');
  t.deepEqual(result.toolCalls.map((call) => [call.status, call.summary.includes('hook')]), [['done', false]], 'the call stands as it ran');
  t.regex(toolMessages(server.chatRequests()[1]!.json)[0]!, /built[\s\S]*the build wrote dist\/ too/);
  t.false(notices(events).some((message) => message.includes('dist/')), noticesOf(events));
});

test('SessionStart’s output and additionalContext go with the first prompt, once; the system prompt and the prefix stay as they were', async (t) => {
  const { server, session } = await sessionWith(t, [{ content: 'one' }, { content: 'two' }], () => ({
    SessionStart: [
      { hooks: [{ type: 'command', command: 'echo "on branch feature/x"' }] },
      { hooks: [answers({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: '3 tests fail on main' } })] },
    ],
  }));
  t.is((await session.run('hello')).status, 'answered');
  t.is((await session.run('again')).status, 'answered');
  const [first, second] = server.chatRequests().map((request) => request.json.messages as { role: string; content: string }[]);
  t.regex(lastUser({ messages: first } as WireJson), /hello[\s\S]*on branch feature\/x[\s\S]*3 tests fail on main/);
  t.notRegex(JSON.stringify(first!.filter((m) => m.role === 'system')), /feature\/x|tests fail/, 'the frozen system prompt does not carry it');
  t.notRegex(lastUser({ messages: second } as WireJson), /feature\/x|tests fail/, 'once');
  t.deepEqual(second!.slice(0, first!.length), first, 'the second request begins with the first, byte for byte');
});

test('/new runs SessionStart again (source "clear"): the fresh conversation gets its context with its first prompt', async (t) => {
  const { root, server, session } = await sessionWith(t, [{ content: 'one' }, { content: 'two' }, { content: 'three' }], (root) => ({
    SessionStart: [{ hooks: [{ type: 'command', command: `cat >> ${join(root, 'starts.jsonl')}; echo "on branch feature/x"` }] }],
  }));
  t.is((await session.run('hello')).status, 'answered');
  t.is((await session.run('again')).status, 'answered');
  session.newConversation();
  t.is((await session.run('fresh')).status, 'answered');
  const prompts = server.chatRequests().map((request) => lastUser(request.json));
  t.deepEqual(prompts.map((prompt) => /on branch feature\/x/.test(prompt)), [true, false, true]);
  const starts = readFileSync(join(root, 'starts.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { source: string });
  t.deepEqual(starts.map((start) => start.source), ['startup', 'clear']);
});

test('a PreToolUse hook that answers permissionDecision "ask" makes a person confirm a call the mode would run; headless declines it', async (t) => {
  const hook = () => ({ PreToolUse: [{ matcher: 'Bash', hooks: [answers({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'writes are reviewed here' } })] }] });
  const script: Script = [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo hi > hi.txt' } }] }, { content: 'ok' }];
  const asked: string[] = [];
  const person = await sessionWith(t, script, hook, { approve: (request) => (asked.push(request.reason), { decision: 'approve' }) });
  const approved = await person.session.run('say hi');
  t.deepEqual(approved.toolCalls.map((call) => call.status), ['done'], noticesOf(person.events));
  t.deepEqual(asked, ['a PreToolUse hook asks first: writes are reviewed here']);
  t.true(existsSync(join(person.root, 'hi.txt')));
  const headless = await sessionWith(t, script, hook, { approve: declineHeadless });
  const declined = await headless.session.run('say hi');
  t.deepEqual(declined.toolCalls.map((call) => call.status), ['declined']);
  t.false(existsSync(join(headless.root, 'hi.txt')));
});

test('continue: false from a PostToolUse hook ends the turn after the call: the model is not asked again, the rest of its calls do not run', async (t) => {
  const { root, server, session, events } = await sessionWith(
    t,
    [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo one > one.txt' } }, { id: 'c2', name: 'bash', arguments: { command: 'echo two > two.txt' } }] }, { content: 'never asked' }],
    () => ({ PostToolUse: [{ matcher: 'Bash', hooks: [answers({ continue: false, stopReason: 'the CI budget is spent', systemMessage: 'stopping' })] }] }),
  );
  const result = await session.run('go');
  t.is(result.status, 'error');
  t.deepEqual(result.error, { code: 'REIKA_ERR_HOOK_STOPPED', message: 'a PostToolUse hook stopped the turn: the CI budget is spent' });
  t.deepEqual(result.toolCalls.map((call) => call.status), ['done', 'cancelled']);
  t.true(existsSync(join(root, 'one.txt')));
  t.false(existsSync(join(root, 'two.txt')));
  t.is(server.chatRequests().length, 1);
  t.true(notices(events).includes('hook: stopping'), noticesOf(events));
});

test('continue: false wins over a decision: PreToolUse does not run the call, UserPromptSubmit sends nothing, Stop ends the turn instead of going on', async (t) => {
  const pre = await sessionWith(t, [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'touch ran.txt' } }] }, { content: 'never asked' }], () => ({
    PreToolUse: [{ hooks: [answers({ continue: false, stopReason: 'frozen for the release', hookSpecificOutput: { permissionDecision: 'allow' } })] }],
  }));
  const stopped = await pre.session.run('go');
  t.deepEqual([stopped.status, stopped.error?.message], ['error', 'a PreToolUse hook stopped the turn: frozen for the release']);
  t.false(existsSync(join(pre.root, 'ran.txt')));
  t.is(pre.server.chatRequests().length, 1);
  const prompt = await sessionWith(t, [{ content: 'never asked' }], () => ({ UserPromptSubmit: [{ hooks: [answers({ continue: false, stopReason: 'out of hours' })] }] }));
  const refused = await prompt.session.run('hello');
  t.deepEqual([refused.status, refused.error?.code, refused.error?.message], ['error', 'REIKA_ERR_HOOK_STOPPED', 'a UserPromptSubmit hook stopped the turn: out of hours']);
  t.is(prompt.server.chatRequests().length, 0);
  const stop = await sessionWith(t, [{ content: 'done' }, { content: 'never asked' }], () => ({ Stop: [{ hooks: [answers({ continue: false, stopReason: 'enough for today', decision: 'block', reason: 'go on' })] }] }));
  const ended = await stop.session.run('hello');
  t.deepEqual([ended.status, ended.answer], ['answered', 'done']);
  t.is(stop.server.chatRequests().length, 1);
  t.true(notices(stop.events).includes('a Stop hook said stop: enough for today'), noticesOf(stop.events));
});

test('a hook written for Claude Code finds the file in tool_input.file_path (absolute), beside reika’s path', async (t) => {
  const { root, server, session } = await sessionWith(
    t,
    [{ toolCalls: [{ id: 'c1', name: 'write', arguments: { path: '.env', content: 'KEY=1\n' } }, { id: 'c2', name: 'edit', arguments: { path: 'a.txt', old_string: 'a', new_string: 'b' } }] }, { content: 'ok' }],
    (root) => ({
      PreToolUse: [{ matcher: 'Edit|Write|Read', hooks: [{ type: 'command', command: `tee -a ${join(root, 'pre.jsonl')} | grep -q '"file_path":"[^"]*\\.env"' && { echo "never write .env files" >&2; exit 2; }; exit 0` }] }],
    }),
  );
  const result = await session.run('configure');
  t.deepEqual(result.toolCalls.map((call) => [call.name, call.status]), [['write', 'declined'], ['edit', 'done']]);
  t.false(existsSync(join(root, '.env')));
  t.regex(toolMessages(server.chatRequests()[1]!.json)[0]!, /never write \.env files/);
  const inputs = readFileSync(join(root, 'pre.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).tool_input);
  t.deepEqual(inputs, [
    { path: '.env', content: 'KEY=1\n', file_path: join(root, '.env') },
    { path: 'a.txt', old_string: 'a', new_string: 'b', file_path: join(root, 'a.txt') },
  ]);
});
