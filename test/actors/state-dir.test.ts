import test from 'ava';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { projectKey, projectStateDir, stateFolder } from '../../actors/state-dir.js';

test('the state folder is $XDG_STATE_HOME/reika when it is absolute, else ~/.local/state/reika', (t) => {
  t.is(stateFolder({ XDG_STATE_HOME: '/var/state' }), '/var/state/reika');
  t.is(stateFolder({ XDG_STATE_HOME: 'relative/state' }), join(homedir(), '.local', 'state', 'reika'));
  t.is(stateFolder({}), join(homedir(), '.local', 'state', 'reika'));
});

test('each project root gets a folder of its own per kind of state, the same one every time', (t) => {
  const a = projectStateDir('bootstrap', '/work/a', '/state');
  t.is(a, projectStateDir('bootstrap', '/work/a', '/state'));
  t.not(a, projectStateDir('bootstrap', '/work/b', '/state'));
  t.is(a, join('/state', 'bootstrap', projectKey('/work/a')));
  t.regex(projectKey('/work/a'), /^[0-9a-f]{16}$/);
  t.not(projectStateDir('checkpoints', '/work/a', '/state'), a);
});
