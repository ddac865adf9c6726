import test from 'ava';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** `--model`/`-m`, `--profile`, `--mode`, `--approvals`, `--cwd` on `reika -p` (interactive: test/cli/tui/flags.test.ts). */

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

async function server(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

test('--model and -m choose the model over REIKA_MODEL; --profile picks a profile', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ content: 'one' }, { content: 'two' }, { content: 'three' }], { models: ['scripted-model', 'other-model', 'fast-model'] });
  const env = { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', REIKA_PROFILES: 'fast', REIKA_FAST_MODEL: 'fast-model' };
  const long = await runReika(['-p', 'hi', '--model', 'other-model', '--profile', 'default'], { cwd: repo, env });
  t.is(long.code, 0, long.stderr);
  const short = await runReika(['-m', 'other-model', '-p', 'hi', '--profile=default'], { cwd: repo, env });
  t.is(short.code, 0, short.stderr);
  const profile = await runReika(['-p', 'hi', '--profile', 'fast', '--json'], { cwd: repo, env });
  t.is(profile.code, 0, profile.stderr);
  t.deepEqual(s.chatRequests().map((r) => r.json.model), ['other-model', 'other-model', 'fast-model']);
  t.is(JSON.parse(profile.stdout).model, 'fast-model');
});

test('--mode plan sends the read-only tools and --cwd works in another folder', async (t) => {
  const repo = gitRepo({ 'lib/only-here.ts': 'export function onlyHereFunction() {}\n' });
  const elsewhere = gitRepo({ 'b.txt': 'y\n' });
  const s = await server([{ content: 'planned' }]);
  const run = await runReika(['-p', 'plan it', '--mode', 'plan', '--cwd', repo], { cwd: elsewhere, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  const request = s.chatRequests()[0]!.json;
  const tools = (request.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
  t.false(tools.includes('edit'));
  t.false(tools.includes('write'));
  t.true(tools.includes('read'));
  t.true((request.messages[0].content as string).includes(`Working directory: ${repo}`));
  t.regex(request.messages[0].content as string, /onlyHereFunction/);
});

test('--approvals off confirms every action (declined headless); bypass is refused as a flag', async (t) => {
  const repo = gitRepo({ 'a.txt': 'x\n' });
  const s = await server([{ toolCalls: [{ name: 'edit', arguments: { path: 'a.txt', old_string: 'x', new_string: 'y' } }] }, { content: 'could not edit' }]);
  const env = { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' };
  const off = await runReika(['-p', 'edit it', '--approvals', 'off', '--json'], { cwd: repo, env });
  t.is(off.code, 0, off.stderr);
  t.deepEqual(JSON.parse(off.stdout).toolCalls.map((c: { status: string }) => c.status), ['declined']);
  const bypass = await runReika(['-p', 'edit it', '--approvals', 'bypass'], { cwd: repo, env });
  t.is(bypass.code, 1);
  t.is(bypass.stderr, 'reika: --approvals takes safe or off; bypass is only available through the environment: REIKA_AUTO_APPROVE=bypass\n');
  for (const [args, message] of [
    [['-p', 'x', '--mode', 'yolo'], 'reika: --mode must be agent or plan, not "yolo"\n'],
    [['-p', 'x', '--profile'], 'reika: --profile needs a value (see reika --help)\n'],
    [['-p', 'x', '--cwd', '/no/such/folder'], 'reika: --cwd /no/such/folder: no such folder\n'],
    [['-p', 'x', '--profile', 'nope'], 'reika: --profile nope: no such profile (profiles: default; add one with REIKA_PROFILES)\n'],
  ] as const) {
    const run = await runReika([...args], { cwd: repo, env });
    t.is(run.code, 1, args.join(' '));
    t.is(run.stderr, message);
  }
  t.is(s.chatRequests().length, 2, 'no request for a refused command line');
});
