import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

/** A temp HOME whose user settings say `settings`, and the variables that point reika at it. */
function home(settings?: unknown): { env: Record<string, string>; folder: string } {
  const base = tempDir('reika-home-');
  const folder = join(base, '.config', 'reika');
  mkdirSync(folder, { recursive: true });
  if (settings !== undefined) writeFileSync(join(folder, 'settings.json'), JSON.stringify(settings, null, 2));
  return { env: { HOME: base, XDG_CONFIG_HOME: join(base, '.config'), XDG_STATE_HOME: join(base, '.state') }, folder };
}

test('reika config shows each setting in effect and where it came from, and what the project may not set', async (t) => {
  const user = home({ maxTurns: 50, profiles: { fast: { model: 'small' } } });
  const repo = gitRepo({ '.env': 'REIKA_SANDBOX=off\nREIKA_MAX_TOKENS=777\n', '.reika/settings.json': '{\n  "repoMapBudget": 4000,\n  "colour": "red"\n}\n' });
  const run = await runReika(['config'], { cwd: repo, env: { ...user.env, REIKA_MODEL: 'from-env' } });
  t.is(run.code, 0, run.stderr);
  const line = (key: string) => run.stdout.split('\n').find((l) => l.trimStart().startsWith(`${key} `)) ?? '';
  t.regex(line('model'), /from-env\s+from environment$/);
  t.regex(line('maxTurns'), /50\s+from ~\/\.config\/reika\/settings\.json$|50\s+from \S+settings\.json$/);
  t.regex(line('maxTokens'), new RegExp(`777\\s+from ${join(repo, '.env').replace(/[.]/g, '\\.')}$`));
  t.regex(line('repoMapBudget'), /4000\s+from \S+\/\.reika\/settings\.json$/);
  t.regex(line('sandbox'), /auto\s+default$/, 'an untrusted project does not switch the sandbox off');
  t.regex(line('profiles.fast.model'), /small/);
  t.regex(run.stdout, /not trusted/);
  t.regex(run.stdout, new RegExp(`ignored REIKA_SANDBOX=off from ${join(repo, '.env').replace(/[.]/g, '\\.')}: the project is not trusted to loosen safety`));
  t.regex(run.stdout, /settings\.json:3: unknown key "colour"/);
  const json = JSON.parse((await runReika(['config', '--json'], { cwd: repo, env: { ...user.env, REIKA_API_KEY: 'sk-never-shown-123' } })).stdout);
  t.false(json.trusted);
  t.deepEqual(json.files.map((f: { scope: string; exists: boolean }) => [f.scope, f.exists]), [['user', true], ['project', true], ['local', false]]);
  t.like(json.settings.find((s: { key: string }) => s.key === 'apiKey'), { env: 'REIKA_API_KEY', value: '(set)', source: 'environment' });
  t.false(JSON.stringify(json).includes('sk-never-shown-123'));
});

test('reika -p in a cloned project whose .env loosens safety: ignored with one line until trusted', async (t) => {
  const user = home();
  const repo = gitRepo({ 'build/keep.txt': 'keep\n', '.env': 'REIKA_AUTO_APPROVE=bypass\nREIKA_SANDBOX=off\n' });
  const s = await startScriptedServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] }, { content: 'declined' }, { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] }, { content: 'done' }]);
  servers.push(s);
  const env = { ...user.env, REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' };
  const untrusted = await runReika(['-p', 'delete build', '--json'], { cwd: join(repo, 'build'), env });
  t.is(untrusted.code, 0, untrusted.stderr);
  t.deepEqual(JSON.parse(untrusted.stdout).toolCalls.map((c: { status: string }) => c.status), ['declined']);
  t.true(existsSync(join(repo, 'build', 'keep.txt')));
  t.regex(untrusted.stderr, /reika: ignored REIKA_AUTO_APPROVE=bypass from \S+\/\.env: the project is not trusted to loosen safety/);
  t.regex(untrusted.stderr, /reika: ignored REIKA_SANDBOX=off from \S+\/\.env/);
  const trusted = await runReika(['-p', 'delete build', '--json'], { cwd: repo, env: { ...env, REIKA_TRUST_PROJECT: '1' } });
  t.is(trusted.code, 0, trusted.stderr);
  t.deepEqual(JSON.parse(trusted.stdout).toolCalls.map((c: { status: string }) => c.status), ['done']);
  t.false(existsSync(join(repo, 'build')));
  t.notRegex(trusted.stderr, /ignored/);
});

test('a key refused on a profile names that profile’s key variable', async (t) => {
  const user = home();
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await startScriptedServer([{ fault: { type: 'status', status: 401 } }]);
  servers.push(s);
  const run = await runReika(['-p', 'hi', '--profile', 'cloud'], { cwd: repo, env: { ...user.env, REIKA_PROFILES: 'cloud', REIKA_CLOUD_BASE_URL: s.url, REIKA_CLOUD_MODEL: 'scripted-model', REIKA_CLOUD_CONTEXT_WINDOW: '8000' } });
  t.is(run.code, 1);
  t.regex(run.stderr, /refused the API key \(HTTP 401\) — set REIKA_CLOUD_API_KEY/);
});

test('a key refused while the profile’s model is discovered names that profile’s key variable too', async (t) => {
  const user = home();
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const s = await startScriptedServer([], { modelsStatus: 401 });
  servers.push(s);
  const run = await runReika(['-p', 'hi', '--profile', 'cloud'], { cwd: repo, env: { ...user.env, REIKA_PROFILES: 'cloud', REIKA_CLOUD_BASE_URL: s.url } });
  t.is(run.code, 1);
  t.regex(run.stderr, /refused the API key \(HTTP 401\) — set REIKA_CLOUD_API_KEY/);
  t.notRegex(run.stderr, /REIKA_API_KEY/);
  t.is(s.chatRequests().length, 0);
});

test('on a profile, a server that does not answer and a model it does not have name that profile’s variables', async (t) => {
  const user = home();
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const gone = await startScriptedServer([]);
  const goneUrl = gone.url;
  await gone.close();
  const profile = { ...user.env, REIKA_PROFILES: 'cloud', REIKA_PROFILE: 'cloud', REIKA_CLOUD_CONTEXT_WINDOW: '8000' };
  const unreachable = await runReika(['-p', 'hi'], { cwd: repo, env: { ...profile, REIKA_CLOUD_BASE_URL: goneUrl, REIKA_CLOUD_MODEL: 'm' } });
  t.is(unreachable.code, 1);
  t.regex(unreachable.stderr, /No model server answers at \S+ \(connection refused\) — start one or set REIKA_CLOUD_BASE_URL\./);
  const vllm = await startScriptedServer([{ fault: { type: 'status', status: 404, message: 'The model `wrong` does not exist.' } }], { models: ['real-model'] });
  servers.push(vllm);
  const unknown = await runReika(['-p', 'hi'], { cwd: repo, env: { ...profile, REIKA_CLOUD_BASE_URL: vllm.url, REIKA_CLOUD_MODEL: 'wrong' } });
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /no model "wrong" — set REIKA_CLOUD_MODEL\. The server offers: real-model/);
});
