import test from 'ava';
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { privateFolder, projectStateDir } from '../../../../actors/state-dir.js';
import { gitRepo, tempDir } from '../../../helpers/temp.js';

// The umask people have: without care, folders come out 0755 and files 0644 (objects 0444).
process.umask(0o022);

function open(folder: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    if ((info.mode & 0o077) !== 0) found.push(`${(info.mode & 0o777).toString(8)} ${path}`);
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(folder);
  return found;
}

test('a checkpoint store holding an ignored .env copy is private: 0700 folders, no file readable by others', async (t) => {
  const stateHome = join(tempDir(), 'reika');
  const root = gitRepo({ 'a.txt': 'a\n' });
  writeFileSync(join(root, 'secret.txt'), 'untracked secret\n');
  const store = CheckpointStore.for(root, { stateHome, watch: false });
  await store.snapshot('s1', 'bash', 'one');
  writeFileSync(join(root, 'a.txt'), 'b\n');
  await store.snapshot('s1', 'bash', 'two');
  await store.undo('s1', 1);
  t.deepEqual(open(stateHome), []);
  t.is(statSync(stateHome).mode & 0o777, 0o700);
});

test('an existing store left open by an earlier reika is closed on first use', async (t) => {
  const stateHome = join(tempDir(), 'reika');
  const root = gitRepo({ 'a.txt': 'a\n' });
  const first = CheckpointStore.for(root, { stateHome, watch: false });
  await first.snapshot('s1', 'bash', 'one');
  first.stopWatching();
  // As stores were made before: world-readable folders and files.
  const store = projectStateDir('checkpoints', root, stateHome);
  const loosen = (path: string) => {
    const info = lstatSync(path);
    chmodSync(path, info.isDirectory() ? 0o755 : 0o644);
    if (info.isDirectory()) for (const name of readdirSync(path)) loosen(join(path, name));
  };
  loosen(stateHome);
  t.true(open(stateHome).length > 10);
  const again = CheckpointStore.for(root, { stateHome: `${stateHome}/`, watch: false });
  await again.snapshot('s2', 'bash', 'two');
  t.deepEqual(open(store), []);
});

test('the state folder is made private, or fixed, whatever the umask', (t) => {
  const made = join(tempDir(), 'state', 'reika');
  privateFolder(made);
  t.is(statSync(made).mode & 0o777, 0o700);
  const loose = join(tempDir(), 'reika');
  mkdirSync(loose, { mode: 0o755 });
  chmodSync(loose, 0o755);
  projectStateDir('sessions', '/some/project', loose);
  t.is(statSync(loose).mode & 0o777, 0o700);
});
