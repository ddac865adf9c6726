import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';

export interface TreeWatcherOptions {
  root: string;
  /** A private folder (the store's) the barrier files are written in. */
  barrierDir: string;
  /** Which of these project-relative folders git ignores (one process for all of them). */
  ignored(paths: string[]): Promise<Set<string>>;
  /** The folders of the files the store holds: watched even where git ignores them (force-added files). */
  heldDirs(): Promise<string[]>;
  /** More folders than this to watch: off. */
  maxDirs?: number;
  /** More changed paths than this since the last checkpoint: the watches are rebuilt (a full walk is as quick). */
  maxChanges?: number;
  /** How long a barrier may take before the set is not trusted. */
  barrierMs?: number;
  /** Told once when the watcher turns off for good, with why. */
  onOff?: (reason: string) => void;
}

/** The paths changed since the last drain, behind a barrier. */
export interface WatchedChanges {
  /** Project-relative paths that changed (files or folders; a folder stands for all it holds), sorted. */
  paths: string[];
  /** Which build of the watches saw them (a rebuild starts a new one). */
  generation: number;
}

export type WatcherState = { kind: 'starting' } | { kind: 'ready'; folders: number } | { kind: 'off'; reason: string };

const MAX_DIRS = 50_000;
const MAX_CHANGES = 1_000;
const BARRIER_MS = 5_000;
/** Rebuilds in one process before the watcher gives up (a tree that keeps overflowing). */
const MAX_REBUILDS = 20;
/** File systems where inotify does not see every change (other machines, FUSE daemons). */
const REMOTE_FS: Record<number, string> = {
  0x6969: 'NFS',
  0xff534d42: 'CIFS',
  0xfe534d42: 'SMB2',
  0x517b: 'SMB',
  0x65735546: 'FUSE',
  0x01021997: '9p',
  0x00c36400: 'Ceph',
  0x47504653: 'GPFS',
  0x0bd00bd0: 'Lustre',
};

// Thrown and caught in this file only (a newer generation started), so a plain Error, not a ReikaError.
class Stop extends Error {}

/** What the handlers gathered between two barriers. */
interface Seen {
  dirty: Set<string>;
  events: number;
  anomaly: string | undefined;
}

/**
 * What changed in a project since the last checkpoint, from inotify (fs.watch on every folder git
 * does not ignore, and on every folder of a held file), so a warm checkpoint asks git about those
 * paths only — or about nothing. The set is trusted only behind a barrier: a file is written in a
 * watched folder of the store and its event awaited; the watches of one thread share one inotify
 * descriptor, whose events arrive in order, so every change made before the barrier is in the set.
 *
 * Whatever could make the set incomplete — a burst big enough to overflow the kernel's queue, an
 * event without a name, a watch error, a changed `.gitignore` or `.git`, a barrier that does not
 * come back — ends this set of watches: the next checkpoints walk the whole tree while the watches
 * are built again. What cannot work here (no inotify, a network or FUSE file system, the watch limit,
 * too many folders) turns the watcher off for good, with one line saying why.
 */
export class TreeWatcher {
  private readonly options: Required<TreeWatcherOptions>;
  private watchers = new Map<string, FSWatcher>();
  private dirty = new Set<string>();
  private events = 0;
  /** Set when the set of watches may have missed something: the next drain rebuilds. */
  private anomaly: string | undefined;
  private barrier: { name: string; take: boolean; done: (seen: Seen) => void } | undefined;
  private barriers = 0;
  private generation = 0;
  private rebuilds = 0;
  private held = new Set<string>();
  /** Events since the last drain from which a queue overflow cannot be ruled out (libuv drops IN_Q_OVERFLOW unseen). */
  private overflowAt = 8_192;
  private state_: WatcherState = { kind: 'starting' };
  /** Why the watches were last built again (for tests and logs). */
  lastFault: string | undefined;
  private started: Promise<void>;

  constructor(options: TreeWatcherOptions) {
    this.options = { maxDirs: MAX_DIRS, maxChanges: MAX_CHANGES, barrierMs: BARRIER_MS, onOff: () => {}, ...options };
    this.started = this.build(this.generation);
  }

  get state(): WatcherState {
    return this.state_;
  }

  /** Resolves once the watches are built (or the watcher is off). */
  whenSettled(): Promise<void> {
    return this.started;
  }

