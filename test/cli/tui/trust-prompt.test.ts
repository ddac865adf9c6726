import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { Tmux, tmuxMissing } from '../../helpers/tmux.js';
import { reikaBin } from '../../helpers/binary.js';

// The interactive start in a project whose settings would loosen safety (cli/begin-session.ts,
// cli/trust-prompt.ts), in a real terminal (tmux).

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

async function reika(t: ExecutionContext, root: string, home: string, url: string, waitFor: string): Promise<Tmux> {
  const term = await Tmux.start({
    command: [process.execPath, reikaBin],
    cwd: root,
    env: { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), TERM: 'xterm-256color', LANG: 'C.UTF-8', REIKA_BASE_URL: url, REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32000' },
    width: 100,
    height: 30,
  });
  t.teardown(() => term.kill());
  await term.waitFor(waitFor);
  return term;
}

maybe('a project whose .env would loosen safety is asked about once; a yes is remembered and the next start does not ask', async (t) => {
  const server = await startScriptedServer([], { models: ['scripted-model'] });
  t.teardown(() => server.close());
  const root = gitRepo({ 'a.txt': 'a\n', '.env': 'REIKA_SANDBOX=off\n' });
  const home = tempDir('reika-home-');
  const first = await reika(t, root, home, server.url, 'Trust this project? [y/N]');
  t.regex(first.screen(), /REIKA_SANDBOX/);
  first.type('y');
  first.keys('Enter');
  await first.waitFor('› type a message');
  t.notRegex(first.screen(), /ignored REIKA_SANDBOX/, 'trusted now: the setting applies');
  first.type('/exit');
  first.keys('Enter');
  t.is(await first.waitForExit(), 0);
  const second = await reika(t, root, home, server.url, '› type a message');
  t.notRegex(second.capture(), /Trust this project/);
  second.type('/exit');
  second.keys('Enter');
  t.is(await second.waitForExit(), 0);
});
