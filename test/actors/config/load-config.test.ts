import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpointOf, loadConfig } from '../../../actors/config/load-config.js';
import { ConfigError } from '../../../actors/settings/parse.js';
import { parseDotEnv } from '../../../actors/config/sources.js';
import { tempDir } from '../../helpers/temp.js';

function dirs() {
  const base = tempDir('reika-config-');
  const cwd = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(cwd);
  mkdirSync(join(home, '.config', 'reika'), { recursive: true });
  return { cwd, home };
}

test('.env parsing handles export, quotes and comments', (t) => {
  t.deepEqual(parseDotEnv('# c\nexport A=1\nB="two words" \nC=\'x#y\'\nD=plain # note\nnot a line\n'), {
    A: '1',
    B: 'two words',
    C: 'x#y',
    D: 'plain',
  });
});

test('the environment wins over the project .env, which wins over the home .env', (t) => {
  const { cwd, home } = dirs();
  writeFileSync(join(home, '.config', 'reika', '.env'), 'REIKA_MODEL=home-model\nREIKA_API_KEY=home-key\nREIKA_MAX_TOKENS=100\n');
  writeFileSync(join(cwd, '.env'), 'REIKA_MODEL=project-model\nREIKA_MAX_TOKENS=200\nOTHER_API_KEY=ignored\n');
  const config = loadConfig({ cwd, home, env: { REIKA_MAX_TOKENS: '300' }, trusted: true });
  t.is(config.active.model, 'project-model');
  t.is(config.active.apiKey, 'home-key');
  t.is(config.maxTokens, 300);
  t.is(config.active.baseUrl, 'http://localhost:8080/v1');
  t.is(config.approvals, 'safe');
  t.is(config.maxTurns, 200);
  t.deepEqual(config.secrets, ['home-key'], 'only REIKA_* keys are read from a .env file');
});

test('profiles take their own settings and fall back to the main ones', (t) => {
  const { cwd, home } = dirs();
  const config = loadConfig({
    cwd,
    home,
    env: {
      REIKA_BASE_URL: 'http://main:1/v1/',
      REIKA_API_KEY: 'k',
      REIKA_PROFILES: 'fast, VL',
      REIKA_FAST_MODEL: 'qwen-small',
      REIKA_VL_BASE_URL: 'http://vl:2/v1',
      REIKA_VL_MODEL: 'qwen-vl',
      REIKA_VL_VISION: 'native',
      REIKA_VL_CONTEXT_WINDOW: '32768',
    },
  });
  t.deepEqual(config.profiles.map((p) => p.name), ['default', 'fast', 'vl']);
  t.is(config.active.name, 'default', 'REIKA_PROFILES lists profiles; none is active until named');
  const fast = config.profiles[1]!;
  t.is(fast.baseUrl, 'http://main:1/v1');
  t.is(fast.apiKey, 'k');
  const vl = config.profiles[2]!;
  t.is(vl.baseUrl, 'http://vl:2/v1');
  t.is(vl.vision, 'native');
  t.is(config.profiles[1]!.vision, undefined);
  const global = loadConfig({ cwd, home, env: { REIKA_VISION: 'native', REIKA_PROFILES: 'a,b', REIKA_B_VISION: 'off' } });
  t.deepEqual(global.profiles.map((p) => p.vision), ['native', 'native', undefined], 'REIKA_VISION applies to profiles without their own');
  t.is(vl.contextWindow, 32768);
});

test('bad values are named in a clear error', (t) => {
  const { cwd, home } = dirs();
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_AUTO_APPROVE: 'maybe' } }), { instanceOf: ConfigError, message: /REIKA_AUTO_APPROVE/ });
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_CONTEXT_WINDOW: 'big' } }), { instanceOf: ConfigError, message: /REIKA_CONTEXT_WINDOW/ });
  t.is(loadConfig({ cwd, home, env: { REIKA_AUTO_APPROVE: 'yolo' } }).approvals, 'bypass');
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_PROFILES: 'a', REIKA_SUBAGENT_PROFILES: 'a,b' } }), { instanceOf: ConfigError, message: /REIKA_SUBAGENT_PROFILES names "b", which is not a profile/ });
  t.deepEqual(loadConfig({ cwd, home, env: { REIKA_PROFILES: 'A', REIKA_SUBAGENT_PROFILES: 'default, a' } }).subagent.profiles, ['default', 'a']);
});