  /**
   * The paths changed since the last drain (and the folders among them watched from now on), or
   * undefined when they cannot be trusted: the caller walks the whole tree.
   */
  async drain(): Promise<WatchedChanges | undefined> {
    if (this.state_.kind !== 'ready') return undefined;
    const generation = this.generation;
    const seen = await this.awaitBarrier();
    if (generation !== this.generation) return undefined;
    if (!seen || seen.anomaly || seen.events >= this.overflowAt || seen.dirty.size > this.options.maxChanges) {
      // Too many changes is no fault (a full walk is as quick), the others are.
      const fault = !seen ? 'a barrier event did not arrive in time' : seen.anomaly ?? (seen.events >= this.overflowAt ? `${seen.events} events at once (the kernel queue may have overflowed)` : undefined);
      this.rebuild(fault);
      return undefined;
    }
    const paths = [...seen.dirty].sort();
    try {
      // A changed entry may be a folder that is new, gone or replaced: its watches are made again.
      for (const path of paths) this.closeUnder(path);
      const outermost = paths.filter((path) => !hasAncestorIn(path, seen.dirty));
      const kinds = await Promise.all(outermost.map((path) => lstat(join(this.options.root, path)).then((info) => info.isDirectory(), () => false)));
      await this.watchTrees(outermost.filter((_, i) => kinds[i]), generation, true);
    } catch (error) {
      if (!(error instanceof Stop)) this.fail(error);
      return undefined;
    }
    if (generation !== this.generation || this.state_.kind !== 'ready') return undefined;
    this.state_ = { kind: 'ready', folders: this.watchers.size - 1 };
    return { paths, generation };
  }

  /**
   * The paths changed since the last drain, behind a barrier, without taking them (the next drain
   * still has them); undefined when they cannot be trusted. Nothing is watched anew.
   */
  async peek(): Promise<WatchedChanges | undefined> {
    if (this.state_.kind !== 'ready') return undefined;
    const generation = this.generation;
    const seen = await this.awaitBarrier(false);
    if (!seen || generation !== this.generation || seen.anomaly || seen.events >= this.overflowAt || seen.dirty.size > this.options.maxChanges) return undefined;
    return { paths: [...seen.dirty].sort(), generation };
  }

  /** Ends every watch. */
  close(): void {
    this.generation++;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.barrier = undefined;
  }

  /** Builds the watches of one generation: the barrier folder, then the tree, breadth first. */
  private async build(generation: number): Promise<void> {
    try {
      const unsupported = await unsupportedHere(this.options.root);
      if (unsupported) return this.off(unsupported);
      const queued = await procNumber('max_queued_events');
      // Half the queue: room for events that reach the descriptor but none of our handlers.
      if (queued > 0) this.overflowAt = Math.max(64, Math.floor(queued / 2));
      // Half the user's watches at most: editors and dev servers need theirs.
      const watches = await procNumber('max_user_watches');
      if (watches > 0 && watches / 2 < this.options.maxDirs) this.options.maxDirs = Math.floor(watches / 2);
      await mkdir(this.options.barrierDir, { recursive: true, mode: 0o700 });
      this.add('\0barrier', this.options.barrierDir);
      this.held = new Set(await this.options.heldDirs());
      if (generation !== this.generation) return;
      this.add('', this.options.root);
      await this.watchTrees([''], generation, false);
      if (generation !== this.generation) return;
      this.state_ = { kind: 'ready', folders: this.watchers.size - 1 };
    } catch (error) {
      if (error instanceof Stop) return;
      this.fail(error);
    }
  }

  /** Builds the watches again (ignore rules from outside the tree changed); until then nothing is trusted. */
  reset(): void {
    if (this.state_.kind !== 'off') this.rebuild(undefined);
  }

  private rebuild(reason: string | undefined): void {
    this.lastFault = reason ?? 'too many changes, or ignore rules from outside the tree';
    this.close();
    if (reason !== undefined && ++this.rebuilds > MAX_REBUILDS) return this.off(`the watches were rebuilt ${MAX_REBUILDS} times (last: ${reason})`);
    this.dirty = new Set();
    this.events = 0;
    this.anomaly = undefined;
    this.state_ = { kind: 'starting' };
    this.started = this.build(this.generation);
  }

