import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../../actors/config/load-config.js';
import { commandEnvironment, isSecretVariable, secretValues } from '../../../../actors/tool-executor/safety/secret-env.js';
import { sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';
import { tempDir } from '../../../helpers/temp.js';
import { call } from '../harness.js';

// The tokens people keep in their shell (the list), as fake values.
const planted: Record<string, string> = {
  OPENAI_API_KEY: 'sk-fake-openai-4f9a2c7e1b',
  GITHUB_TOKEN: 'ghp_fakeGithubToken0123456789',
  AWS_SECRET_ACCESS_KEY: 'fakeAwsSecret/0123456789abcdef',
  HF_TOKEN: 'hf_fakeHuggingFace987654',
  NPM_TOKEN: 'npm_fakeNpmToken55555555',
  DATABASE_URL: 'postgres://app:hunter2-fake-pw@db.example:5432/app',
  REIKA_API_KEY: 'reika-fake-api-key-31415926',
  MY_SERVICE_PAT: 'pat-fake-value-27182818',
  NETLIFY_AUTH_TOKEN_X: 'netlify-fake-77777777',
  reika_test_password: 'lowercase-fake-password',
};
const box = await sandboxState('auto');
const sandboxed = box.kind === 'bwrap' ? test : test.skip;

Object.assign(process.env, planted, { REIKA_SECRET_ENV_PLAIN: 'dropped-as-a-reika-key', PLAIN_SETTING_FOR_TEST: 'visible-value' });

test('names and values that mark a secret are recognised, in any case', (t) => {
  for (const name of ['OPENAI_API_KEY', 'github_token', 'AWS_SECRET_ACCESS_KEY', 'PGPASSWORD', 'GOOGLE_APPLICATION_CREDENTIALS', 'GH_PAT', 'NPM_AUTH', 'SSH_AUTH_SOCK', 'KEYRING']) {
    t.true(isSecretVariable(name, 'x'), name);
  }
  for (const name of ['PATH', 'HOME', 'PATTERN', 'LANG', 'EDITOR', 'AUTHOR', 'TERM']) t.false(isSecretVariable(name, 'plain'), name);
  t.true(isSecretVariable('DATABASE_URL', 'postgres://app:pw@db/app'));
  t.true(isSecretVariable('MIRRORS', 'https://a.example https://u:p@b.example/x'));
  t.false(isSecretVariable('DATABASE_URL', 'postgres://app@db/app'));
  t.false(isSecretVariable('HOMEPAGE', 'https://example.com:8080/path'));
});

test('the command environment drops secrets and every REIKA_ key, and passes the named ones', (t) => {
  const source = { PATH: '/bin', GITHUB_TOKEN: 'g', OPENAI_API_KEY: 'o', REIKA_MODEL: 'm', REIKA_PASS_ENV: 'GITHUB_TOKEN', DATABASE_URL: 'mysql://u:p@h/d' };
  const { env, dropped } = commandEnvironment(source, new Set(['GITHUB_TOKEN', 'REIKA_MODEL']));
  t.deepEqual(env, { PATH: '/bin', GITHUB_TOKEN: 'g' });
  t.deepEqual(dropped, ['DATABASE_URL', 'OPENAI_API_KEY', 'REIKA_MODEL', 'REIKA_PASS_ENV']);
});

test('secret values are the long enough values of secret variables, and a URL password alone too', (t) => {
  const values = secretValues({ DATABASE_URL: 'postgres://app:hunter2-long@db/app', SHORT_TOKEN: 'abc', PATH: '/usr/bin:/bin/long/enough' });
  t.deepEqual(values, ['postgres://app:hunter2-long@db/app', 'hunter2-long']);
});

test('REIKA_PASS_ENV is read from the environment or the user folder, never from the project', (t) => {
  const home = tempDir();
  const root = tempDir();
  writeFileSync(join(root, '.env'), 'REIKA_PASS_ENV=AWS_SECRET_ACCESS_KEY\n');
  const passedNames = (env: Record<string, string>) => loadConfig({ cwd: root, env, home }).tools.passEnv;
  t.deepEqual(passedNames({}), []);
  mkdirSync(join(home, '.config', 'reika'), { recursive: true });
  writeFileSync(join(home, '.config', 'reika', '.env'), 'REIKA_PASS_ENV=GITHUB_TOKEN, HF_TOKEN\n');
  t.deepEqual(passedNames({}), ['GITHUB_TOKEN', 'HF_TOKEN']);
  // A list is merged from every source (docs/settings.md), and REIKA_* never passes.
  t.deepEqual(passedNames({ REIKA_PASS_ENV: 'NPM_TOKEN,REIKA_API_KEY' }), ['NPM_TOKEN', 'GITHUB_TOKEN', 'HF_TOKEN']);
});

test.serial('a command sees none of the secret variables, however it asks', async (t) => {
  for (const command of ['env', 'printenv', 'cat /proc/self/environ | tr "\\0" "\\n"', `node -e 'console.log(JSON.stringify(process.env))'`, 'set']) {
    const result = await call(tempDir(), 'bash', { command });
    t.is(result.status, 'done', command);
    for (const [name, value] of Object.entries(planted)) {
      t.false(result.payload.includes(value), `${command} printed ${name}`);
    }
    t.false(result.payload.includes('REIKA_SECRET_ENV_PLAIN'), `${command} printed a REIKA_ key`);
    t.true(result.payload.includes('visible-value'), `${command} lost an ordinary variable`);
  }
});

test.serial('REIKA_PASS_ENV hands the named variables to commands', async (t) => {
  process.env.REIKA_PASS_ENV = 'GITHUB_TOKEN';
  t.teardown(() => delete process.env.REIKA_PASS_ENV);
  const result = await call(tempDir(), 'bash', { command: 'echo "[$GITHUB_TOKEN][$HF_TOKEN]"' });
  t.is(result.payload, `[${planted.GITHUB_TOKEN}][]\n`);
});

sandboxed('inside the sandbox /proc shows none of reika\'s processes, so their environment is out of reach', async (t) => {
  // A process of ours that holds a secret in its environment, as reika and its executor do.
  const value = 'proc-environ-fake-secret-8675309';
  const holder = spawn('sleep', ['60'], { env: { ...process.env, HOLDER_TOKEN: value }, stdio: 'ignore' });
  t.teardown(() => holder.kill('SIGKILL'));
  const result = await call(tempDir(), 'bash', { command: `cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c fake-secret; ls /proc | grep -c '^[0-9]'; test -e /proc/${holder.pid} && echo holder-visible || echo holder-hidden` });
  const [matches, processes, holderSeen] = result.payload.trim().split('\n');
  t.is(matches, '0');
  t.true(Number(processes) < 10, `the command saw ${processes} processes`);
  t.is(holderSeen, 'holder-hidden');
});
