import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ask } from '../../../../actors/tool-executor/approvals.js';
import { commandDangers } from '../../../../actors/tool-executor/shell/danger.js';
import { blockable, holdPlaceholders, protectedReason, releaseProtected, sandboxProtected } from '../../../../actors/tool-executor/safety/protected-paths.js';
import { sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';
import { gitRepo, tempDir } from '../../../helpers/temp.js';
import { call } from '../harness.js';

// Real git, real bubblewrap. A planted hook, alias or fsmonitor leaves a mark in `marks` when it runs.
const box = await sandboxState(undefined);
const sandboxed = box.kind === 'bwrap' ? test : test.skip;
const marks = tempDir('reika-marks-');
const headless: Ask = async () => ({ decision: 'decline', note: 'declined: reika runs headless' });

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@e', ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A project with an executable "evil" script that would leave a mark named after how it ran. */
function project(): string {
  const root = gitRepo({ 'a.txt': 'a\n', 'evil.sh': `#!/bin/sh\ntouch ${marks}/"$(basename "$0")-$$"\n` });
  chmodSync(join(root, 'evil.sh'), 0o755);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'base');
  return root;
}

/** What the user does next, outside any sandbox; returns the marks it left. */
function userGitWork(root: string): string[] {
  const before = new Set(listMarks());
  writeFileSync(join(root, 'a.txt'), `a ${Date.now()}\n`);
  git(root, 'status');
  git(root, 'commit', '-qam', 'user commit');
  git(root, 'checkout', '-q', '-b', `user-${Date.now()}`);
  git(root, 'checkout', '-q', '-');
  return listMarks().filter((mark) => !before.has(mark));
}

