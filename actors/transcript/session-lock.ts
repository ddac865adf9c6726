import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * The lock that keeps two reika processes from writing one transcript: `<id>.lock`, holding the
 * writer's pid, written whole under another name and linked into place (a link fails if the lock
 * exists), so it never exists without its pid. A lock whose process is gone (a crash, a
 * SIGKILL) is stale and taken over — moved aside atomically first, so two processes taking over
 * the same stale lock cannot both win. The loser hears who holds it.
 */

export type LockResult = { held: true; release(): void } | { held: false; pid: number };

export function acquireLock(path: string): LockResult {
  for (let attempt = 0; attempt < 3; attempt++) {
    const made = tryCreate(path);
    if (made) return made;
    const pid = readPid(path);
    if (pid !== undefined && (pid === process.pid || isAlive(pid))) return { held: false, pid };
    if (!takeStale(path, pid)) continue;
  }
  return { held: false, pid: readPid(path) ?? 0 };
}

function tryCreate(path: string): LockResult | undefined {
  // Created empty and then written (O_EXCL), a lock read in between looked stale (no pid) and was
  // taken over: two processes wrote one transcript.
  const staged = `${path}.${process.pid}.new`;
  writeFileSync(staged, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(staged, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  } finally {
    unlinkSafe(staged);
  }
  let released = false;
  return {
    held: true,
    release() {
      if (released) return;
      released = true;
      // Only our own lock goes (a takeover after we were thought dead must not be undone).
      if (readPid(path) === process.pid) unlinkSafe(path);
    },
  };
}

/** Moves a stale lock aside; puts it back if another process had replaced it meanwhile. */
function takeStale(path: string, stalePid: number | undefined): boolean {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // gone already: someone else took it over (or released it)
  }
  const moved = readPid(aside);
  if (moved === stalePid || moved === undefined || !isAlive(moved)) {
    unlinkSafe(aside);
    return true;
  }
  // A live lock was moved by mistake: it goes back unless yet another one is there now.
  try {
    linkSync(aside, path);
  } catch {
    // A newer lock is in place already: that process holds the session now.
  }
  unlinkSafe(aside);
  return false;
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True while process `pid` exists (EPERM: it exists but is someone else's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
