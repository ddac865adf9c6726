import test from 'ava';
import { decide, type Ask } from '../../../actors/tool-executor/approvals.js';
import type { ApprovalClass } from '../../../actors/tool-executor/tools/define-tool.js';
import type { ApprovalMode } from '../../../actors/tool-executor/protocol.js';
import type { ApprovalRequest } from '../../../actors/approver/protocol.js';

/** Whether deciding on an action of `approval` class asked the approver, per approvals mode. */
async function asks(approval: ApprovalClass, mode: ApprovalMode, reasons: string[]): Promise<boolean> {
  const asked: ApprovalRequest[] = [];
  const ask: Ask = async (request) => {
    asked.push(request);
    return { decision: 'approve' };
  };
  const verdict = await decide({ tool: 'mcp__x__y', reasons }, approval, mode, ask);
  if (!verdict.approved) throw new Error('an approving approver was overruled');
  return asked.length > 0;
}

test('each approval class asks exactly where SPEC §4 says, and bypass never asks', async (t) => {
  const table: [ApprovalClass, string[], Record<ApprovalMode, boolean>][] = [
    ['never', [], { safe: false, off: false, bypass: false }],
    // A reading tool whose guard flagged a credential path (SPEC §16).
    ['never', ['reads ~/.netrc, a credential path'], { safe: true, off: true, bypass: false }],
    ['flagged', [], { safe: false, off: true, bypass: false }],
    ['flagged', ['writes outside the project: /etc/x'], { safe: true, off: true, bypass: false }],
    ['ask', [], { safe: true, off: true, bypass: false }],
  ];
  for (const [approval, reasons, expected] of table) {
    for (const mode of ['safe', 'off', 'bypass'] as const) {
      t.is(await asks(approval, mode, reasons), expected[mode], `${approval} ${reasons.length > 0 ? 'with' : 'without'} reasons in ${mode}`);
    }
  }
});

test('a permission rule comes before the mode: deny under bypass, ask for a tool that never asks, allow in off', async (t) => {
  const source = { scope: 'user' as const, file: '/u/settings.json' };
  const asked: ApprovalRequest[] = [];
  const ask: Ask = async (request) => {
    asked.push(request);
    return { decision: 'approve' };
  };
  const action = { tool: 'bash', command: 'git push', reasons: [] };
  const denied = await decide(action, 'flagged', 'bypass', ask, undefined, { match: { effect: 'deny', rule: 'Bash(git push:*)', source } });
  t.deepEqual(denied, { approved: false, note: 'denied by the permission rule Bash(git push:*) in /u/settings.json', rule: { effect: 'deny', rule: 'Bash(git push:*)', source } });
  const allowed = await decide(action, 'flagged', 'off', ask, undefined, { match: { effect: 'allow', rule: 'Bash(git push:*)', source } });
  t.true(allowed.approved);
  t.deepEqual(asked, []);
  const questioned = await decide({ tool: 'read', path: '/p/x', reasons: [] }, 'never', 'bypass', ask, undefined, { match: { effect: 'ask', rule: 'Read(x)', source }, suggest: () => ['Read(./x)'] });
  t.true(questioned.approved);
  t.is(asked.length, 1);
  t.is(asked[0]!.reason, 'the permission rule Read(x) in /u/settings.json asks first');
  t.deepEqual(asked[0]!.rules, ['Read(./x)']);
});
