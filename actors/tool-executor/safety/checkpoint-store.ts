import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { appendFile, lstat, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { projectStateDir, stateFolder } from '../../state-dir.js';
import { encodeCommit, LooseObjects, objectId, OID, TREE_MODE } from './git-objects.js';
import { ignoreSourcesStamp } from './ignore-sources.js';
import { KeptFiles } from './kept-files.js';
import { makePrivate } from './private-files.js';
import { stageIndex, STATUS, TooManyFiles, type Staged } from './index-stage.js';
import { storeGit, type StorePaths } from './store-git.js';
import { adoptBorrowedObjects, seedStore, userRepository, whileLent, type UserRepository } from './store-seed.js';
import { changedPaths, scanChanges, writeTree, type PatchContext } from './tree-patch.js';
import { TreeReader } from './tree-reader.js';
import { TreeWatcher, type WatcherState } from './tree-watcher.js';
import { sameHead, userHead, type UserHead } from './user-head.js';

/** Files bigger than this are not held (and never touched by an undo). */
export const MAX_CHECKPOINT_FILE_BYTES = 16 * 1024 * 1024;
/** A first snapshot with more files than this gives up: checkpoints are off in this folder. */
export const MAX_CHECKPOINT_FILES = 250_000;
/** Sessions kept per project; older ones (and their snapshots) are dropped. */
const KEEP_SESSIONS = 30;

export { stateFolder };

/** One step's snapshot: the project as it was just before the step ran. */
export interface Checkpoint {
  /** Step number in its session, from 1. */
  n: number;
  session: string;
  /** ISO time of the snapshot. */
  at: string;
  tool: string;
  /** The command or the path the step was about. */
  label: string;
  commit: string;
  tree: string;
  /** Project-relative files over the size cap this snapshot does not hold. */
  skipped?: string[];
  /** The user's HEAD at the snapshot (in a repository): an undo says when it has moved since. */
  git?: UserHead;
  /** The tree of the small ignored files kept beside the snapshot (kept-files.ts), when there were any. */
  kept?: string;
}

type LogRecord = ({ type: 'step' } & Checkpoint) | { type: 'undo'; to: number; at: string; before: string };

/** What an undo did, project-relative paths, sorted. */
export interface Restored {
  /** The snapshot restored (taken before step `checkpoint.n`). */
  checkpoint: Checkpoint;
  steps: number;
  /** Files whose content was put back. */
  changed: string[];
  /** Files the steps deleted, back again. */
  recreated: string[];
  /** Files the steps created, gone again. */
  removed: string[];
  /** Files the snapshot holds that exist now but are not held (ignored or too big): not overwritten. */
  leftAlone: string[];
  /** Set when the user's HEAD is no longer where it was at the snapshot (a commit, a checkout): the undo leaves it there. */
  git?: { then: UserHead; now: UserHead | undefined };
  /** Steps undone along the way that had changed no file (`passOver`), oldest first; `steps` does not count them. */
  passedOver?: Checkpoint[];
}

export interface UndoOptions {
  /** Count only the steps that changed a held file: a step whose snapshot equals the state after it (a command that wrote nothing) is undone along with the next one that did, and named. */
  passOver?: boolean;
}

export interface SessionSummary {
  session: string;
  steps: number;
  /** ISO time of the last record. */
  at: string;
}

export interface StoreOptions {
  /** The state folder (default {@link stateFolder}). */
  stateHome?: string;
  maxFileBytes?: number;
  /** Watch the tree between snapshots so a warm one reads only what changed (default true). */
  watch?: boolean;
  /** More folders than this to watch turns the watcher off (default 50,000). */
  watchMaxDirs?: number;
  /** Keep small ignored files beside each step's snapshot (kept-files.ts; default true). */
  keepIgnored?: boolean;
  /** How long after its first snapshot a store that borrows objects adopts them (default 1 s). */
  adoptAfterMs?: number;
  /** Told when an operation waits for another process (or store) holding the store's loan lock, with its pid. */
  onLockWait?: (holder: number) => void;
}

/** Why a store walks the whole tree at every snapshot, kept for `reika doctor` (its folder, this name). */
export const WATCH_OFF_FILE = 'watch-off';

const stores = new Map<string, CheckpointStore>();

/**
 * Checkpoints (SPEC §12): before each edit, write and bash, the project's files — tracked and
 * untracked, not ignored — are snapshotted into a private git store under the state folder,
 * keyed by the project root: its own GIT_DIR and index, never the user's `.git`, index, refs,
 * hooks or stash, and it works in folders that are not repositories. Snapshots are incremental
 * (git's stat cache and untracked cache); files over a size cap are not held and say so. From the
 * second snapshot on, a watcher (tree-watcher.ts) tells which paths changed since the last one, and
 * the new tree is made from the last one and those paths alone, without the index (tree-patch.ts);
 * whenever the watcher cannot vouch for its set, the whole tree is walked (index-stage.ts).
 * Undoing N steps of a session restores the files of the snapshot taken before the N-th last
 * step: deleted files come back, created files go, changed ones get their content back.
 */
export class CheckpointStore {
  readonly root: string;
  /** The store's folder: `<state>/checkpoints/<hash of the root>`. */
  readonly dir: string;
  private readonly paths: StorePaths;
  private readonly maxFileBytes: number;
  private queue: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | undefined;
  private repository: Promise<UserRepository | undefined> | undefined;
  /** Objects are borrowed from the user's repository until the first snapshot is packed. */
  private borrowing = false;
  /** Set when this folder cannot be checkpointed (too many files): later snapshots fail at once. */
  private unusable: string | undefined;
  /** The last commit made, and its tree (HEAD points at it). */
  private head: { commit: string; tree: string } | undefined;
  private readonly watchWanted: boolean;
  private readonly stateHome: string;
  private readonly watchMaxDirs: number | undefined;
  private readonly adoptAfterMs: number;
  private readonly onLockWait: ((holder: number) => void) | undefined;
  /** How the last snapshot (or changedSince) found its changes: the watcher's paths, or a walk of the whole tree. */
  lastScan: 'watched' | 'full' | undefined;
  /** How it made its tree (or compared): from the last tree and the changed paths, or through the index. */
  lastWay: 'patched' | 'index' | undefined;
  /** Why the last watched snapshot went through the index after all (an error of the patched way), if it did. */
  lastDecline: string | undefined;
  /** The index holds the tree of `head` (false after a patched snapshot, an undo, a failure): else only a whole walk may use it. */
  private indexCurrent = false;
  private readonly objects: LooseObjects;
  private readonly reader: TreeReader;
  private watcher: TreeWatcher | undefined;
  private watchNoted: Promise<void> | undefined;
  /** The watcher generation whose barrier the last snapshot was taken behind: its changes since then are the next one's. */
  private baseline: number | undefined;
  /** Files the last snapshot did not hold for their size (carried to the next where nothing about them changed). */
  private lastSkipped: string[] = [];
  /** The ignore files and git config outside the tree, as of the last snapshot. */
  private ignoreStamp: string | undefined;

  /** The store for a project root (one instance per root and state folder in a process). */
  static for(root: string, options: StoreOptions = {}): CheckpointStore {
    const real = realOrSelf(root);
    const key = `${options.stateHome ?? stateFolder()}\0${real}`;
    let store = stores.get(key);
    if (!store) {
      store = new CheckpointStore(real, options);
      stores.set(key, store);
    }
    return store;
  }

  /** Small ignored files kept beside each step's snapshot. */
  private readonly kept: KeptFiles | undefined;
  private keptCommit: { tree: string; commit: string } | undefined;

  private constructor(root: string, options: StoreOptions) {
    this.root = root;
    this.dir = projectStateDir('checkpoints', root, options.stateHome ?? stateFolder());
    this.stateHome = realOrSelf(options.stateHome ?? stateFolder());
    this.paths = { gitDir: join(this.dir, 'git'), index: join(this.dir, 'index'), root };
    this.maxFileBytes = options.maxFileBytes ?? MAX_CHECKPOINT_FILE_BYTES;
    this.watchWanted = options.watch ?? true;
    this.watchMaxDirs = options.watchMaxDirs;
    this.adoptAfterMs = options.adoptAfterMs ?? 1_000;
    this.onLockWait = options.onLockWait;
    this.objects = new LooseObjects(join(this.paths.gitDir, 'objects'));
    this.reader = new TreeReader(this.paths);
    this.kept = options.keepIgnored === false ? undefined : new KeptFiles(root, this.paths, this.objects);
  }

  /** The watcher's state: undefined before the first snapshot (or with watching off). */
  watchState(): WatcherState | undefined {
    return this.watcher?.state;
  }

  /** Why the watcher last built its watches again, if it did. */
  watchFault(): string | undefined {
    return this.watcher?.lastFault;
  }

  /** Resolves once the watcher has built its watches (or turned off); at once when there is none. */
  async watchSettled(): Promise<WatcherState | undefined> {
    await this.watcher?.whenSettled();
    await this.watchNoted;
    return this.watcher?.state;
  }

  /** Ends the watches (tests, and a store no longer used). */
  stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.baseline = undefined;
    this.reader.close();
  }

  /**
   * Snapshots the project before a step of `session`. If `abandon` fires before the snapshot is
   * taken, no step is recorded (the step ran without waiting for it) and this rejects.
   */
  snapshot(session: string, tool: string, label: string, abandon?: AbortSignal): Promise<Checkpoint> {
    return this.lent(async () => {
      if (this.unusable) throw new Error(this.unusable);
      const taken = await this.take(`${tool}: ${label}`.slice(0, 2_000));
      const kept = await this.kept?.update(taken.changed, (path) => this.holdsFile(taken.tree, path));
      if (abandon?.aborted) throw new Error('the step went ahead without this snapshot');
      const records = await this.records(session);
      const checkpoint: Checkpoint = { n: (active(records).at(-1)?.n ?? 0) + 1, session, at: new Date().toISOString(), tool, label: label.slice(0, 2_000), commit: taken.commit, tree: taken.tree };
      if (taken.skipped.length > 0) checkpoint.skipped = taken.skipped;
      if (kept) {
        checkpoint.kept = kept;
        // A commit of its own keeps the kept files' objects reachable (one per tree: unchanged, the last one).
        if (this.keptCommit?.tree !== kept) {
          this.keptCommit = { tree: kept, commit: this.objects.write('commit', encodeCommit(kept, 'kept ignored files', new Date())) };
          await this.objects.flush();
        }
      }
      const head = await this.userHead();
      if (head) checkpoint.git = head;
      if (records.length === 0) await this.pruneSessions(session);
      // One ref per step keeps every snapshot reachable (snapshot commits have no parents), and
      // one its kept files; written side by side (each a mkdir, a write and a rename: ~1 ms).
      await Promise.all([
        writeRef(this.paths.gitDir, `refs/reika/steps/${refName(session)}/${checkpoint.n}`, taken.commit),
        this.keptCommit && kept ? writeRef(this.paths.gitDir, `refs/reika/kept/${refName(session)}/${checkpoint.n}`, this.keptCommit.commit) : undefined,
      ]);
      await this.append(session, { type: 'step', ...checkpoint });
      return checkpoint;
    });
  }

  /**
   * The files that differ now from the snapshot `checkpoint` (the last one taken): what the step
   * changed, absolute paths, sorted. Files too big to hold are not judged. The index is not written.
   */
  changedSince(checkpoint: Checkpoint): Promise<string[]> {
    return this.lent(async () => {
      const current = this.head?.commit === checkpoint.commit && (await readRef(this.paths.gitDir, 'HEAD')) === checkpoint.commit;
      // The watcher's paths when it vouches for them since this very snapshot, else the whole tree.
      const since = this.watcher && this.baseline !== undefined && current ? await this.watcher.peek() : undefined;
      const watched = since?.generation === this.baseline ? since : undefined;
      this.lastScan = watched ? 'watched' : 'full';
      let changed = watched ? await this.patchedChanges(checkpoint.tree, watched.paths) : undefined;
      if (changed) this.lastWay = 'patched';
      else if (current && this.indexCurrent) {
        // The index holds the snapshot: status says what differs from it (the index is not written).
        const run = { timeoutMs: 60_000, env: { GIT_OPTIONAL_LOCKS: '0' } };
        const status = !watched ? await storeGit(this.paths, STATUS, run) : await storeGit(this.paths, [...STATUS, '--', ...watched.paths], run);
        changed = [];
        for (const entry of status.split('\0')) {
          const path = entry.slice(3);
          if (entry.length < 4 || path.endsWith('/')) continue;
          if (entry[0] === '?' || 'MTD'.includes(entry[1]!)) changed.push(path);
        }
        this.lastWay = 'index';
      } else {
        // The index lags behind the snapshot: the whole tree goes into it, and the trees are compared.
        this.lastScan = 'full';
        this.lastWay = 'index';
        this.indexCurrent = false;
        const now = await stageIndex(this.paths, { maxFileBytes: this.maxFileBytes, maxFiles: MAX_CHECKPOINT_FILES });
        this.indexCurrent = now.tree === this.head?.tree;
        const diff = await storeGit(this.paths, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', checkpoint.tree, now.tree]);
        changed = [...diff.split('\0').filter(Boolean), ...now.skipped];
      }
      // Files too big to hold back then are not judged.
      const skipped = new Set(checkpoint.skipped);
      return [...new Set(changed)].filter((path) => !skipped.has(path)).map((path) => resolve(this.root, path)).sort();
    });
  }

  /** The steps of a session that can still be undone, oldest first. */
  async list(session: string): Promise<Checkpoint[]> {
    return active(await this.records(session));
  }

  /** Sessions with checkpoints in this project, the most recent first. */
  async sessions(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = (await readdir(join(this.dir, 'sessions'))).filter((name) => name.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const summaries = await Promise.all(
      names.map(async (name) => {
        const session = decodeURIComponent(name.slice(0, -'.jsonl'.length));
        const records = await this.records(session);
        return { session, steps: active(records).length, at: records.at(-1)?.at ?? '' };
      }),
    );
    return summaries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  }

  /** The session that changed this project last. */
  async lastSession(): Promise<string | undefined> {
    return (await this.sessions())[0]?.session;
  }

  /**
   * The steps of a session that can still be undone, oldest first, and the numbers of those that
   * changed no held file (their snapshot is the state after them: the next snapshot, or now).
   */
  listChanges(session: string): Promise<{ steps: Checkpoint[]; unchanged: Set<number> }> {
    return this.lent(async () => {
      const steps = active(await this.records(session));
      if (steps.length === 0) return { steps, unchanged: new Set<number>() };
      const now = await this.take('before listing the steps to undo');
      return { steps, unchanged: unchangedSteps(steps, now.tree) };
    });
  }

  /**
   * Restores the files of the snapshot taken before the `steps`-th last step of `session` (with
   * `passOver`, the `steps`-th last step that changed a file; the ones between are undone too and named).
   */
  undo(session: string, steps = 1, options: UndoOptions = {}): Promise<Restored> {
    return this.lent(async () => {
      const records = await this.records(session);
      const open = active(records);
      if (!Number.isInteger(steps) || steps < 1) throw new Error(`undo takes a number of steps from 1 (got ${steps})`);
      if (open.length === 0) throw new Error('there is nothing to undo: no checkpoints in this session');
      if (steps > open.length) throw new Error(`there ${open.length === 1 ? 'is 1 step' : `are ${open.length} steps`} to undo, not ${steps}`);
      let target = open[open.length - steps]!;
      const now = await this.take(`before undoing ${steps} step(s) to step ${target.n}`);
      let passedOver: Checkpoint[] | undefined;
      if (options.passOver) {
        const unchanged = unchangedSteps(open, now.tree);
        const changing = open.filter((step) => !unchanged.has(step.n));
        // When no step changed a file, there is nothing to pass over to: the last `steps` steps are undone as they are.
        if (changing.length > 0) {
          if (steps > changing.length) throw new Error(`there ${changing.length === 1 ? 'is 1 step' : `are ${changing.length} steps`} that changed files to undo, not ${steps} (${unchanged.size} more changed no file)`);
          target = changing[changing.length - steps]!;
          passedOver = open.filter((step) => step.n > target.n && unchanged.has(step.n));
        }
      }
      await writeRef(this.paths.gitDir, `refs/reika/undo/${refName(session)}/${Date.now()}`, now.commit);
      const diff = (await storeGit(this.paths, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', now.tree, target.tree])).split('\0');
      const result: Restored = { checkpoint: target, steps, changed: [], recreated: [], removed: [], leftAlone: [] };
      if (passedOver?.length) result.passedOver = passedOver;
      for (let i = 0; i + 1 < diff.length; i += 2) {
        const status = diff[i]!;
        const path = diff[i + 1]!;
        // A file too big to hold back then existed all the same: it stays.
        if (status === 'D') (target.skipped?.includes(path) ? result.leftAlone : result.removed).push(path);
        else if (status === 'A') {
          // A file here that the current snapshot does not hold is ignored or too big: leave it.
          // A folder here may be emptied by the removals (a file that became a folder).
          if ((await kindAt(this.root, path)) === 'file') result.leftAlone.push(path);
          else result.recreated.push(path);
        } else result.changed.push(path);
      }
      for (const path of result.removed) await removeFile(this.root, path);
      // A folder the removals did not empty holds files no snapshot holds: it stays, and the file is not put back.
      for (const path of result.recreated) if ((await kindAt(this.root, path)) === 'dir') result.leftAlone.push(path);
      result.recreated = result.recreated.filter((path) => !result.leftAlone.includes(path));
      if (result.removed.length > 0) await storeGit(this.paths, ['update-index', '--force-remove', '-z', '--stdin'], { input: result.removed.join('\0') });
      const restore = [...result.changed, ...result.recreated];
      if (restore.length > 0) await storeGit(this.paths, ['checkout', target.tree, '--pathspec-from-file=-', '--pathspec-file-nul'], { input: restore.join('\0') });
      if (target.kept) await this.restoreKept(target.kept, result);
      await this.append(session, { type: 'undo', to: target.n, at: new Date().toISOString(), before: now.commit });
      for (const list of [result.changed, result.recreated, result.removed, result.leftAlone]) list.sort();
      if (target.git) {
        const head = await this.userHead();
        if (!sameHead(head, target.git)) result.git = { then: target.git, now: head };
      }
      // The index now differs from HEAD where the undo wrote: the next snapshot walks everything.
      this.baseline = undefined;
      this.indexCurrent = false;
      return result;
    });
  }

  /** True when `tree` holds a file (not a folder) at the project-relative `path`. */
  private async holdsFile(tree: string, path: string): Promise<boolean> {
    let oid = tree;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const name = Buffer.from(parts[i]!).toString('latin1');
      const entry = (await this.reader.read(oid).catch(() => [])).find((e) => e.name === name);
      if (!entry) return false;
      if (i === parts.length - 1) return entry.mode !== TREE_MODE;
      if (entry.mode !== TREE_MODE) return false;
      oid = entry.oid;
    }
    return false;
  }

  /**
   * Puts back the kept ignored files of a snapshot that are gone or differ now, byte for byte
   * (through an index of their own: the store's index holds what git does not ignore). Ignored
   * files made since are left as they are.
   */
  private async restoreKept(tree: string, result: Restored): Promise<void> {
    const listing = (await storeGit(this.paths, ['ls-tree', '-r', '-z', '--full-tree', tree])).split('\0').filter(Boolean);
    const back: string[] = [];
    for (const line of listing) {
      const tab = line.indexOf('\t');
      const [, , oid] = line.slice(0, tab).split(' ');
      const path = line.slice(tab + 1);
      const kind = await kindAt(this.root, path);
      if (kind === 'dir') {
        result.leftAlone.push(path);
        continue;
      }
      if (kind === 'file') {
        const now = await readFile(join(this.root, path)).catch(() => undefined);
        if (now && objectId('blob', now) === oid) continue;
        result.changed.push(path);
      } else result.recreated.push(path);
      back.push(path);
    }
    if (back.length === 0) return;
    const index = join(this.dir, `kept-index-${process.pid}`);
    try {
      await storeGit(this.paths, ['checkout', tree, '--pathspec-from-file=-', '--pathspec-file-nul'], { input: back.join('\0'), env: { GIT_INDEX_FILE: index } });
    } finally {
      await rm(index, { force: true });
    }
  }

  /** Copies the objects borrowed from the user's repository into the store (done on its own after the first snapshot). */
  ownObjects(): Promise<void> {
    return this.serial(async () => {
      await adoptBorrowedObjects(this.paths, { onWait: this.onLockWait });
      // A reader started during the loan still looks in the user's objects.
      this.reader.close();
    });
  }

  /**
   * Runs an operation that may write objects in the queue, holding the loan's lock across
   * processes while the store may borrow (store-seed.ts): no adoption ends the loan meanwhile.
   */
  private lent<T>(work: () => Promise<T>): Promise<T> {
    return this.serial(() =>
      whileLent(
        this.paths,
        (ended) => {
          if (ended) this.reader.close();
          return work();
        },
        { onWait: this.onLockWait },
      ),
    );
  }

  /** Runs store operations one at a time (one index). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      // Private (SPEC §16): the store holds copies of `.env` files. 0700 folders and 0600 files
      // whatever the umask: git keeps them so (core.sharedRepository=0600), reika's own writes ask for it.
      if (!existsSync(join(this.paths.gitDir, 'HEAD'))) {
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
        await new Promise<void>((done, fail) =>
          execFile('git', ['init', '-q', '--bare', '--shared=0600', this.paths.gitDir], { env: { PATH: process.env.PATH, HOME: process.env.HOME } }, (error) => (error ? fail(error) : done())),
        );
        // Byte-for-byte: no end-of-line conversion, filters or keyword expansion, whatever the project's attributes say.
        await mkdir(join(this.paths.gitDir, 'info'), { recursive: true, mode: 0o700 });
        await writeFile(join(this.paths.gitDir, 'info', 'attributes'), '* -text -filter -ident -working-tree-encoding\n', { mode: 0o600 });
        await writeFile(join(this.dir, 'root'), `${this.root}\n`, { mode: 0o600 });
        await seedStore(this.root, this.paths, await this.userRepository());
      } else {
        await makePrivate(this.dir, this.paths.gitDir);
      }
      this.borrowing = existsSync(join(this.paths.gitDir, 'objects', 'info', 'alternates'));
      await mkdir(join(this.dir, 'sessions'), { recursive: true, mode: 0o700 });
    })();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** Snapshots the work tree: its tree, as a commit (HEAD). */
  private async take(message: string): Promise<{ tree: string; commit: string; skipped: string[]; changed?: string[] }> {
    await this.init();
    const changes = await this.watchedChanges(await this.syncExclude());
    const head = this.head;
    // `changes` is set only while HEAD is still the last snapshot: its tree plus the changed paths is the new one.
    let taken: Staged | undefined = changes && head ? await this.patched(head.tree, changes.paths) : undefined;
    const patched = taken !== undefined;
    // Only the changed paths through the index when it holds the last snapshot; otherwise the whole tree sets it right.
    const scoped = patched || (changes !== undefined && this.indexCurrent);
    if (!taken) {
      const headTree = head && (await readRef(this.paths.gitDir, 'HEAD')) === head.commit ? head.tree : undefined;
      this.indexCurrent = false;
      try {
        taken = await stageIndex(this.paths, { ...(scoped ? { changed: changes!.paths } : {}), ...(headTree ? { headTree } : {}), maxFileBytes: this.maxFileBytes, maxFiles: MAX_CHECKPOINT_FILES });
      } catch (error) {
        if (TooManyFiles.isInstance(error)) this.unusable = error.message;
        throw error;
      }
    }
    this.lastScan = scoped ? 'watched' : 'full';
    this.lastWay = patched ? 'patched' : 'index';
    const { tree } = taken;
    if (this.head?.tree !== tree) {
      // A patched snapshot leaves the index at the last one.
      if (patched) this.indexCurrent = false;
      const commit = this.objects.write('commit', encodeCommit(tree, message, new Date()));
      await this.objects.flush();
      // HEAD at the last snapshot keeps `status` from listing every held file as staged.
      await writeRef(this.paths.gitDir, 'HEAD', commit);
      this.head = { commit, tree };
    }
    if (!patched) this.indexCurrent = true;
    const skipped = [...taken.skipped];
    // Files too big to hold that nothing has touched since the last snapshot are still not held.
    if (scoped) {
      const within = (path: string) => changes!.paths.some((changed) => path === changed || path.startsWith(`${changed}/`));
      skipped.push(...this.lastSkipped.filter((path) => !within(path)));
    }
    this.lastSkipped = [...new Set(skipped)].sort();
    this.baseline = changes?.generation ?? this.pendingBaseline;
    if (this.watchWanted && !this.watcher) this.startWatching();
    if (this.borrowing) {
      this.borrowing = false;
      // Off the critical path, inside the queue and under the loan's lock: no snapshot, here or in another process, may borrow while the loan ends.
      setTimeout(() => void this.ownObjects().catch(() => {}), this.adoptAfterMs).unref();
    }
    return { tree, commit: this.head!.commit, skipped: this.lastSkipped, ...(scoped ? { changed: changes!.paths } : {}) };
  }

  /** The tree `base` with the changed paths as they are now, its objects written; undefined: go through the index. */
  private async patched(base: string, changed: string[]): Promise<Staged | undefined> {
    if (changed.length === 0) return { tree: base, skipped: [] };
    if (!OID.test(base)) return undefined;
    try {
      const scan = await scanChanges(this.patchContext(), base, changed);
      const tree = scan && (await writeTree(this.reader, this.objects, base, scan));
      if (tree) return { tree, skipped: scan.skipped };
      this.lastDecline = 'declined (submodules, names that are not UTF-8, or too many files)';
    } catch (error) {
      this.lastDecline = error instanceof Error ? error.message : String(error);
    }
    return undefined;
  }

  /** The project-relative files that differ under `changed` from tree `base`; undefined: ask the index. */
  private async patchedChanges(base: string, changed: string[]): Promise<string[] | undefined> {
    if (changed.length === 0) return [];
    if (!OID.test(base)) return undefined;
    try {
      const scan = await scanChanges(this.patchContext(), base, changed);
      if (scan) return changedPaths(scan);
      this.lastDecline = 'declined (submodules, names that are not UTF-8, or too many files)';
    } catch (error) {
      this.lastDecline = error instanceof Error ? error.message : String(error);
    }
    return undefined;
  }

  private patchContext(): PatchContext {
    // An index that does not exist: every file is untracked, so git lists what it does not ignore.
    const env = { GIT_INDEX_FILE: join(this.dir, 'no-index') };
    return {
      root: this.root,
      maxFileBytes: this.maxFileBytes,
      reader: this.reader,
      untracked: async (paths) => (await storeGit(this.paths, ['ls-files', '-z', '--others', '--exclude-standard', '--', ...paths], { env })).split('\0').filter(Boolean),
    };
  }

  /** Set by watchedChanges: the generation a full walk just now was taken behind. */
  private pendingBaseline: number | undefined;

  /**
   * The paths changed since the last snapshot, when the watcher can vouch for them: it is running,
   * the last snapshot was taken behind its barrier, nobody else moved HEAD and no ignore rule
   * changed. Undefined: walk the whole tree.
   */
  private async watchedChanges(excludeChanged: boolean): Promise<{ paths: string[]; generation: number } | undefined> {
    const previous = this.baseline;
    // Until this snapshot succeeds, none is a baseline (a failed one may have updated the index).
    this.baseline = undefined;
    this.pendingBaseline = undefined;
    if (!this.watcher) return undefined;
    const stamp = await ignoreSourcesStamp(this.paths);
    const rulesChanged = excludeChanged || (this.ignoreStamp !== undefined && stamp !== this.ignoreStamp);
    this.ignoreStamp = stamp;
    if (rulesChanged) {
      this.watcher.reset();
      return undefined;
    }
    const headMoved = this.head === undefined || (await readRef(this.paths.gitDir, 'HEAD')) !== this.head.commit;
    const drained = await this.watcher.drain();
    if (!drained) return undefined;
    this.pendingBaseline = drained.generation;
    return previous === drained.generation && !headMoved ? drained : undefined;
  }

  private startWatching(): void {
    const marker = join(this.dir, WATCH_OFF_FILE);
    this.watcher = new TreeWatcher({
      root: this.root,
      barrierDir: join(this.dir, 'watch'),
      ...(this.watchMaxDirs !== undefined ? { maxDirs: this.watchMaxDirs } : {}),
      heldDirs: async () => (await storeGit(this.paths, ['ls-tree', '-r', '-d', '-z', '--name-only', 'HEAD'])).split('\0').filter(Boolean),
      ignored: async (dirs) =>
        new Set((await storeGit(this.paths, ['check-ignore', '-z', '--stdin'], { input: `${dirs.join('\0')}\0`, env: { GIT_LITERAL_PATHSPECS: '0' }, okExit: [1] })).split('\0').filter(Boolean)),
      onOff: (reason) => void writeFile(marker, `${reason}\n`, { mode: 0o600 }).catch(() => {}),
    });
    // The note for reika doctor: why this watcher is off, or gone once one builds (an earlier note is stale).
    const watcher = this.watcher;
    this.watchNoted = watcher.whenSettled().then(async () => {
      const state = watcher.state;
      if (state.kind === 'off') await writeFile(marker, `${state.reason}\n`, { mode: 0o600 }).catch(() => {});
      else if (state.kind === 'ready') await rm(marker, { force: true }).catch(() => {});
    });
  }

  private userRepository(): Promise<UserRepository | undefined> {
    this.repository ??= userRepository(this.root);
    return this.repository;
  }

  /** The user's HEAD now, if the project is in a repository whose HEAD reads plainly. */
  private async userHead(): Promise<UserHead | undefined> {
    const repository = await this.userRepository();
    return repository && (await userHead(repository).catch(() => undefined));
  }

  /** The user repository's `info/exclude` applies here too (ignore rules match `git status`); true when it changed. */
  private async syncExclude(): Promise<boolean> {
    const path = (await this.userRepository())?.exclude;
    let wanted = path ? await readFile(path, 'utf8').catch(() => '') : '';
    // A project that holds the state folder (reika run in ~) must not snapshot the store itself.
    const state = relative(this.root, this.stateHome);
    if (state && !state.startsWith('..') && !isAbsolute(state)) wanted += `${wanted && !wanted.endsWith('\n') ? '\n' : ''}/${state.replace(/[\\*?[\]!# ]/g, '\\$&')}/\n`;
    const mine = join(this.paths.gitDir, 'info', 'exclude');
    if ((await readFile(mine, 'utf8').catch(() => '')) === wanted) return false;
    await writeFile(mine, wanted, { mode: 0o600 });
    return true;
  }

  private async records(session: string): Promise<LogRecord[]> {
    const text = await readFile(this.logPath(session), 'utf8').catch(() => '');
    const records: LogRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as LogRecord);
      } catch {
        // A torn last line (a crash mid-write) is skipped.
      }
    }
    return records;
  }

  private async append(session: string, record: LogRecord): Promise<void> {
    await appendFile(this.logPath(session), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  private logPath(session: string): string {
    return join(this.dir, 'sessions', `${encodeURIComponent(session)}.jsonl`);
  }

  /** Keeps the newest sessions; the others' logs and refs (refs/reika/{steps,undo}/<session>/…) go, their objects with a later gc. */
  private async pruneSessions(current: string): Promise<void> {
    const all = (await this.sessions()).filter((s) => s.session !== current);
    const old = all.slice(KEEP_SESSIONS - 1);
    if (old.length === 0) return;
    for (const { session } of old) await rm(this.logPath(session), { force: true });
    const refs = (await storeGit(this.paths, ['for-each-ref', '--format=%(refname)', 'refs/reika/'])).split('\n').filter(Boolean);
    const gone = new Set(old.map((s) => refName(s.session)));
    const deletions = refs.filter((ref) => gone.has(ref.split('/')[3] ?? '')).map((ref) => `delete ${ref}\n`);
    if (deletions.length > 0) await storeGit(this.paths, ['update-ref', '--stdin'], { input: deletions.join('') });
    await storeGit(this.paths, ['gc', '--auto', '--quiet']).catch(() => {});
  }
}

/** Steps not undone: an undo to step n drops steps n and after. */
/**
 * The steps (of `steps`, oldest first, all still open) that changed no held file: their snapshot's
 * tree is the next step's, or `now` for the last (ignored files kept beside a snapshot count too,
 * between two steps).
 */
function unchangedSteps(steps: Checkpoint[], now: string): Set<number> {
  const unchanged = new Set<number>();
  steps.forEach((step, i) => {
    const next = steps[i + 1];
    if (step.tree === (next?.tree ?? now) && (!next || step.kept === next.kept)) unchanged.add(step.n);
  });
  return unchanged;
}

function active(records: LogRecord[]): Checkpoint[] {
  let steps: Checkpoint[] = [];
  for (const record of records) {
    if (record.type === 'step') {
      const { type: _type, ...checkpoint } = record;
      steps.push(checkpoint);
    } else steps = steps.filter((step) => step.n < record.to);
  }
  return steps;
}

/** A session id as one ref name component. */
function refName(session: string): string {
  return session.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+|\.lock$/g, '_') || '_';
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Writes a ref as git does, without a process: the file replaced in one rename. The store's
 * operations are serialised in this process; a loose ref wins over a packed one.
 */
async function writeRef(gitDir: string, name: string, commit: string): Promise<void> {
  const path = join(gitDir, name);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = join(gitDir, `ref-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  await writeFile(temporary, `${commit}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

async function readRef(gitDir: string, name: string): Promise<string | undefined> {
  return (await readFile(join(gitDir, name), 'utf8').catch(() => undefined))?.trim();
}

/** What is at a project-relative path: a folder, something else, or nothing (also when a folder on the way is a link or a file). */
async function kindAt(root: string, path: string): Promise<'dir' | 'file' | undefined> {
  const names = path.split('/');
  for (let i = 1; i < names.length; i++) if (!(await lstat(join(root, ...names.slice(0, i))).catch(() => undefined))?.isDirectory()) return undefined;
  const info = await lstat(join(root, path)).catch(() => undefined);
  return info ? (info.isDirectory() ? 'dir' : 'file') : undefined;
}

/** Deletes a file and the folders it leaves empty, up to the root. */
async function removeFile(root: string, path: string): Promise<void> {
  const full = resolve(root, path);
  await rm(full, { force: true });
  for (let dir = dirname(full); dir.length > root.length && dir.startsWith(root); dir = dirname(dir)) {
    try {
      if (!(await stat(dir)).isDirectory()) break;
      await rmdir(dir);
    } catch {
      break;
    }
  }
}
