import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TreeReader } from '../../../../actors/tool-executor/safety/tree-reader.js';
import { gitRepo } from '../../../helpers/temp.js';

/** One long-lived `git cat-file --batch` reads a store's trees; these run against a plain repository. */

function repo(): { root: string; paths: { gitDir: string; index: string; root: string } } {
  const root = gitRepo({ 'a.txt': 'a\n', 'src/b.ts': 'b\n', 'src/deep/c.ts': 'c\n' });
  return { root, paths: { gitDir: join(root, '.git'), index: join(root, '.git', 'index'), root } };
}

const rev = (root: string, name: string) => execFileSync('git', ['rev-parse', name], { cwd: root, encoding: 'utf8' }).trim();

test('trees are read with their entries, several at once, in order', async (t) => {
  const { root, paths } = repo();
  const reader = new TreeReader(paths);
  t.teardown(() => reader.close());
  const [top, src] = await Promise.all([reader.read(rev(root, 'HEAD^{tree}')), reader.read(rev(root, 'HEAD:src'))]);
  t.deepEqual(top.map((e) => `${e.mode} ${e.name}`), ['100644 a.txt', '40000 src']);
  t.deepEqual(src.map((e) => `${e.mode} ${e.name} ${e.oid}`), [`100644 b.ts ${rev(root, 'HEAD:src/b.ts')}`, `40000 deep ${rev(root, 'HEAD:src/deep')}`]);
});

test('a missing object or one that is not a tree is refused, and the reader goes on', async (t) => {
  const { root, paths } = repo();
  const reader = new TreeReader(paths);
  t.teardown(() => reader.close());
  await t.throwsAsync(reader.read('0123456789012345678901234567890123456789'), { message: /does not hold 0123/ });
  await t.throwsAsync(reader.read(rev(root, 'HEAD:a.txt')), { message: /is a blob, not a tree/ });
  await t.throwsAsync(reader.read('HEAD'), { message: 'not an object id: HEAD' });
  t.is((await reader.read(rev(root, 'HEAD^{tree}'))).length, 2);
});

test('after close a read starts the process again', async (t) => {
  const { root, paths } = repo();
  const reader = new TreeReader(paths);
  await reader.read(rev(root, 'HEAD:src'));
  reader.close();
  t.is((await reader.read(rev(root, 'HEAD:src/deep'))).length, 1);
  reader.close();
});

test('an idle reader does not keep its process alive', async (t) => {
  const { root } = repo();
  const module = fileURLToPath(new URL('../../../../actors/tool-executor/safety/tree-reader.js', import.meta.url));
  const script = `const { TreeReader } = await import(${JSON.stringify(module)});
const root = ${JSON.stringify(root)};
const reader = new TreeReader({ gitDir: root + '/.git', index: root + '/.git/index', root });
console.log((await reader.read(${JSON.stringify(rev(root, 'HEAD^{tree}'))})).length);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
  t.is(stdout, '2\n', 'the script read the tree and ended without close()');
});
