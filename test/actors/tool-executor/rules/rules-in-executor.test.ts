import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { RuleData, RuleEffect } from '../../../../actors/tool-executor/rules/rule.js';
import { sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';
import { git, gitRepo, tempDir } from '../../../helpers/temp.js';
import { call } from '../harness.js';

// The tools with permission rules in their calls' context, as a session sends them.
const USER_FILE = '/home/ann/.config/reika/settings.json';
const state = await sandboxState(undefined);
const sandboxed = state.kind === 'bwrap' ? test : test.skip;

function rules(spec: Partial<Record<RuleEffect, string[]>>, scope: RuleData['scope'] = 'user', file = USER_FILE): RuleData[] {
  return (['allow', 'ask', 'deny'] as const).flatMap((effect) => (spec[effect] ?? []).map((rule) => ({ effect, rule, scope, file })));
}

test('a deny rule refuses a command under bypass, naming the rule and its file, and nothing runs', async (t) => {
  const root = tempDir();
  const result = await call(root, 'bash', { command: 'touch ran.txt && git push' }, { approvals: 'bypass', permissions: rules({ deny: ['Bash(git push:*)'] }) });
  t.is(result.status, 'declined');
  t.is(result.summary, `declined: denied by the permission rule Bash(git push:*) in ${USER_FILE}`);
  t.deepEqual(result.asked, []);
  t.false(existsSync(join(root, 'ran.txt')));
});

test('git push to a local bare remote is denied by one rule and allowed by another', async (t) => {
  const remote = tempDir('reika-remote-');
  git(remote, 'init', '--bare', '-q', '-b', 'main');
  const root = gitRepo({ 'a.txt': 'a\n' });
  git(root, 'remote', 'add', 'origin', remote);
  const denied = await call(root, 'bash', { command: 'git push -q origin HEAD:main' }, { permissions: rules({ deny: ['Bash(git push:*)'], allow: ['Bash(git:*)'] }) });
  t.is(denied.status, 'declined');
  t.throws(() => git(remote, 'rev-parse', '--verify', '-q', 'main'));
  const allowed = await call(root, 'bash', { command: 'git push -q origin HEAD:main' }, { approvals: 'off', permissions: rules({ allow: ['Bash(git push:*)'] }) });
  t.is(allowed.status, 'done', allowed.summary);
  t.deepEqual(allowed.asked, [], 'approvals off, but the allow rule answers');
  t.is(git(remote, 'rev-parse', 'main'), git(root, 'rev-parse', 'HEAD'));
});

test('an ask rule asks under bypass, and its question offers the rules "Always" would write', async (t) => {
  const root = tempDir();
  const result = await call(root, 'bash', { command: 'npm publish --dry-run || true' }, { approvals: 'bypass', permissions: rules({ ask: ['Bash(npm publish:*)'] }), ask: async () => ({ decision: 'decline', note: 'not today' }) });
  t.is(result.status, 'declined');
  t.is(result.summary, 'declined: not today');
  t.is(result.asked.length, 1);
  t.regex(result.asked[0]!.reason, /^the permission rule Bash\(npm publish:\*\) in .*settings\.json asks first$/);
  t.deepEqual(result.asked[0]!.rules, ['Bash(npm publish:*)'], 'true changes nothing and needs no rule');
});

test('an allow rule runs a dangerous command in safe mode without asking', async (t) => {
  const root = tempDir();
  mkdirSync(join(root, 'build'));
  writeFileSync(join(root, 'build', 'x.o'), '');
  const asked = await call(root, 'bash', { command: 'rm -rf build' });
  t.is(asked.asked.length, 1, 'safe mode asks for rm -rf');
  mkdirSync(join(root, 'build'), { recursive: true });
  const result = await call(root, 'bash', { command: 'rm -rf build' }, { permissions: rules({ allow: ['Bash(rm -rf build)'] }) });
  t.is(result.status, 'done');
  t.deepEqual(result.asked, []);
  t.false(existsSync(join(root, 'build')));
});

test('Read rules refuse read, grep and list of a denied folder; an ask rule makes read ask', async (t) => {
  const root = tempDir();
  mkdirSync(join(root, 'secrets'));
  writeFileSync(join(root, 'secrets', 'key.pem'), 'KEY\n');
  writeFileSync(join(root, 'notes.txt'), 'hello\n');
  const permissions = rules({ deny: ['Read(./secrets/**)'], ask: ['Read(notes.txt)'] }, 'project', join(root, '.reika/settings.json'));
  for (const [tool, args] of [['read', { path: 'secrets/key.pem' }], ['grep', { pattern: 'KEY', path: 'secrets' }], ['list', { path: 'secrets' }]] as const) {
    const result = await call(root, tool, args, { permissions });
    t.is(result.status, 'declined', tool);
    t.regex(result.summary, /denied by the permission rule Read\(\.\/secrets\/\*\*\) in .*\/\.reika\/settings\.json/, tool);
    t.notRegex(result.payload, /KEY/);
  }
  const asked = await call(root, 'read', { path: 'notes.txt' }, { permissions });
  t.is(asked.status, 'done');
  t.is(asked.asked.length, 1);
  t.deepEqual(asked.asked[0]!.rules, ['Read(./notes.txt)']);
});

test('Edit rules cover write; a write an allow rule names outside the project runs unasked', async (t) => {
  const root = tempDir();
  const outside = mkdtempSync('/var/tmp/reika-rules-out-');
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  const denied = await call(root, 'write', { path: 'gen/out.ts', content: 'x' }, { permissions: rules({ deny: ['Edit(gen/**)'] }) });
  t.is(denied.status, 'declined');
  t.false(existsSync(join(root, 'gen', 'out.ts')));
  const file = join(outside, 'notes.md');
  const unasked = await call(root, 'write', { path: file, content: 'x' }, { permissions: rules({ allow: [`Edit(/${outside}/**)`] }) });
  t.is(unasked.status, 'done', unasked.summary);
  t.deepEqual(unasked.asked, []);
  const askedFile = join(outside, 'other.md');
  const asked = await call(root, 'write', { path: askedFile, content: 'x' });
  t.is(asked.asked.length, 1);
  t.deepEqual(asked.asked[0]!.rules, [`Edit(/${askedFile})`]);
});

sandboxed('a command an allow rule approves runs with the network', async (t) => {
  const root = mkdtempSync('/var/tmp/reika-rules-net-');
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end('pong');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
  writeFileSync(join(root, 'fetch.js'), `fetch(${JSON.stringify(url)}).then((r) => r.text()).then(console.log, (e) => { console.log('failed', e.cause?.code); process.exit(3); })`);
  const plain = await call(root, 'bash', { command: 'node fetch.js' });
  t.is(plain.meta?.exitCode, 3);
  const allowed = await call(root, 'bash', { command: 'node fetch.js' }, { permissions: rules({ allow: ['Bash(node fetch.js)'] }) });
  t.deepEqual(allowed.asked, []);
  t.is(allowed.meta?.exitCode, 0, allowed.payload);
  t.deepEqual(hits, ['/ping']);
});

test('a PreToolUse hook’s answer weighs in between the rules: deny rule > hook ask > ask rule > allow rule > hook allow > the mode', async (t) => {
  const root = tempDir();
  const ran = (result: { status: string }) => result.status === 'done';
  const asked = (result: { asked: unknown[] }) => result.asked.length;
  const decline = { ask: async () => ({ decision: 'decline' as const, note: 'no' }) };
  // A hook's ask: asked under bypass, and where an allow rule would run it; the question says why and offers no rule to write.
  const overBypass = await call(root, 'bash', { command: 'echo hi' }, { approvals: 'bypass', hookAsked: 'deploys need a person', ...decline });
  t.deepEqual([overBypass.status, asked(overBypass)], ['declined', 1]);
  t.is(overBypass.asked[0]!.reason, 'a PreToolUse hook asks first: deploys need a person');
  t.is(overBypass.asked[0]!.rules, undefined, '"Always" would write a rule the hook asks past anyway');
  t.true(overBypass.asked[0]!.everyTime, 'asked every time: no session-long answer stands in for it');
  const overAllow = await call(root, 'bash', { command: 'echo hi' }, { hookAsked: 'check it', permissions: rules({ allow: ['Bash(echo:*)'] }), ...decline });
  t.deepEqual([overAllow.status, asked(overAllow)], ['declined', 1]);
  // Even a tool that never asks (read) is asked about, as under an ask rule.
  writeFileSync(join(root, 'a.txt'), 'a\n');
  const read = await call(root, 'read', { path: 'a.txt' }, { hookAsked: 'read it?' });
  t.deepEqual([ran(read), asked(read)], [true, 1]);
  // A deny rule holds whatever the hook said.
  for (const hook of [{ hookAsked: 'ask' }, { hookApproved: 'fine by me' }]) {
    const denied = await call(root, 'bash', { command: 'echo hi' }, { ...hook, permissions: rules({ deny: ['Bash(echo:*)'] }) });
    t.deepEqual([denied.status, asked(denied)], ['declined', 0]);
    t.regex(denied.summary, /denied by the permission rule Bash\(echo:\*\)/);
  }
  // A hook's allow runs what the mode would ask about, but not past an ask rule.
  const allowedInOff = await call(root, 'bash', { command: 'echo hi' }, { approvals: 'off', hookApproved: 'fine by me', ...decline });
  t.deepEqual([ran(allowedInOff), asked(allowedInOff)], [true, 0]);
  const askRuleWins = await call(root, 'bash', { command: 'echo hi' }, { approvals: 'off', hookApproved: 'fine by me', permissions: rules({ ask: ['Bash(echo:*)'] }), ...decline });
  t.deepEqual([askRuleWins.status, asked(askRuleWins)], ['declined', 1]);
  t.regex(askRuleWins.asked[0]!.reason, /^the permission rule Bash\(echo:\*\) in .* asks first$/);
});