function listMarks(): string[] {
  return execFileSync('ls', [marks], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

test('write and edit ask before they touch a protected path, and headless declines', async (t) => {
  const root = project();
  const config = readFileSync(join(root, '.git/config'), 'utf8');
  const tried: [string, Record<string, unknown>][] = [
    ['write', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch x\n' }],
    ['write', { path: '.vscode/tasks.json', content: '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' }],
    ['write', { path: '.idea/workspace.xml', content: '<x/>' }],
    ['write', { path: '.reika/settings.json', content: '{}' }],
    ['write', { path: '.mcp.json', content: '{"mcpServers":{}}' }],
    ['write', { path: '.gitmodules', content: '[submodule "x"]\n' }],
    ['write', { path: 'sub/.git/hooks/post-checkout', content: '#!/bin/sh\n' }],
    ['edit', { path: '.git/config', old_string: '[core]', new_string: '[core]\n\thooksPath = .githooks' }],
    ['write', { path: '~/.bashrc.d-not-this', content: 'x' }],
  ];
  for (const [tool, args] of tried) {
    const result = await call(root, tool, args, { ask: headless });
    t.is(result.status, 'declined', `${tool} ${args.path}`);
    if (args.path !== '~/.bashrc.d-not-this') t.regex(result.asked[0]!.reason, /writes .*(config or hooks|later|start-up)/, String(args.path));
  }
  t.is(readFileSync(join(root, '.git/config'), 'utf8'), config);
  t.false(existsSync(join(root, '.git/hooks/pre-commit')));
  t.false(existsSync(join(root, '.vscode')));
  t.regex(protectedReason(root, join(process.env.HOME ?? '/root', '.bashrc'))!, /a start-up file/);
  t.regex(protectedReason(root, join(process.env.HOME ?? '/root', '.gitconfig'))!, /a start-up file/);
  t.is(protectedReason(root, join(root, 'src/index.ts')), undefined);
  t.is(protectedReason(root, join(root, '.git/objects/ab/cdef')), undefined);
  t.deepEqual(userGitWork(root), []);
});

test('bash writes to protected paths that the parse sees ask first', (t) => {
  const root = project();
  for (const command of ['echo "[core] hooksPath=x" >> .git/config', 'cp evil.sh .git/hooks/pre-commit', 'mkdir -p .vscode && cp evil.sh .vscode/tasks.json', 'echo {} > .mcp.json', 'git config core.hooksPath .githooks', 'git config core.fsmonitor ./evil.sh']) {
    t.true(commandDangers(command, root).length > 0, command);
  }
});

sandboxed('planted hooks, aliases and tasks never run at the user\'s next git command, whatever the spelling', async (t) => {
  const root = project();
  // Spelled so the parse cannot see where they write: only the sandbox stands in the way.
  const plants = [
    `c=.git/con; printf '[core]\\n\\thooksPath = .githooks\\n' >> "\${c}fig"; mkdir -p .githooks; for h in pre-commit post-commit post-checkout; do cp evil.sh .githooks/$h; done`,
    `c=.git/con; printf '[core]\\n\\tfsmonitor = ./evil.sh\\n' >> "\${c}fig"`,
    `c=.git/con; printf '[alias]\\n\\tst = !./evil.sh\\n' >> "\${c}fig"`,
    `d=.git/ho; for h in pre-commit post-commit post-checkout reference-transaction; do cp evil.sh "\${d}oks/$h"; done`,
    `d=.vs; mkdir -p "\${d}code" && cp evil.sh "\${d}code/tasks.json"; echo made`,
    `f=.mcp; echo '{"mcpServers":{"x":{"command":"./evil.sh"}}}' > "$f.json"`,
  ];
  for (const command of plants) {
    t.deepEqual(commandDangers(command, root).filter((reason) => /\.git|protected|later|config or hooks/.test(reason)), [], command);
    const result = await call(root, 'bash', { command }, { ask: headless });
    t.not(result.status, 'declined', command);
  }
  t.false(readFileSync(join(root, '.git/config'), 'utf8').includes('hooksPath'));
  t.false(readFileSync(join(root, '.git/config'), 'utf8').includes('fsmonitor'));
  t.false(existsSync(join(root, '.git/hooks/pre-commit')));
  t.false(existsSync(join(root, '.vscode')), 'a created protected folder is removed after the command');
  t.false(existsSync(join(root, '.mcp.json')));
  t.deepEqual(userGitWork(root), []);
  // The alias was never defined.
  t.throws(() => git(root, 'st'));
  t.deepEqual(listMarks().filter((mark) => mark.startsWith('evil')), []);
});

sandboxed('inside the sandbox commit, branch and stash still work', async (t) => {
  const root = project();
  const result = await call(root, 'bash', { command: 'echo b > b.txt && git add b.txt && git -c user.name=u -c user.email=u@e commit -qm two && git checkout -q -b feature && echo c >> a.txt && git stash -q && git stash list | wc -l && git log --oneline | wc -l && git branch --show-current' }, { ask: headless });
  t.is(result.meta?.exitCode, 0, result.payload);
  t.is(result.payload, '1\n3\nfeature\n');
  t.is(git(root, 'stash', 'list').split('\n').filter(Boolean).length, 1);
});

sandboxed('the protected paths of submodules and nested repositories are read-only too', async (t) => {
  const root = project();
  const nested = join(root, 'packages', 'inner');
  mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q');
  const { existing, missing } = sandboxProtected(root);
  t.true(existing.includes(join(nested, '.git', 'config')));
  t.true(existing.includes(join(root, '.git', 'hooks')));
  t.true(missing.includes(join(root, '.vscode')));
  const result = await call(root, 'bash', { command: 'p=packages/inner/.git; echo "[alias] x = !sh" >> "$p/config" 2>&1; echo done' }, { ask: headless });
  t.regex(result.payload, /Read-only file system/);
  t.false(readFileSync(join(nested, '.git/config'), 'utf8').includes('alias'));
});

sandboxed('missing protected paths are blocked inside the sandbox: the command cannot make them, and nothing of them is left after', async (t) => {
  const root = project();
  rmSync(join(root, '.git/hooks'), { recursive: true, force: true });
  // Spelled so the parse cannot see where they write: only the sandbox stands in the way.
  const command = [
    'd=.vs; mkdir -p "${d}code" && cp evil.sh "${d}code/tasks.json"',
    'f=.mcp; echo \'{"mcpServers":{"x":{"command":"./evil.sh"}}}\' > "$f.json"',
    'g=.gitmod; printf \'[submodule "x"]\\n\' > "${g}ules"',
    'h=.git/ho; mkdir -p "${h}oks" && cp evil.sh "${h}oks/post-checkout"',
    'i=.id; mkdir -p "${i}ea/x"',
    'echo "vscode $(ls -A .vscode | wc -l)"',
    // What git sees is unchanged: an empty folder is nothing to it (an empty file would be committed).
    'echo n > new.txt && git add -A && git -c user.name=u -c user.email=u@e commit -qm inside && echo "committed: $(git show --name-only --format= HEAD | tr "\\n" " ")"',
  ].join('; ');
  const result = await call(root, 'bash', { command }, { ask: headless });
  t.is(result.meta?.exitCode, 0, result.payload);
  for (const path of ['.vscode/tasks.json', '.mcp.json', '.gitmodules', '.git/hooks/post-checkout', '.idea/x']) {
    // A blocked file is an empty read-only folder inside: writing it fails either way.
    t.regex(result.payload, new RegExp(`${path.replace(/[./]/g, '\\$&')}.*(Read-only file system|Is a directory)`), path);
  }
  t.regex(result.payload, /vscode 0/);
  t.regex(result.payload, /^committed: new\.txt $/m);
  t.notRegex(result.summary, /removed/, 'nothing was made, so nothing was removed');
  t.regex(result.summary, /protected, read-only in the sandbox: .*\.vscode/);
  t.notRegex(result.summary, /outside the project/, 'the refused writes were inside it');
  for (const path of ['.vscode', '.mcp.json', '.gitmodules', '.git/hooks', '.idea']) t.false(existsSync(join(root, path)), `no placeholder left: ${path}`);
  t.deepEqual(userGitWork(root), []);
});

sandboxed('where no mount can block a missing protected folder, what the command makes there is removed after it', async (t) => {
  const root = project();
  // The folder core.hooksPath names lies in a folder that does not exist: nothing to mount over.
  git(root, 'config', 'core.hooksPath', 'tools/hooks');
  const result = await call(root, 'bash', { command: 'd=tools/ho; mkdir -p "${d}oks" && cp evil.sh "${d}oks/post-commit" && echo planted' }, { ask: headless });
  t.regex(result.payload, /planted/);
  t.regex(result.summary, /removed tools\/hooks, which the command created/);
  t.false(existsSync(join(root, 'tools/hooks')));
  t.deepEqual(userGitWork(root), []);
});

test('a placeholder two running commands mounted over stays until the last one ends, and counts as missing meanwhile', async (t) => {
  const root = project();
  const vscode = join(root, '.vscode');
  const blocked = blockable(sandboxProtected(root).missing, [root], []);
  t.true(blocked.includes(vscode) && blocked.includes(join(root, '.mcp.json')));
  const mine = [vscode];
  // Two commands started; bubblewrap made the empty folder for the first.
  holdPlaceholders(mine);
  mkdirSync(vscode);
  t.true(sandboxProtected(root).missing.includes(vscode), 'still missing for a third command');
  t.deepEqual(blockable([vscode], [root], []), mine, 'which blocks it too');
  holdPlaceholders(mine);
  t.deepEqual(await releaseProtected([vscode], mine, root), []);
  t.true(existsSync(vscode), 'the other command still has it mounted');
  t.deepEqual(await releaseProtected([vscode], mine, root), []);
  t.false(existsSync(vscode), 'the last one removed the placeholder quietly');
  t.true(sandboxProtected(root).missing.includes(vscode));
  mkdirSync(join(root, '.reika'));
  // Not blocked: inside an existing protected folder (its read-only bind covers it), or where a parent is missing.
  t.deepEqual(blockable([join(root, '.reika/hooks'), join(root, 'no/such/hooks')], [root], [join(root, '.reika')]), []);
});