  private fail(error: unknown): void {
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
      let limit = '?';
      try {
        limit = readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim();
      } catch {
        // Not Linux's procfs: the number is not known.
      }
      return this.off(`the inotify watch limit is reached (fs.inotify.max_user_watches = ${limit}, ${this.watchers.size} folders watched)`);
    }
    this.off(error instanceof Error ? error.message : String(error));
  }

  private off(reason: string): void {
    this.close();
    if (this.state_.kind === 'off') return;
    this.state_ = { kind: 'off', reason };
    this.options.onOff(reason);
  }

  /**
   * Watches `starts` (project-relative; '' is the root, already watched) and every folder below
   * them that git does not ignore or that holds held files, breadth first. Each folder is watched
   * before it is read, so an entry made meanwhile is either read or seen as an event.
   */
  private async watchTrees(starts: string[], generation: number, judgeStarts: boolean): Promise<void> {
    let level = starts;
    let judge = judgeStarts;
    while (level.length > 0) {
      if (judge) {
        const ignored = await this.ignoredOf(level);
        if (generation !== this.generation) throw new Stop();
        level = level.filter((dir) => !ignored.has(dir));
        for (const dir of level) this.add(dir, join(this.options.root, dir));
      }
      judge = true;
      const next: string[] = [];
      for (let i = 0; i < level.length; i++) {
        const dir = level[i]!;
        if (!this.watchers.has(dir)) continue;
        const entries = await readdir(join(this.options.root, dir), { withFileTypes: true }).catch(() => []);
        if (generation !== this.generation) throw new Stop();
        // A nested repository's files are not the project's (git lists it as one entry).
        if (dir !== '' && entries.some((entry) => entry.name === '.git')) {
          this.watchers.get(dir)?.close();
          this.watchers.delete(dir);
          continue;
        }
        for (const entry of entries) if (entry.isDirectory() && entry.name !== '.git') next.push(dir ? `${dir}/${entry.name}` : entry.name);
        if (i % 64 === 63) await turn();
      }
      level = next;
    }
  }

  /** The ones git ignores, except folders of held files (and names git's pathspecs would read as magic). */
  private async ignoredOf(dirs: string[]): Promise<Set<string>> {
    const ask = dirs.filter((dir) => dir !== '' && !this.held.has(dir) && !dir.startsWith(':'));
    return ask.length === 0 ? new Set() : this.options.ignored(ask);
  }

  private add(rel: string, full: string): void {
    if (this.watchers.has(rel)) return;
    if (this.watchers.size > this.options.maxDirs) throw new Error(`more than ${this.options.maxDirs.toLocaleString('en-US')} folders to watch (at most 50,000, and half of fs.inotify.max_user_watches)`);
    let watcher: FSWatcher;
    try {
      watcher = watch(full, { persistent: false }, (_event, name) => this.onEvent(rel, name));
    } catch (error) {
      // Gone already: the event in its parent makes it a changed path.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    watcher.on('error', (error) => {
      this.anomaly ??= `a watch failed (${(error as NodeJS.ErrnoException).code ?? error.message})`;
    });
    this.watchers.set(rel, watcher);
  }

  private onEvent(rel: string, name: string | Buffer | null): void {
    this.events++;
    if (name === null) {
      this.anomaly ??= 'an event without a name';
      return;
    }
    const entry = name.toString();
    // A name that is not UTF-8 cannot be given back to git as it is.
    if (entry.includes('\uFFFD')) this.anomaly ??= 'a file name that is not UTF-8';
    if (rel === '\0barrier') {
      if (this.barrier?.name === entry) {
        const { done, take } = this.barrier;
        this.barrier = undefined;
        if (!take) return done({ dirty: new Set(this.dirty), events: this.events, anomaly: this.anomaly });
        // The set handed over and a new one begun in the same callback: no event falls between.
        const seen = { dirty: this.dirty, events: this.events, anomaly: this.anomaly };
        this.dirty = new Set();
        this.events = 0;
        this.anomaly = undefined;
        done(seen);
      }
      return;
    }
    // Ignore rules or a repository changed: which folders to watch is not known any more.
    if (entry === '.gitignore' || entry === '.git') this.anomaly ??= `${rel ? `${rel}/` : ''}${entry} changed`;
    this.dirty.add(rel ? `${rel}/${entry}` : entry);
  }

  /** Writes a barrier file and waits for its event: then every earlier change has been seen. `take` hands the set over. */
  private async awaitBarrier(take = true): Promise<Seen | undefined> {
    const name = `b${++this.barriers}`;
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<Seen | undefined>((resolve) => {
      this.barrier = { name, take, done: resolve };
      timer = setTimeout(() => resolve(undefined), this.options.barrierMs);
    });
    try {
      await writeFile(join(this.options.barrierDir, name), '', { mode: 0o600 });
    } catch (error) {
      this.barrier = undefined;
      clearTimeout(timer);
      this.anomaly ??= `the barrier could not be written (${(error as NodeJS.ErrnoException).code ?? error})`;
      return undefined;
    }
    const result = await seen;
    clearTimeout(timer);
    if (this.barrier?.name === name) this.barrier = undefined;
    void rm(join(this.options.barrierDir, name), { force: true }).catch(() => {});
    return result;
  }

  /** Ends the watches of `path` and of every folder under it. */
  private closeUnder(path: string): void {
    const prefix = `${path}/`;
    for (const [rel, watcher] of this.watchers) {
      if (rel === path || rel.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(rel);
      }
    }
  }
}

async function procNumber(name: string): Promise<number> {
  return Number.parseInt(await readFile(`/proc/sys/fs/inotify/${name}`, 'utf8').catch(() => ''), 10) || 0;
}

/** True when a folder above `path` is in `paths` too. */
function hasAncestorIn(path: string, paths: Set<string>): boolean {
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) if (paths.has(path.slice(0, at))) return true;
  return false;
}

/** Why inotify cannot be trusted for this folder, or undefined. */
async function unsupportedHere(root: string): Promise<string | undefined> {
  if (process.platform !== 'linux') return `no inotify on ${process.platform}`;
  const info = await statfs(root).catch(() => undefined);
  const name = info ? REMOTE_FS[Number(info.type) >>> 0] : undefined;
  return name ? `the project is on ${name}, where changes made elsewhere are not reported` : undefined;
}
