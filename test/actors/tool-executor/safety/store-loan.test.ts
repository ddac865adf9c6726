import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { reikaBin } from '../../../helpers/binary.js';
import { gitGates } from '../../../helpers/git-gates.js';
import { git, gitRepo, tempDir } from '../../../helpers/temp.js';
import { testSite, watchChild } from '../../../helpers/watchdog.js';

/** `reika undo` in a process of its own, its git gated as this process's is. */
function reikaUndo(root: string, stateHome: string): { pid: number; done: Promise<{ code: number; stdout: string; stderr: string }> } {
  const site = testSite();
  let pid = 0;
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [reikaBin, 'undo'], { cwd: root, env: { ...process.env, REIKA_SESSION_ID: '', XDG_STATE_HOME: stateHome } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: watch.note ? `${watch.note}\n${stderr}` : stderr }),
    );
    pid = child.pid!;
    const watch = watchChild(child, 'reika undo', { site });
  });
  return { pid, done };
}

test('an adoption asked for while reika undo, in another process, is between its update-index and the refs to its tree waits for it: the tree undo found among the user’s objects is not lost', async (t) => {
  const gates = await gitGates();
  t.teardown(() => gates.close());
  process.env.PATH = `${gates.bin}:${process.env.PATH}`;
  const stateHome = tempDir('reika-xdg-state-');
  const root = gitRepo({ 'notes.txt': 'notes\n', 'a.txt': 'a\n' });
  let waitedFor: (pid: number) => void;
  const waited = new Promise<number>((resolve) => (waitedFor = resolve));
  // Adopted when this test says (not 1 s after the first snapshot), told when it waits for another process.
  const store = CheckpointStore.for(root, { stateHome: join(stateHome, 'reika'), watch: false, adoptAfterMs: 3_600_000, onLockWait: (pid) => waitedFor(pid) });
  await store.snapshot('git-session', 'bash', 'rm -- notes.txt && git commit -qam wip');
  const alternates = join(store.dir, 'git/objects/info/alternates');
  t.true(existsSync(alternates), 'the store borrows the user’s objects');
  // The user's new commit holds the very tree undo's snapshot will have: undo's write-tree finds it
  // among the user's objects (the loan) and does not write it into the store.
  rmSync(join(root, 'notes.txt'));
  git(root, 'commit', '-qam', 'wip');

  gates.arm('write-tree');
  gates.arm('diff-tree');
  const undo = reikaUndo(root, stateHome);
  // Undo has staged the deletion (update-index) and is about to write its tree.
  const writeTree = await gates.reached('write-tree');
  gates.arm('repack', 'after');
  const adoption = store.ownObjects();
  // Unheld, the adoption packs what the store's refs and index name now, and stops before it ends the loan.
  const first = await Promise.race([gates.reached('repack').then(() => 'repacked' as const), waited.then(() => 'waited' as const)]);
  writeTree.go();
  // Undo's tree, commit and refs are written; it is about to compare trees.
  const diffTree = await gates.reached('diff-tree');
  if (first === 'repacked') {
    (await gates.reached('repack')).go();
    await adoption;
  }
  diffTree.go();
  const [undone] = await Promise.all([undo.done, first === 'waited' ? gates.reached('repack').then((gate) => (gate.go(), adoption)) : adoption]);

  t.is(undone.code, 0, undone.stderr);
  t.is(first, 'waited', 'the adoption waited for the operation of the other process');
  t.is(await waited, undo.pid, 'it was told the pid it waited for');
  t.regex(undone.stdout, /^undid 1 step: files are as they were before step 1 .*\n {2}back {6}notes\.txt {2}\(deleted since\)\n/);
  t.is(readFileSync(join(root, 'notes.txt'), 'utf8'), 'notes\n');
  t.false(existsSync(alternates), 'the loan is over');
  // Every object a ref or the index of the store names is its own.
  const fsck = execFileSync('git', ['--git-dir', join(store.dir, 'git'), 'fsck', '--connectivity-only', '--no-dangling'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  t.is(fsck, '');
  t.false(existsSync(join(store.dir, 'loan.lock')), 'no lock is left');
});
