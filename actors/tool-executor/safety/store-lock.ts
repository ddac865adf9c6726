import { randomBytes } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';

/**
 * A lock file shared by every process that uses one checkpoint store (two reika sessions in one
 * project, `reika undo` in a second terminal). It is created with O_EXCL and holds the holder's pid
 * and a token of its own. A lock whose holder no longer runs, or older than {@link STALE_MS}, is
 * stale: the next process breaks it, one breaker at a time (through a second O_EXCL file, which
 * re-reads the lock before deleting it), so no live hold is ever taken for a stale one.
 */

/** No hold lasts this long (the adoption's repack gives up after 10 min): older, the lock is stale. */
export const STALE_MS = 15 * 60_000;
const POLL_MS = 50;
/** A breaker re-reads and deletes one small file, a holder writes its pid at once: either file still empty or there after this was left by a crash. */
const BREAK_STALE_MS = 60_000;

export interface HeldLock {
  /** Deletes the lock if it is still this hold's. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** Told once per hold that had to wait, with the pid holding the lock then. */
  onWait?: (holder: number) => void;
}

/** Waits until the lock at `path` is this process's (its folder must exist). */
export async function holdLock(path: string, options: LockOptions = {}): Promise<HeldLock> {
  const token = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  let told = false;
  for (;;) {
    if (await create(path, token)) return { release: () => release(path, token) };
    const seen = await readLock(path);
    if (!seen) continue;
    if (seen.stale) {
      await breakStale(path, seen.text);
      continue;
    }
    if (!told) options.onWait?.(seen.pid);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function create(path: string, text: string): Promise<boolean> {
  let file;
  try {
    file = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await file.writeFile(text);
  } finally {
    await file.close();
  }
  return true;
}

/** The lock as it is now; undefined when it is gone. An empty one is being written by its new holder. */
async function readLock(path: string): Promise<{ text: string; pid: number; stale: boolean } | undefined> {
  const [text, info] = await Promise.all([readFile(path, 'utf8').catch(() => undefined), stat(path).catch(() => undefined)]);
  if (text === undefined || !info) return undefined;
  const pid = Number(text.split(' ')[0]);
  const age = Date.now() - info.mtimeMs;
  // Empty: its holder is between making it and writing its pid (or died there).
  const gone = text === '' ? age > BREAK_STALE_MS : !(Number.isInteger(pid) && pid > 0 && running(pid));
  return { text, pid, stale: gone || age > STALE_MS };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes the lock if it still reads `seen`: only under the guard, so a fresh lock made since is never the one deleted. */
async function breakStale(path: string, seen: string): Promise<void> {
  const guard = `${path}.break`;
  if (!(await create(guard, `${process.pid}\n`))) {
    const info = await stat(guard).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > BREAK_STALE_MS) await rm(guard, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return;
  }
  try {
    if ((await readFile(path, 'utf8').catch(() => undefined)) === seen) await rm(path, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

async function release(path: string, token: string): Promise<void> {
  if ((await readFile(path, 'utf8').catch(() => undefined)) === token) await rm(path, { force: true });
}
