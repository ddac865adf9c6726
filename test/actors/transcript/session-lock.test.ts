import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { acquireLock } from '../../../actors/transcript/session-lock.js';
import { tempDir } from '../../helpers/temp.js';

const lockModule = new URL('../../../actors/transcript/session-lock.js', import.meta.url).href;

/** A process that takes the lock when told `go`, says whether it holds it, and lives until its stdin ends. */
function contender(path: string): { child: ChildProcess; lines: AsyncIterator<string> } {
  const script = `
    import { acquireLock } from ${JSON.stringify(lockModule)};
    import { createInterface } from 'node:readline';
    const input = createInterface({ input: process.stdin });
    console.log('ready');
    input.once('line', () => {
      const lock = acquireLock(${JSON.stringify(path)});
      console.log(lock.held ? 'held' : 'refused ' + lock.pid);
    });
    input.once('close', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
}

test('processes taking one lock at the same moment: exactly one holds it, the others hear its pid', async (t) => {
  const path = join(tempDir('reika-lock-'), 'session.lock');
  const contenders = Array.from({ length: 6 }, () => contender(path));
  t.teardown(() => contenders.forEach(({ child }) => child.kill()));
  // All are started and waiting before any is told to go (a barrier, not a sleep).
  for (const { lines } of contenders) t.is((await lines.next()).value, 'ready');
  for (const { child } of contenders) child.stdin!.write('go\n');
  const answers = await Promise.all(contenders.map(async ({ lines }) => (await lines.next()).value as string));
  const holders = contenders.filter((_, i) => answers[i] === 'held');
  t.is(holders.length, 1, answers.join(', '));
  const pid = holders[0]!.child.pid!;
  t.is(readFileSync(path, 'utf8'), `${pid}\n`);
  for (const answer of answers) if (answer !== 'held') t.is(answer, `refused ${pid}`);
  for (const { child } of contenders) child.stdin!.end();
});

test('a lock file exists only with its pid in it, and its release removes it', (t) => {
  const path = join(tempDir('reika-lock-'), 'session.lock');
  const lock = acquireLock(path);
  t.true(lock.held);
  t.is(readFileSync(path, 'utf8'), `${process.pid}\n`);
  t.like(acquireLock(path), { held: false, pid: process.pid });
  if (lock.held) lock.release();
  t.throws(() => readFileSync(path));
});
