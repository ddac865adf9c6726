import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A watchdog for the long-lived children tests start (a `reika` run, a server): past a generous
 * limit a child that has not ended is killed with everything under it (its process group and every
 * descendant, so the tool executor and detached bash groups too), and a note naming the test goes
 * to stderr. ava's own timeout does not do this: it fails the test, or ends the worker, and leaves
 * the child running — one hung run once held a whole `npm test` for 18 minutes. Children still
 * alive when the test process ends (ava's timeout sends it SIGTERM) are killed the same way.
 *
 * ```ts
 * const child = spawn(process.execPath, [reikaBin, '-p', 'go'], { detached: true });
 * const dog = watchChild(child, 'reika -p go');
 * child.on('close', () => dog.note ? reject(new Error(dog.note)) : resolve());
 * ```
 */

/** How long a child may run before the watchdog ends it: far beyond any healthy run, loaded. */
export const CHILD_LIMIT_MS = 180_000;

export interface Watch {
  /** Set once the watchdog fired: what it killed and why (also written to stderr). */
  readonly note: string | undefined;
  /** Stops watching (done by itself when the child exits). */
  disarm(): void;
}

/** What to do if the test process ends while it is still registered (see {@link atTestEnd}). */
const atEnd = new Set<(why: string) => void>();

/** The processes below `root` (children, grandchildren…, whatever group they are in), from /proc. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** SIGKILLs `pid`, its process group if it leads one, and every descendant; returns the pids hit. */
export function killTree(pid: number): number[] {
  const pids = [pid, ...descendants(pid)];
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // not a group leader, or the group is gone
  }
  for (const each of pids) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}

/**
 * Where in a test file the caller was called from, as `test/x/y.test.ts:LINE` (the TypeScript
 * source line, through the compiled file's source map), or undefined outside a test file.
 */
export function testSite(): string | undefined {
  const frames = (new Error().stack ?? '').split('\n');
  for (const frame of frames) {
    // Source-mapped already (ava runs tests with source maps on: a .ts path), or a compiled file's URL.
    const match = /((?:file:\/\/)?\/[^\s():]+\.test\.(js|ts)):(\d+):(\d+)/.exec(frame);
    if (!match) continue;
    const file = match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
    const line = Number(match[3]);
    if (match[2] === 'ts') return named(file, line);
    try {
      const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      const entry = map.findEntry(line - 1, Number(match[4]) - 1) as { originalSource?: string; originalLine?: number };
      if (entry.originalSource && entry.originalLine !== undefined) {
        const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : resolve(dirname(file), entry.originalSource);
        return named(source, entry.originalLine + 1);
      }
    } catch {
      // no map: the compiled place will do
    }
    return `${relative(process.cwd(), file)}:${line}`;
  }
  return undefined;
}

/** `file:line` and, when the source shows it, the title of the test the line is in: `file:line ('title')`. */
function named(file: string, line: number): string {
  const site = `${relative(process.cwd(), file)}:${line}`;
  try {
    const lines = readFileSync(file, 'utf8').split('\n').slice(0, line).reverse();
    for (const text of lines) {
      const title = /^\w+(?:\.\w+)*\((['"`])(.+?)\1\s*,/.exec(text);
      if (title) return `${site} ('${title[2]}')`;
    }
  } catch {
    // no source here
  }
  return site;
}

/**
 * Watches `child` (spawned by the caller, best `detached: true` so it leads a group): if it has not
 * exited within `limitMs`, kills its tree and writes a note naming `what` and the test's line.
 */
export function watchChild(child: ChildProcess, what: string, options: { limitMs?: number; site?: string } = {}): Watch {
  const limitMs = options.limitMs ?? CHILD_LIMIT_MS;
  const site = options.site ?? testSite() ?? 'a test';
  let note: string | undefined;
  const forget = atTestEnd((why) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const pids = killTree(child.pid);
    process.stderr.write(`\nwatchdog: ${why} while ${what} (${site}) still ran: killed it and all under it (pids ${pids.join(', ')})\n`);
  });
  const timer = setTimeout(() => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const pids = killTree(child.pid);
    note = `watchdog: ${what}, started by the test at ${site}, had not ended after ${Math.round(limitMs / 1000)} s: killed it and all under it (pids ${pids.join(', ')})`;
    process.stderr.write(`\n${note}\n`);
    // A process that escaped the tree (reparented) may still hold the pipes: 'close' must come anyway.
    const release = setTimeout(() => {
      for (const stream of child.stdio) stream?.destroy();
    }, 5_000);
    release.unref();
    child.once('close', () => clearTimeout(release));
  }, limitMs);
  timer.unref();
  const disarm = () => {
    clearTimeout(timer);
    forget();
  };
  child.once('exit', disarm);
  child.once('error', disarm);
  return {
    get note() {
      return note;
    },
    disarm,
  };
}

let installed = false;

/**
 * Registers `cleanup` to run if the test process ends first: at its exit, or on the SIGTERM ava's
 * timeout sends a worker (which would otherwise end it at once, leaving children and tmux servers
 * running). Returns the function that unregisters it.
 */
export function atTestEnd(cleanup: (why: string) => void): () => void {
  installCleanup();
  atEnd.add(cleanup);
  return () => atEnd.delete(cleanup);
}

function installCleanup(): void {
  if (installed) return;
  installed = true;
  const runAll = (why: string) => {
    for (const cleanup of atEnd) {
      try {
        cleanup(why);
      } catch {
        // the next one still runs
      }
    }
    atEnd.clear();
  };
  process.on('exit', () => runAll('the test process exited'));
  const onTerm = () => {
    runAll('the test process got SIGTERM (ava ends a worker so at its timeout)');
    process.removeListener('SIGTERM', onTerm);
    // Die as SIGTERM would have had it, unless a test of this file handles the signal itself.
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  };
  process.on('SIGTERM', onTerm);
}
