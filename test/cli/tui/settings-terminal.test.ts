import test from 'ava';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { tmuxMissing } from '../../helpers/tmux.js';
import { startReika } from './reika-term.js';

/**
 * Settings in a real terminal (tmux, the built binary, the scripted model; SPEC §17): `/config`
 * shows what is in effect and where each value came from, and a project whose settings would
 * loosen safety is asked about once at start, its "yes" remembered.
 */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
const terminal = { width: 120, height: 35, noColor: true };

/** A temp HOME, with user settings when given. */
function userHome(settings?: unknown): string {
  const home = tempDir('reika-home-');
  mkdirSync(join(home, '.config', 'reika'), { recursive: true });
  if (settings !== undefined) writeFileSync(join(home, '.config', 'reika', 'settings.json'), JSON.stringify(settings, null, 2));
  return home;
}

maybe('/config shows each setting in effect and where it came from: a flag, the environment, the user and project files, the defaults', async (t) => {
  const home = userHome({ maxTurns: 50 });
  const { term, root } = await startReika(t, terminal, [], {
    env: { HOME: home },
    args: ['--approvals', 'off'],
    tree: { 'README.md': '# demo\n', '.reika/settings.json': JSON.stringify({ repoMapBudget: 4000 }) },
  });
  term.type('/config');
  term.keys('Enter');
  const shown = await term.waitFor(/notes:|reasoningHistory/);
  const line = (key: string) => shown.split('\n').find((l) => l.trimStart().startsWith(`${key} `)) ?? `(no ${key} line)`;
  t.regex(shown, new RegExp(`project: ${root.replace(/[.]/g, '\\.')} \\(not trusted`));
  t.regex(shown, /user +~\/\.config\/reika\/settings\.json/);
  t.regex(line('approvals'), /off\s+from --approvals$/);
  t.regex(line('maxTurns'), /50\s+from ~\/\.config\/reika\/settings\.json$/);
  t.regex(line('repoMapBudget'), /4000\s+from \S+\/\.reika\/settings\.json$/);
  t.regex(line('baseUrl'), /http:\/\/127\.0\.0\.1:\d+\/v1\s+from environment$/);
  t.regex(line('sandbox'), /auto\s+default$/);
});

maybe('an untrusted project with a loosening .env and an allow rule is asked about once at start; "yes" is remembered and the rule is then in force', async (t) => {
  const home = userHome();
  const root = gitRepo({ 'victim/file.txt': 'x\n', '.env': 'REIKA_CHECKPOINTS=off\n', '.reika/settings.json': JSON.stringify({ permissions: { allow: ['Bash(rm -rf victim)'] } }) });
  const question = 'Trust this project? [y/N]';

  // "no" (Enter alone): the session starts without the project's loosening parts, and says so.
  const first = await startReika(t, terminal, [], { root, env: { HOME: home }, ready: question });
  const asked = first.term.capture();
  t.regex(asked, /REIKA_CHECKPOINTS=off +from \S+\/\.env/);
  t.regex(asked, /allow Bash\(rm -rf victim\) +from \S+\/\.reika\/settings\.json/);
  first.term.keys('Enter');
  // The prompt is on screen under the question already: wait for what the answer prints.
  await first.term.waitFor(/ignored REIKA_CHECKPOINTS=off/);
  t.regex(first.term.capture(), /its 1 allow rule is ignored/);
  first.term.type('/exit');
  first.term.keys('Enter');
  await first.term.waitForExit();

  // Not remembered: asked again; "y" trusts it, and the allow rule lets the command run unasked.
  const second = await startReika(t, terminal, [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf victim' } }] }, { content: 'deleted it' }], { root, env: { HOME: home }, ready: question });
  second.term.type('y');
  second.term.keys('Enter');
  await second.term.waitFor('› ');
  t.notRegex(second.term.capture(), /ignored REIKA_CHECKPOINTS|allow rule is ignored/);
  second.term.type('delete the victim folder');
  second.term.keys('Enter');
  await second.term.waitFor('deleted it');
  t.notRegex(second.term.capture(), /needs approval/);
  t.false(existsSync(join(root, 'victim')));
  t.true(JSON.parse(readFileSync(join(home, '.local', 'state', 'reika', 'trusted-projects.json'), 'utf8'))[root] !== undefined);
  second.term.type('/exit');
  second.term.keys('Enter');
  await second.term.waitForExit();

  // Remembered: the next start asks nothing.
  const third = await startReika(t, terminal, [], { root, env: { HOME: home } });
  t.notRegex(third.term.capture(), /Trust this project/);
  t.notRegex(third.term.capture(), /ignored/);
});
