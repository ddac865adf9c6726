import test from 'ava';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { ApprovalRequest } from '../../../actors/approver/protocol.js';
import { EditorApprovals } from '../../../cli/acp/permission.js';

/** The editor's permission question for an approval, and what it remembers for the session. */

const command: ApprovalRequest = { type: 'approve', tool: 'bash', reason: 'rm -rf deletes files recursively', command: 'rm -rf build' };
const call = { toolCallId: 'c1' };

test("a PreToolUse hook's ask is asked every time: once-only choices, and an earlier \"always allow\" of the command does not answer it", async (t) => {
  const asked: RequestPermissionRequest[] = [];
  const approvals = new EditorApprovals('s1', async (request) => (asked.push(request), { outcome: { outcome: 'selected', optionId: 'allow_always' } }));
  const signal = new AbortController().signal;
  t.is((await approvals.approve(command, call, signal)).decision, 'always');
  t.is((await approvals.approve(command, call, signal)).decision, 'approve', 'remembered for the session');
  t.is(asked.length, 1);
  await approvals.approve({ ...command, reason: 'a PreToolUse hook asks first: deploys need a person', everyTime: true }, call, signal);
  t.is(asked.length, 2, 'the hook’s ask went to the editor');
  t.deepEqual(asked[1]!.options.map((option) => option.kind), ['allow_once', 'reject_once']);
});
