import test from 'ava';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { loadConfig } from '../../actors/config/load-config.js';
import { askProjectTrust, trustChanges } from '../../cli/trust-prompt.js';
import { gitRepo, tempDir } from '../helpers/temp.js';

const HOOKED = {
  permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(git push:*)'] },
  hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'npx prettier --write .' }] }] },
};

test('a project whose only loosening parts are an allow rule and a hook is asked about, each shown; its deny rule is not (it applies anyway)', async (t) => {
  const root = gitRepo({ '.reika/settings.json': JSON.stringify(HOOKED) });
  const settings = join(root, '.reika/settings.json');
  const config = loadConfig({ cwd: root, home: tempDir(), env: {}, trusted: false });
  t.deepEqual(trustChanges(config), [`  allow Bash(npm test:*)  from ${settings}`, `  hook PostToolUse (Edit|Write): npx prettier --write .  from ${settings}`]);
  t.deepEqual(trustChanges(loadConfig({ cwd: root, home: tempDir(), env: {}, trusted: true })), [], 'nothing to ask once trusted');
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  input.end('y\n');
  t.true(await askProjectTrust(config, input, output));
  t.regex(shown, /hook PostToolUse \(Edit\|Write\): npx prettier --write \./);
  t.regex(shown, /Trust this project\? \[y\/N\]/);
});

test('a project with nothing that loosens is not asked about', (t) => {
  const root = gitRepo({ '.reika/settings.json': JSON.stringify({ permissions: { deny: ['Bash(git push:*)'], ask: ['Edit(.github/**)'] }, maxTurns: 30 }) });
  t.deepEqual(trustChanges(loadConfig({ cwd: root, home: tempDir(), env: {}, trusted: false })), []);
});
