import test from 'ava';
import type { ApprovalReply, ApprovalRequest } from '../../../actors/tool-executor/protocol.js';
import { ApprovalPrompt } from '../../../cli/tui/approval-prompt.js';
import { createStyle } from '../../../cli/tui/style.js';

/** The approval menu's choices: three for a tool call, two when the asker remembers the answer itself. */

const plain = createStyle(false);
const command: ApprovalRequest = { type: 'approve', tool: 'bash', reason: 'rm -rf deletes files recursively', command: 'rm -rf victim' };
const server: ApprovalRequest = { type: 'approve', tool: 'MCP server proj', reason: "this project's .mcp.json starts it", command: 'node server.js', remembered: 'for this project' };

function prompt(request: ApprovalRequest): { prompt: ApprovalPrompt; replies: ApprovalReply[] } {
  const replies: ApprovalReply[] = [];
  return { prompt: new ApprovalPrompt(request, (reply) => replies.push(reply)), replies };
}

test('a tool call offers approve, decline and always-for-this-session', (t) => {
  const { prompt: p, replies } = prompt(command);
  const [items, help] = p.menu(plain, 120);
  t.regex(items!, /› Approve \(y\) +Decline \(n\) +Always \(this session\) \(a\)/);
  t.regex(help!, /y \/ n \/ a/);
  t.true(p.key({ type: 'text', text: 'a' }));
  t.deepEqual(replies, [{ decision: 'always' }]);
});

test('a request the asker remembers offers approve (saying for how long) or decline, and no session-long always', (t) => {
  const { prompt: p, replies } = prompt(server);
  const [items, help] = p.menu(plain, 120);
  t.regex(items!, /› Approve, remembered for this project \(y\) +Decline \(n\)/);
  t.notRegex(items!, /Always/);
  t.regex(help!, /y \/ n ·/);
  t.false(p.key({ type: 'text', text: 'a' }), '`a` is not a choice here');
  p.key({ type: 'key', name: 'down', sequence: '' });
  p.key({ type: 'key', name: 'down', sequence: '' });
  t.regex(p.menu(plain, 120)[0]!, /› Approve/, 'Down wraps around two choices');
  p.key({ type: 'key', name: 'up', sequence: '' });
  t.true(p.key({ type: 'key', name: 'enter', sequence: '' }));
  t.is(replies[0]?.decision, 'decline');
});