test('a .gguf model with no server runs embedded: its path resolved, its settings in the endpoint', (t) => {
  const { cwd, home } = dirs();
  const config = loadConfig({ cwd, home, env: { REIKA_MODEL: './models/tiny.gguf', REIKA_CONTEXT_WINDOW: '4096', REIKA_THREADS: '3', REIKA_GPU: 'off' } });
  t.is(config.active.engine, 'embedded');
  t.is(config.active.model, join(cwd, 'models', 'tiny.gguf'));
  t.deepEqual(endpointOf(config.active, config), {
    baseUrl: 'http://localhost:8080/v1',
    model: join(cwd, 'models', 'tiny.gguf'),
    apiKey: undefined,
    requestTimeoutMs: 600_000,
    engine: 'embedded',
    embedded: { threads: 3, gpu: 'off', contextWindow: 4096 },
  });
  t.is(loadConfig({ cwd, home, env: { REIKA_MODEL: '~/m/x.GGUF' } }).active.model, join(home, 'm', 'x.GGUF'));
  // A server named, or the engine asked for by name, decides otherwise.
  t.is(loadConfig({ cwd, home, env: { REIKA_MODEL: 'x.gguf', REIKA_BASE_URL: 'http://localhost:9/v1' } }).active.engine, undefined);
  t.is(loadConfig({ cwd, home, env: { REIKA_MODEL: 'x.gguf', REIKA_ENGINE: 'http' } }).active.engine, undefined);
  t.is(loadConfig({ cwd, home, env: { REIKA_MODEL: 'weights.bin', REIKA_ENGINE: 'embedded' } }).active.engine, 'embedded');
  t.is(loadConfig({ cwd, home, env: { REIKA_MODEL: 'qwen2.5:7b' } }).active.engine, undefined);
  t.is(endpointOf(loadConfig({ cwd, home, env: { REIKA_MODEL: 'qwen2.5:7b' } }).active, config).engine, undefined);
});

test('embedded settings that cannot work are named in a clear error', (t) => {
  const { cwd, home } = dirs();
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_ENGINE: 'embedded' } }), { instanceOf: ConfigError, message: 'REIKA_ENGINE=embedded needs REIKA_MODEL=path/to/model.gguf' });
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_ENGINE: 'llamafile' } }), { instanceOf: ConfigError, message: 'REIKA_ENGINE must be embedded or http, not "llamafile"' });
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_MODEL: 'x.gguf', REIKA_GPU: 'rocm' } }), { instanceOf: ConfigError, message: 'REIKA_GPU must be auto, off, cuda, vulkan or metal, not "rocm"' });
});

test('the tools get their settings typed, from the project .env as from the environment', (t) => {
  const { cwd, home } = dirs();
  t.deepEqual(loadConfig({ cwd, home, env: {} }).tools, { sandbox: 'auto', checkpoints: true, checkpointWatch: true, bashTimeoutMs: 1_800_000, bashIdleMs: 300_000, passEnv: [], secrets: [] });
  writeFileSync(join(cwd, '.env'), 'REIKA_SANDBOX=OFF\nREIKA_CHECKPOINTS=no\nREIKA_CHECKPOINT_WATCH=0\nREIKA_BASH_TIMEOUT_MS=90s\nREIKA_BASH_IDLE_MS=0\n');
  t.deepEqual(loadConfig({ cwd, home, env: { REIKA_CHECKPOINTS: 'on' }, trusted: true }).tools, { sandbox: 'off', checkpoints: true, checkpointWatch: false, bashTimeoutMs: 90_000, bashIdleMs: 300_000, passEnv: [], secrets: [] });
});

test('engine, MCP and reasoning settings are typed values, with their defaults', (t) => {
  const { cwd, home } = dirs();
  const plain = loadConfig({ cwd, home, env: {} });
  t.deepEqual(plain.engine, { detect: true, templateCheck: true, reasoningHistory: 'auto' });
  t.deepEqual(plain.mcp, { trustProject: false, waitMs: 0 });
  const set = loadConfig({ cwd, home, env: { REIKA_DETECT_ENGINE: 'False', REIKA_TEMPLATE_CHECK: 'off', REIKA_ENGINE_WAIT_MS: '2s', REIKA_REASONING_HISTORY: ' KEEP ', REIKA_MCP_TRUST_PROJECT: '1', REIKA_MCP_WAIT_MS: '1500' } });
  t.deepEqual(set.engine, { detect: false, templateCheck: false, waitMs: 2_000, reasoningHistory: 'keep' });
  t.deepEqual(set.mcp, { trustProject: true, waitMs: 1_500 });
});

