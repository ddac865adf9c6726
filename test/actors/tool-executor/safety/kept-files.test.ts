import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { MAX_KEPT_FILE_BYTES } from '../../../../actors/tool-executor/safety/kept-files.js';
import { gitRepo, tempDir } from '../../../helpers/temp.js';

/** A project with the ignored files people keep: env files, a local database, local config; and ones not kept. */
function project(): { root: string; kept: Record<string, Buffer> } {
  const root = gitRepo({ '.gitignore': '.env*\n*.sqlite\nconfig/local.json\nnode_modules/\nbig.bin\n*.log\n', 'src/a.ts': 'export const a = 1;\n', 'config/default.json': '{}\n' });
  const kept: Record<string, Buffer> = {
    '.env': Buffer.from('OPENAI_API_KEY=sk-fake-kept-1\nPORT=3000\n'),
    '.env.local': Buffer.from('DEBUG=1\n'),
    'data/dev.sqlite': Buffer.from([0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0, 1, 2, 3, 0xff, 0xfe]),
    'config/local.json': Buffer.from('{"token":"local"}\r\n'),
  };
  for (const [path, bytes] of Object.entries(kept)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  mkdirSync(join(root, 'node_modules/left-pad'), { recursive: true });
  writeFileSync(join(root, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
  writeFileSync(join(root, 'big.bin'), Buffer.alloc(MAX_KEPT_FILE_BYTES + 1, 7));
  return { root, kept };
}

function gitClean(root: string): void {
  execFileSync('git', ['-c', 'clean.requireForce=false', 'clean', '-dxq'], { cwd: root });
}

for (const watch of [false, true]) {
  test(`an undo after git clean -dx brings the small ignored files back byte for byte (watcher ${watch ? 'on' : 'off'})`, async (t) => {
    const { root, kept } = project();
    const store = CheckpointStore.for(root, { stateHome: join(tempDir(), 'reika'), watch });
    t.teardown(() => store.stopWatching());
    await store.snapshot('s', 'bash', 'npm test');
    if (watch) await store.watchSettled();
    // A second step after a change the watcher sees: the kept files follow it.
    const changedEnv = Buffer.from('OPENAI_API_KEY=sk-fake-kept-1\nPORT=4000\n');
    writeFileSync(join(root, '.env'), changedEnv);
    writeFileSync(join(root, '.env.test'), 'NEW=1\n');
    const second = await store.snapshot('s', 'bash', 'git -c clean.requireForce=false clean -dx');
    t.truthy(second.kept);
    gitClean(root);
    t.false(existsSync(join(root, '.env')));
    const undone = await store.undo('s', 1);
    t.deepEqual(readFileSync(join(root, '.env')), changedEnv);
    t.is(readFileSync(join(root, '.env.test'), 'utf8'), 'NEW=1\n');
    for (const path of ['.env.local', 'data/dev.sqlite', 'config/local.json']) t.deepEqual(readFileSync(join(root, path)), kept[path], path);
    t.true(undone.recreated.includes('.env') && undone.recreated.includes('data/dev.sqlite'), JSON.stringify(undone));
    // Not kept: what lies in an ignored folder, and what is over the cap.
    t.false(existsSync(join(root, 'node_modules')));
    t.false(existsSync(join(root, 'big.bin')));
  });
}

test('an ignored file changed by a step is put back as it was, and one made since is left alone', async (t) => {
  const { root } = project();
  const store = CheckpointStore.for(root, { stateHome: join(tempDir(), 'reika'), watch: false });
  const before = readFileSync(join(root, '.env'));
  await store.snapshot('s', 'edit', '.env');
  writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=changed\n');
  writeFileSync(join(root, 'run.log'), 'made by the step\n');
  const undone = await store.undo('s', 1);
  t.deepEqual(readFileSync(join(root, '.env')), before);
  t.true(undone.changed.includes('.env'));
  t.is(readFileSync(join(root, 'run.log'), 'utf8'), 'made by the step\n');
  // The store's own index does not take the ignored files in: git status there is unchanged.
  const again = await store.snapshot('s', 'bash', 'true');
  t.deepEqual(await store.changedSince(again), []);
});
