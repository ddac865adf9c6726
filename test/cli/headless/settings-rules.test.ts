import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedReply } from '../../helpers/scripted-server.js';
import { git, gitRepo, tempDir } from '../../helpers/temp.js';
import { runReika } from '../headless-helpers.js';

/**
 * Permission rules and hooks from real settings files (SPEC §17), through the built `reika -p`:
 * the user's ~/.config/reika/settings.json, the project's .reika/settings.json and
 * .reika/settings.local.json, a real bare git remote, real hook scripts.
 */

function settings(path: string, content: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(content, null, 2));
}

async function run(t: { teardown(fn: () => Promise<void>): void }, root: string, home: string, replies: ScriptedReply[], env: Record<string, string> = {}) {
  const server = await startScriptedServer(replies, { models: ['scripted-model'] });
  t.teardown(() => server.close());
  const result = await runReika(['-p', 'go'], { cwd: root, env: { HOME: home, REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', ...env } });
  const told = (server.chatRequests()[1]?.json.messages as { role: string; content: string }[] | undefined)?.filter((m) => m.role === 'tool').map((m) => m.content) ?? [];
  return { ...result, told, server };
}

function pushRepo(): { root: string; remote: string } {
  const remote = tempDir('reika-remote-');
  git(remote, 'init', '--bare', '-q', '-b', 'main');
  const root = gitRepo({ 'a.txt': 'a\n' });
  git(root, 'remote', 'add', 'origin', remote);
  return { root, remote };
}

const push: ScriptedReply[] = [{ toolCalls: [{ id: 'p', name: 'bash', arguments: { command: 'git push -q origin HEAD:main' } }] }, { content: 'done' }];
const remoteHas = (remote: string) => {
  try {
    git(remote, 'rev-parse', '--verify', '-q', 'main');
    return true;
  } catch {
    return false;
  }
};

test('git push to a local bare remote: a project deny rule beats the user’s allow rule and bypass', async (t) => {
  const { root, remote } = pushRepo();
  const home = tempDir('reika-home-');
  settings(join(home, '.config/reika/settings.json'), { permissions: { allow: ['Bash(git:*)'] } });
  settings(join(root, '.reika/settings.json'), { permissions: { deny: ['Bash(git push:*)'] } });
  const denied = await run(t, root, home, push, { REIKA_AUTO_APPROVE: 'bypass' });
  t.is(denied.code, 0, denied.stderr);
  t.false(remoteHas(remote));
  t.regex(denied.told[0]!, /denied by the permission rule Bash\(git push:\*\) in .*\/\.reika\/settings\.json/);
  t.regex(denied.stderr, /✗ bash git push -q origin HEAD:main — declined: denied by the permission rule/);
});

test('git push to a local bare remote: allowed by a local rule where headless would decline it', async (t) => {
  const { root, remote } = pushRepo();
  const home = tempDir('reika-home-');
  settings(join(root, '.reika/settings.local.json'), { permissions: { allow: ['Bash(git push:*)'] } });
  const asked = await run(t, root, home, push, { REIKA_AUTO_APPROVE: 'off' });
  t.regex(asked.stderr, /settings\.local\.json: the project is not trusted, so its 1 allow rule is ignored/, 'untrusted: the allow rule is set aside, in one line');
  t.false(remoteHas(remote), 'approvals off, headless: declined');
  const allowed = await run(t, root, home, push, { REIKA_AUTO_APPROVE: 'off', REIKA_MCP_TRUST_PROJECT: '1' });
  t.is(allowed.code, 0, allowed.stderr);
  t.true(remoteHas(remote), allowed.stderr);
  t.is(git(remote, 'rev-parse', 'main'), git(root, 'rev-parse', 'HEAD'));
});

test('an untrusted project’s allow rules and hooks have no effect, its ask rules do; trusted, they all do', async (t) => {
  const root = gitRepo({ 'a.txt': 'a\n', 'build/out.o': 'o\n' });
  const home = tempDir('reika-home-');
  settings(join(root, '.reika/settings.json'), {
    permissions: { allow: ['Bash(rm -rf build)'], ask: ['Read(a.txt)'] },
    hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'cat > "$REIKA_PROJECT_DIR/hook-ran.json"' }] }] },
  });
  const calls: ScriptedReply[] = [{ toolCalls: [{ id: 'r', name: 'bash', arguments: { command: 'rm -rf build' } }, { id: 'a', name: 'read', arguments: { path: 'a.txt' } }] }, { content: 'done' }];
  const untrusted = await run(t, root, home, calls);
  t.is(untrusted.code, 0, untrusted.stderr);
  t.is(untrusted.stderr.split('\n').filter((line) => /is not trusted/.test(line)).length, 1, untrusted.stderr);
  t.regex(untrusted.stderr, /\.reika\/settings\.json: the project is not trusted, so its 1 allow rule and 1 hook are ignored \(its deny and ask rules apply\)/);
  t.true(existsSync(join(root, 'build/out.o')), 'rm -rf asked (safe mode) and was declined headless');
  t.regex(untrusted.told[1]!, /declined: .*headless/, 'the ask rule made read ask, and headless declines');
  t.false(existsSync(join(root, 'hook-ran.json')), 'the hook did not run');
  const trusted = await run(t, root, home, calls, { REIKA_TRUST_PROJECT: '1' });
  t.is(trusted.code, 0, trusted.stderr);
  t.notRegex(trusted.stderr, /is not trusted/);
  t.false(existsSync(join(root, 'build')), 'the allow rule ran rm -rf unasked');
  t.true(existsSync(join(root, 'hook-ran.json')), 'the hook ran');
  t.regex(trusted.told[1]!, /declined/, 'the ask rule still asks');
});

test('headless, a sandboxed command that needed the network is reported declined with ✗', async (t) => {
  const root = gitRepo({ 'fetch.js': "fetch('http://127.0.0.1:39/x').then(() => console.log('ok'), (e) => { console.log('failed:', e.cause?.message); process.exit(3); })\n" });
  const home = tempDir('reika-home-');
  const result = await run(t, root, home, [{ toolCalls: [{ id: 'f', name: 'bash', arguments: { command: 'node fetch.js' } }] }, { content: 'done' }], { REIKA_SANDBOX: 'bwrap' });
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, /✗ bash node fetch\.js — declined: it failed without the network \(exit code 3 after [\d.]+ s\), and running it again with the network was declined: nobody can approve it here/);
  t.regex(result.told[0]!, /declined: it failed without the network/);
});