test('a malformed value is one line naming the setting and what it accepts', (t) => {
  const { cwd, home } = dirs();
  const message = (env: Record<string, string>) => t.throws(() => loadConfig({ cwd, home, env }), { instanceOf: ConfigError })!.message;
  t.is(message({ REIKA_CHECKPOINTS: 'maybe' }), 'REIKA_CHECKPOINTS must be on or off (or 1/0, true/false, yes/no), not "maybe"');
  t.is(message({ REIKA_SANDBOX: 'firejail' }), 'REIKA_SANDBOX must be auto, bwrap or off, not "firejail"');
  t.is(message({ REIKA_BASH_IDLE_MS: 'soon' }), 'REIKA_BASH_IDLE_MS must be a duration in milliseconds (or with a unit: 500ms, 30s, 5m, 1h), not "soon"');
  t.is(message({ REIKA_REASONING_HISTORY: 'sometimes' }), 'REIKA_REASONING_HISTORY must be auto, keep or drop, not "sometimes"');
  t.is(message({ REIKA_PROFILES: 'fast', REIKA_FAST_CONTEXT_WINDOW: 'lots' }), 'REIKA_FAST_CONTEXT_WINDOW must be a non-negative number, not "lots"');
  t.is(message({ REIKA_BOOTSTRAP_CACHE: 'sometimes' }), 'REIKA_BOOTSTRAP_CACHE must be on or off (or 1/0, true/false, yes/no), not "sometimes"', 'an environment-only switch is checked where it can be said');
  writeFileSync(join(cwd, '.env'), 'REIKA_MCP_WAIT_MS=later\n');
  t.is(message({}), 'REIKA_MCP_WAIT_MS must be a duration in milliseconds (or with a unit: 500ms, 30s, 5m, 1h), not "later"', 'a .env value is checked as the environment is');
});

test('every API key configured is a secret, whichever profile or role it is for', (t) => {
  const { cwd, home } = dirs();
  const config = loadConfig({ cwd, home, env: { REIKA_API_KEY: 'a', REIKA_PROFILES: 'x', REIKA_X_API_KEY: 'b', REIKA_SUBAGENT_API_KEY: 'c', REIKA_VISION_API_KEY: 'd', REIKA_UNLISTED_API_KEY: 'e' } });
  t.deepEqual([...config.secrets].sort(), ['a', 'b', 'c', 'd', 'e']);
});

test('the tools are handed the secret values of the configuration, for redaction', (t) => {
  const { cwd, home } = dirs();
  writeFileSync(join(cwd, '.env'), 'REIKA_API_KEY=sk-project-key-123\nREIKA_BASE_URL=https://me:hunter2-long@proxy.example/v1\n');
  const config = loadConfig({ cwd, home, env: { REIKA_MODEL: 'm' } });
  t.deepEqual([...config.tools.secrets].sort(), ['https://me:hunter2-long@proxy.example/v1', 'hunter2-long', 'sk-project-key-123']);
  t.true(config.secrets.includes('sk-project-key-123'));
});

test('the active profile is the one REIKA_PROFILE (or "profile") names, else none; the environment beats the files', (t) => {
  const { cwd, home } = dirs();
  // The case: profiles in the user's .env, a server set in the shell.
  writeFileSync(join(home, '.config', 'reika', '.env'), 'REIKA_PROFILES=local,cloud\nREIKA_LOCAL_BASE_URL=http://local:8080/v1\nREIKA_CLOUD_BASE_URL=https://cloud.example/v1\nREIKA_CLOUD_API_KEY=sk-cloud-key-1\n');
  const shell = loadConfig({ cwd, home, env: { REIKA_BASE_URL: 'http://shell:9000/v1' } });
  t.is(shell.active.name, 'default');
  t.is(shell.active.baseUrl, 'http://shell:9000/v1');
  const named = loadConfig({ cwd, home, env: { REIKA_PROFILE: 'Cloud' } });
  t.is(named.active.name, 'cloud');
  t.is(named.active.baseUrl, 'https://cloud.example/v1');
  t.is(endpointOf(named.active, named).keyVariable, 'REIKA_CLOUD_API_KEY', 'a refused key names the profile\'s variable');
  t.is(endpointOf(shell.active, shell).keyVariable, undefined);
  writeFileSync(join(home, '.config', 'reika', 'settings.json'), '{ "profile": "local" }');
  t.is(loadConfig({ cwd, home, env: {} }).active.name, 'local');
  t.throws(() => loadConfig({ cwd, home, env: { REIKA_PROFILE: 'gpu' } }), { instanceOf: ConfigError, message: 'REIKA_PROFILE names "gpu", which is not a profile (profiles: default, local, cloud; add one with REIKA_PROFILES or "profiles")' });
});
