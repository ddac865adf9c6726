import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

// One lock-file mechanism for every resource two reika processes may share: a session's
// transcript (actors/transcript/), a checkpoint store's loan (actors/tool-executor/safety/).

/**
 * A lock file holds `<pid> <token>`: written whole under another name and linked into place (a
 * link fails when the lock exists), so it never exists empty or half written. It is stale when
 * its process no longer runs (a crash, a SIGKILL), or, for locks no hold outlasts, when it is
 * older than `staleAfterMs`. A stale lock is taken over by moving it aside first (a rename, which
 * only one process can do to it) and checking that what moved is the lock judged stale, so two
 * processes taking over one stale lock cannot both win.
 */
export interface LockFileOptions {
  /** No hold lasts longer: an older lock is stale even when its process still runs. Default: never. */
  staleAfterMs?: number;
}

/** A lock this process holds; `release` deletes it if it is still this hold's. */
export interface HeldLock {
  release(): void;
}

export type LockAttempt = ({ held: true } & HeldLock) | { held: false; pid: number };

/** Takes the lock at `path` if it is free or stale (its folder must exist); never waits. */
export function tryLock(path: string, options: LockFileOptions = {}): LockAttempt {
  for (let attempt = 0; attempt < 3; attempt++) {
    const made = create(path);
    if (made) return made;
    const seen = read(path);
    if (!seen) continue; // released meanwhile
    if (!isStale(seen, options)) return { held: false, pid: seen.pid ?? 0 };
    takeOver(path, seen.text);
  }
  return { held: false, pid: read(path)?.pid ?? 0 };
}

export interface HoldOptions extends LockFileOptions {
  /** Told once when the lock is held by another live process and this one starts waiting. */
  onWait?: (holder: number) => void;
}

const POLL_MS = 50;

/** Waits until the lock at `path` is this process's (its folder must exist). */
export async function holdLock(path: string, options: HoldOptions = {}): Promise<HeldLock> {
  let told = false;
  for (;;) {
    const attempt = tryLock(path, options);
    if (attempt.held) return attempt;
    if (!told) options.onWait?.(attempt.pid);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
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

interface SeenLock {
  text: string;
  /** Undefined when the file holds no pid (a lock left by an older reika that wrote it empty first). */
  pid?: number;
  mtimeMs: number;
}

function create(path: string): ({ held: true } & HeldLock) | undefined {
  const text = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  const staged = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.new`;
  writeFileSync(staged, text, { mode: 0o600 });
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
      // Only this hold's lock goes: one taken over after this process was thought gone stays.
      if (read(path)?.text === text) unlinkSafe(path);
    },
  };
}

function read(path: string): SeenLock | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const { mtimeMs } = statSync(path);
    const pid = Number.parseInt(text, 10);
    return { text, mtimeMs, ...(Number.isInteger(pid) && pid > 0 ? { pid } : {}) };
  } catch {
    return undefined;
  }
}

function isStale(seen: SeenLock, options: LockFileOptions): boolean {
  if (seen.pid === undefined || !isAlive(seen.pid)) return true;
  return options.staleAfterMs !== undefined && Date.now() - seen.mtimeMs > options.staleAfterMs;
}

/** Moves the stale lock aside and deletes it; puts it back if what moved is a newer lock. */
function takeOver(path: string, staleText: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: another process took it over, or its holder released it
  }
  let moved: string | undefined;
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    moved = undefined;
  }
  if (moved !== staleText) {
    // A newer lock was made between the look and the move: it goes back unless yet another is there.
    try {
      linkSync(aside, path);
    } catch {
      // A newer lock is in place already: its process holds it now.
    }
  }
  unlinkSafe(aside);
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
