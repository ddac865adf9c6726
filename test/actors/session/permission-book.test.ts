import test from 'ava';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionBook, type SettingsLayerInput } from '../../../actors/session/permission-book.js';
import { PermissionRules } from '../../../actors/tool-executor/rules/permission-rules.js';
import { addRules, removeRule } from '../../../actors/config/settings-rules.js';
import { git, gitRepo, tempDir } from '../../helpers/temp.js';

// Settings layers as the configuration lists them, from real files.

function layers(root: string, home: string, trusted: boolean): SettingsLayerInput[] {
  const read = (path: string) => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>) : {});
  const files = { user: join(home, '.config/reika/settings.json'), project: join(root, '.reika/settings.json'), local: join(root, '.reika/settings.local.json') };
  return (['user', 'project', 'local'] as const).map((scope) => {
    const settings = read(files[scope]);
    return { scope, path: files[scope], trusted: scope === 'user' || trusted, ...(settings.permissions ? { permissions: settings.permissions } : {}), ...(settings.hooks ? { hooks: settings.hooks } : {}) };
  });
}

function write(path: string, settings: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(settings, null, 2));
}

const stopHook = { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] };

function fixture() {
  const home = tempDir('reika-home-');
  const root = gitRepo({ 'a.txt': 'a\n' });
  write(join(home, '.config/reika/settings.json'), { permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(git push --force:*)'] }, hooks: stopHook });
  write(join(root, '.reika/settings.json'), { permissions: { allow: ['Bash(curl:*)'], ask: ['Bash(git push:*)'], deny: ['Read(./secrets/**)'] }, hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 0' }] }] } });
  write(join(root, '.reika/settings.local.json'), { permissions: { allow: ['Bash(make:*)'] } });
  return { home, root };
}

test('rules from the user, project and local files merge: deny > ask > allow whatever file they are in', (t) => {
  const { home, root } = fixture();
  const book = new PermissionBook(layers(root, home, true));
  t.deepEqual(book.notes, []);
  t.deepEqual(book.inForce().map((r) => `${r.scope} ${r.effect} ${r.rule}`).sort(), [
    'local allow Bash(make:*)',
    'project allow Bash(curl:*)',
    'project ask Bash(git push:*)',
    'project deny Read(./secrets/**)',
    'user allow Bash(npm test:*)',
    'user deny Bash(git push --force:*)',
  ]);
  const rules = PermissionRules.compile(book.inForce(), root);
  t.is(rules.check({ tool: 'bash', command: 'git push --force' })?.effect, 'deny');
  t.like(rules.check({ tool: 'bash', command: 'git push' }), { effect: 'ask', source: { scope: 'project' } });
  t.like(rules.check({ tool: 'bash', command: 'make && npm test' }), { effect: 'allow' });
  t.is(book.hooks.length, 2);
});

test('an untrusted project’s allow rules and hooks have no effect, said in one line; its deny and ask rules do', (t) => {
  const { home, root } = fixture();
  const book = new PermissionBook(layers(root, home, false));
  t.deepEqual(book.notes, [
    `${join(root, '.reika/settings.json')}: the project is not trusted, so its 1 allow rule and 1 hook are ignored (its deny and ask rules apply); trust the project to use them`,
    `${join(root, '.reika/settings.local.json')}: the project is not trusted, so its 1 allow rule is ignored (its deny and ask rules apply); trust the project to use them`,
  ]);
  const rules = PermissionRules.compile(book.inForce(), root);
  t.is(rules.check({ tool: 'bash', command: 'curl https://x' }), undefined);
  t.is(rules.check({ tool: 'bash', command: 'make' }), undefined);
  t.is(rules.check({ tool: 'bash', command: 'git push' })?.effect, 'ask');
  t.is(rules.check({ tool: 'read', paths: [join(root, 'secrets/k')] })?.effect, 'deny');
  t.is(rules.check({ tool: 'bash', command: 'npm test' })?.effect, 'allow', 'the user’s rules need no trust');
  t.deepEqual(book.hooks.map((hook) => hook.event), ['Stop'], 'only the user’s hook');
  t.false(book.list().find((r) => r.rule === 'Bash(curl:*)')!.inForce);
});

test('"Always" writes the rule to the chosen file and it is in force at once; remove takes it out', (t) => {
  const { home, root } = fixture();
  const book = new PermissionBook(layers(root, home, false));
  // The project is not trusted: the rule is written, and the line says when later sessions use it.
  t.is(book.add('local', 'allow', ['Bash(git push:*)']), `allow Bash(git push:*) → ${join(root, '.reika/settings.local.json')}; this project is not trusted, so later sessions use it once you trust the project`);
  t.is(new PermissionBook(layers(root, home, true)).add('local', 'allow', ['Bash(git pull:*)']), `allow Bash(git pull:*) → ${join(root, '.reika/settings.local.json')}`);
  t.is(book.add('local', 'deny', ['Bash(git reset:*)']), `deny Bash(git reset:*) → ${join(root, '.reika/settings.local.json')}`, 'a deny rule needs no trust');
  t.deepEqual(JSON.parse(readFileSync(join(root, '.reika/settings.local.json'), 'utf8')).permissions.allow, ['Bash(make:*)', 'Bash(git push:*)', 'Bash(git pull:*)']);
  t.true(book.inForce().some((r) => r.rule === 'Bash(git push:*)' && r.effect === 'allow'), 'in force now, though the project is not trusted: the person asked for it');
  book.add('user', 'allow', ['Edit(src/**)']);
  const user = JSON.parse(readFileSync(join(home, '.config/reika/settings.json'), 'utf8'));
  t.deepEqual(user.permissions.allow, ['Bash(npm test:*)', 'Edit(src/**)']);
  t.deepEqual(user.hooks, stopHook, 'the other keys stay as they were');
  t.regex(book.remove('allow', 'Edit(src/**)'), /^removed allow Edit\(src\/\*\*\) in /);
  t.deepEqual(JSON.parse(readFileSync(join(home, '.config/reika/settings.json'), 'utf8')).permissions.allow, ['Bash(npm test:*)']);
  t.false(book.inForce().some((r) => r.rule === 'Edit(src/**)'));
  t.throws(() => book.remove('deny', 'Bash(nothing)'), { message: /no deny rule Bash\(nothing\)/ });
  t.throws(() => book.add('user', 'allow', ['Bash(oops']), { message: /does not close/ });
});

test('a settings.local.json reika creates is kept out of git; a broken file is not overwritten', (t) => {
  const root = gitRepo({ 'a.txt': 'a\n' });
  const local = join(root, '.reika/settings.local.json');
  t.deepEqual(addRules(local, 'allow', ['Bash(make:*)', 'Bash(make:*)']), ['Bash(make:*)']);
  t.regex(readFileSync(join(root, '.git/info/exclude'), 'utf8'), /^\/\.reika\/settings\.local\.json$/m);
  t.is(git(root, 'status', '--porcelain'), '', 'git does not see it');
  t.deepEqual(addRules(local, 'allow', ['Bash(make:*)']), [], 'already there');
  t.true(removeRule(local, 'allow', 'Bash(make:*)'));
  t.false(removeRule(local, 'allow', 'Bash(make:*)'));
  const broken = join(tempDir(), 'settings.json');
  writeFileSync(broken, '{"permissions": {');
  t.throws(() => addRules(broken, 'deny', ['Bash(rm:*)']), { message: /is not valid JSON .*nothing was written/ });
  t.is(readFileSync(broken, 'utf8'), '{"permissions": {');
});

test('a rule is written into a settings file with comments, which stay; an edit that changes nothing writes nothing', (t) => {
  const file = join(tempDir(), 'settings.json');
  writeFileSync(file, '{\n  // the team\'s own\n  "permissions": { "allow": ["Bash(npm test:*)"] }\n}\n');
  t.deepEqual(addRules(file, 'deny', ['Bash(rm:*)']), ['Bash(rm:*)']);
  const text = readFileSync(file, 'utf8');
  t.true(text.includes("// the team's own"));
  t.true(text.includes('"Bash(rm:*)"') && text.includes('"Bash(npm test:*)"'));
  t.deepEqual(addRules(file, 'deny', ['Bash(rm:*)']), []);
  t.is(readFileSync(file, 'utf8'), text);
  t.false(removeRule(join(tempDir(), 'none.json'), 'allow', 'Bash(make:*)'));
});
