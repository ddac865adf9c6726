import test from 'ava';
import type { ApprovalReply, ApprovalRequest } from '../../../actors/approver/protocol.js';
import { ApprovalPrompt } from '../../../cli/tui/approval-prompt.js';
import { SessionApprovals } from '../../../cli/tui/approver.js';
import { createStyle } from '../../../cli/tui/style.js';

/** The approval menu's choices: "Always" writes a rule where the request has one, lasts the session where not, and is not offered where the asker remembers the answer itself. */

const plain = createStyle(false);
const command: ApprovalRequest = { type: 'approve', tool: 'bash', reason: 'rm -rf deletes files recursively', command: 'rm -rf victim' };
const server: ApprovalRequest = { type: 'approve', tool: 'MCP server proj', reason: "this project's .mcp.json starts it", command: 'node server.js', remembered: 'for this project' };

function prompt(request: ApprovalRequest): { prompt: ApprovalPrompt; replies: ApprovalReply[] } {
  const replies: ApprovalReply[] = [];
  return { prompt: new ApprovalPrompt(request, (reply) => replies.push(reply)), replies };
}

test('a tool call without a rule to write offers approve, decline and always-for-this-session', (t) => {
  const { prompt: p, replies } = prompt(command);
  const [items, help] = p.menu(plain, 140);
  t.regex(items!, /› Approve \(y\) +Decline \(n\) +Always \(this session\) \(a\) +Decline, say why \(r\)/);
  t.regex(help!, /y \/ n \/ a \/ r/);
  t.true(p.key({ type: 'text', text: 'a' }));
  t.deepEqual(replies, [{ decision: 'always' }]);
});

test('a tool call with rules to write offers "Always" for this project or every project, and shows the rules', (t) => {
  const request: ApprovalRequest = { ...command, command: 'git push origin main', rules: ['Bash(git push:*)'] };
  const { prompt: p, replies } = prompt(request);
  t.regex(p.menu(plain, 160)[0]!, /Always here \(a\) +Always, every project \(u\)/);
  t.true(p.describe(plain).includes('  "Always" allows Bash(git push:*)'));
  t.true(p.key({ type: 'text', text: 'u' }));
  const other = prompt(request);
  t.true(other.prompt.key({ type: 'text', text: 'a' }));
  t.deepEqual([...replies, ...other.replies], [{ decision: 'always', scope: 'user' }, { decision: 'always', scope: 'local' }]);
});

test('"Decline, say why" takes one line the model gets with the decline; Esc goes back to the choices', (t) => {
  const { prompt: p, replies } = prompt(command);
  t.false(p.key({ type: 'text', text: 'r' }));
  t.true(p.typing);
  t.regex(p.menu(plain, 120)[0]!, /Why not\? › {2}$/, 'the cursor is a reversed blank');
  t.false(p.key({ type: 'text', text: 'y' }), 'keys are text now, not choices');
  t.false(p.key({ type: 'key', name: 'escape', sequence: '' }));
  t.false(p.typing);
  p.key({ type: 'text', text: 'r' });
  for (const text of ['use', ' trash\n', 'x']) p.key({ type: 'paste', text });
  p.key({ type: 'key', name: 'backspace', sequence: '' });
  t.regex(p.menu(plain, 120)[0]!, /Why not\? › use trash  $/);
  t.true(p.key({ type: 'key', name: 'enter', sequence: '' }));
  t.deepEqual(replies, [{ decision: 'decline', note: 'the user declined this action: use trash' }]);
});

test('a request the asker remembers offers approve (saying for how long) or decline, and no session-long always', (t) => {
  const { prompt: p, replies } = prompt(server);
  const [items, help] = p.menu(plain, 120);
  t.regex(items!, /› Approve, remembered for this project \(y\) +Decline \(n\) +Decline, say why \(r\)/);
  t.notRegex(items!, /Always/);
  t.regex(help!, /y \/ n \/ r ·/);
  t.false(p.key({ type: 'text', text: 'a' }), '`a` is not a choice here');
  for (let i = 0; i < 3; i++) p.key({ type: 'key', name: 'down', sequence: '' });
  t.regex(p.menu(plain, 120)[0]!, /› Approve/, 'Down wraps around three choices');
  p.key({ type: 'key', name: 'up', sequence: '' });
  p.key({ type: 'key', name: 'up', sequence: '' });
  t.true(p.key({ type: 'key', name: 'enter', sequence: '' }));
  t.is(replies[0]?.decision, 'decline');
});

test('on a narrow terminal the answers take two rows instead of a line wider than the screen', (t) => {
  const { prompt: p } = prompt({ ...command, rules: ['Bash(rm -rf victim)'] });
  const lines = p.menu(plain, 80);
  t.is(lines.length, 3);
  for (const line of lines) t.true(line.length <= 79, line);
  t.regex(lines[0]!, /› Approve \(y\)/);
  t.regex(lines[1]!, /Decline, say why \(r\)/);
  t.is(p.menu(plain, 160).length, 2, 'one row where it fits');
});

test("a PreToolUse hook's ask is asked every time: no Always offered, and an earlier Always for the same command does not answer it", async (t) => {
  const hookAsks: ApprovalRequest = { ...command, reason: 'a PreToolUse hook asks first: deploys need a person', everyTime: true };
  const [items] = prompt(hookAsks).prompt.menu(plain, 140);
  t.regex(items!, /› Approve \(y\) +Decline \(n\) +Decline, say why \(r\)/);
  t.notRegex(items!, /Always/);
  const asked: ApprovalRequest[] = [];
  const approvals = new SessionApprovals(async (request) => (asked.push(request), { decision: 'always' }));
  const signal = new AbortController().signal;
  t.is((await approvals.approve(command, signal)).decision, 'always');
  t.is((await approvals.approve(command, signal)).note, 'approved for this session', 'remembered for the same command');
  await approvals.approve(hookAsks, signal);
  t.is(asked.length, 2, 'the hook’s ask went to the person');
});
