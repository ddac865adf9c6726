import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { holdLock, tryLock } from '../../actors/lock-file.js';
import { tempDir } from '../helpers/temp.js';
import { watchChild } from '../helpers/watchdog.js';

const lockModule = new URL('../../actors/lock-file.js', import.meta.url).href;

/** What a lock file holds: `<pid> <token>`. */
const held = (pid: number) => new RegExp(`^${pid} [0-9a-f]{16}\\n$`);

/** A process that takes the lock when told `go`, says whether it holds it, and lives until its stdin ends. */
function contender(path: string): { child: ChildProcess; lines: AsyncIterator<string> } {
  const script = `
    import { tryLock } from ${JSON.stringify(lockModule)};
    import { createInterface } from 'node:readline';
    const input = createInterface({ input: process.stdin });
    console.log('ready');
    input.once('line', () => {
      const lock = tryLock(${JSON.stringify(path)});
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
  t.regex(readFileSync(path, 'utf8'), held(pid));
  for (const answer of answers) if (answer !== 'held') t.is(answer, `refused ${pid}`);
  for (const { child } of contenders) child.stdin!.end();
});

test('a lock file exists only with its pid in it, and its release removes it', (t) => {
  const path = join(tempDir('reika-lock-'), 'session.lock');
  const lock = tryLock(path);
  t.true(lock.held);
  t.regex(readFileSync(path, 'utf8'), held(process.pid));
  t.like(tryLock(path), { held: false, pid: process.pid });
  if (lock.held) lock.release();
  t.false(existsSync(path));
});

test('a release leaves alone a lock another hold took over', (t) => {
  const dir = tempDir('reika-lock-');
  const path = join(dir, 'session.lock');
  const first = tryLock(path);
  t.true(first.held);
  // Its process was thought gone (a dead pid written over it) and another hold took it.
  writeFileSync(path, '999999999 0000000000000000\n');
  const second = tryLock(path);
  t.true(second.held);
  if (first.held) first.release();
  t.regex(readFileSync(path, 'utf8'), held(process.pid), 'the second hold keeps its lock');
  if (second.held) second.release();
  t.deepEqual(readdirSync(dir), [], 'nothing is left beside it');
});

test('a lock older than the longest hold is stale even while its process runs; without that limit it is not', (t) => {
  const path = join(tempDir('reika-lock-'), 'loan.lock');
  writeFileSync(path, `${process.ppid} 0123456789abcdef\n`);
  const old = new Date(Date.now() - 20 * 60_000);
  utimesSync(path, old, old);
  t.like(tryLock(path), { held: false, pid: process.ppid });
  const lock = tryLock(path, { staleAfterMs: 15 * 60_000 });
  t.true(lock.held);
  t.regex(readFileSync(path, 'utf8'), held(process.pid));
  if (lock.held) lock.release();
});

test('a lock held by a live process is waited for; one left by a process that has ended is broken', async (t) => {
  const dir = tempDir();
  const path = join(dir, 'loan.lock');
  const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
  watchChild(sleeper, 'sleep 600');
  const pid = sleeper.pid!;
  t.teardown(() => sleeper.kill('SIGKILL'));
  writeFileSync(path, `${pid} live\n`);
  let isHeld = false;
  let tell!: (pid: number) => void;
  const told = new Promise<number>((resolve) => (tell = resolve));
  const holding = holdLock(path, { onWait: tell }).then((lock) => ((isHeld = true), lock));
  t.is(await told, pid, 'it waits, told for whom');
  t.false(isHeld);
  const ended = new Promise((resolve) => sleeper.once('exit', resolve));
  sleeper.kill('SIGKILL');
  await ended;
  const lock = await holding;
  t.regex(readFileSync(path, 'utf8'), held(process.pid), 'the stale lock was broken and this process holds it');
  lock.release();
  t.false(existsSync(path));
});
