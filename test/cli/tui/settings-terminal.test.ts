import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
import { tmuxMissing } from '../../helpers/tmux.js';
import { startReika } from './reika-term.js';

/**
 * Settings in a real terminal (tmux, the built binary, the scripted model; SPEC §17): `/config`
 * shows what is in effect and where each value came from.
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
