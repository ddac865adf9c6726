import { execFile } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { mkdir, open, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { storeGit, type StorePaths } from './store-git.js';
import { holdLock } from '../../lock-file.js';

// A new store starts from what the project's own repository already knows, so the first snapshot
// of a big repository costs what a later one does: a copy of the user's index (its stat cache:
// unchanged tracked files are not read again) and the user's objects borrowed through
// `objects/info/alternates` (their blobs are not written again). Once the first snapshot exists,
// the borrowed objects are copied into the store's own pack and the loan ends, so nothing the
// user does to their repository later (gc, a deleted `.git`) can take a checkpoint's files away.
// The user's repository is only read.
//
// While the loan lasts, a git process that finds an object in the user's repository does not
// write it (`update-index`, `write-tree`): the object is the store's only once a ref or the index
// names it, and the adoption packs what they name. So the adoption and every other store operation
// that may write objects hold one lock across processes (actors/lock-file.ts): an adoption in one reika
// cannot end the loan between another's `write-tree` and the ref that keeps its tree.

export interface UserRepository {
  top: string;
  /** The repository's (or worktree's) own git folder: its HEAD. */
  gitDir: string;
  commonDir: string;
  index: string;
  exclude: string;
}

/** The project's repository, or undefined outside one. */
export function userRepository(root: string): Promise<UserRepository | undefined> {
  return new Promise((done) =>
    execFile(
      'git',
      ['rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', '--git-path', 'index', '--git-path', 'info/exclude'],
      { cwd: root, encoding: 'utf8', timeout: 10_000 },
      (error, stdout) => {
        const [top, gitDir, commonDir, index, exclude] = stdout.split('\n');
        done(error || !top || !gitDir || !commonDir || !index || !exclude ? undefined : { top, gitDir, commonDir, index, exclude });
      },
    ),
  );
}

/** Seeds a new, empty store from the user's repository; false when it cannot (then the first snapshot reads everything). */
export async function seedStore(root: string, paths: StorePaths, repository: UserRepository | undefined): Promise<boolean> {
  if (!repository || realOrSelf(repository.top) !== root || !existsSync(repository.index)) return false;
  const gitDir = dirname(repository.index);
  // A split or sparse index, or a merge in progress, is not a plain copy away from a snapshot.
  if (readdirSync(gitDir).some((name) => name.startsWith('sharedindex.')) || existsSync(join(repository.commonDir, 'info', 'sparse-checkout'))) return false;
  if ((await git(root, ['ls-files', '-u', '-z'])) !== '') return false;
  if (!(await conversionFree(root, repository))) return false;
  await copyIndex(repository.index, paths.index);
  await mkdir(join(paths.gitDir, 'objects', 'info'), { recursive: true, mode: 0o700 });
  await writeFile(join(paths.gitDir, 'objects', 'info', 'alternates'), `${join(repository.commonDir, 'objects')}\n`, { mode: 0o600 });
  return true;
}

/**
 * Copies the user's index with its timestamp, floored to the second. Git trusts an entry whose
 * stat data matches the file unless the entry is racy: modified no earlier than the index was
 * written (then a same-size edit within the same second, same ctime second, is invisible to the
 * stat check, and git compares the content). A copy stamped with the time of copying would make
 * those entries look settled: the first snapshot would hold the old bytes of a file edited just
 * after `git add`, and an undo would put them back. Stamped no later than the original, the copy
 * leaves every entry git would check by content racy here too (flooring can only add some). The
 * stamp is read from the same open file as the bytes, so an index replaced meanwhile cannot lend
 * the copy its later time.
 */
async function copyIndex(from: string, to: string): Promise<void> {
  const file = await open(from, 'r');
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    mtimeMs = (await file.stat()).mtimeMs;
    bytes = await file.readFile();
  } finally {
    await file.close();
  }
  await writeFile(to, bytes, { mode: 0o600 });
  const stamp = Math.floor(mtimeMs / 1000);
  await utimes(to, stamp, stamp);
}

/** Attributes or settings under which git stores other bytes than the file holds (eol, filters, ident). */
const CONVERTING = /(^|\s)(text(=\S+)?|eol=\S+|filter=\S+|ident|working-tree-encoding=\S+|crlf)(\s|$)/m;

/**
 * True when the user's index holds every file's exact bytes: no end-of-line conversion, clean
 * filter (LFS) or keyword expansion applies. Then the index's blobs are what a checkpoint must
 * hold; otherwise the first snapshot reads every file itself.
 */
async function conversionFree(root: string, repository: UserRepository): Promise<boolean> {
  const autocrlf = (await git(root, ['config', '--get', 'core.autocrlf'])) ?? '';
  if (/^(true|input)/i.test(autocrlf.trim())) return false;
  const files = ((await git(root, ['ls-files', '-z', '--', ':(glob)**/.gitattributes'])) ?? '').split('\0').filter(Boolean).map((path) => join(root, path));
  const global = (await git(root, ['config', '--path', '--get', 'core.attributesFile']))?.trim();
  files.push(join(repository.commonDir, 'info', 'attributes'), global || join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'attributes'));
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) if (!line.trimStart().startsWith('#') && CONVERTING.test(line.trim().split(/\s+/).slice(1).join(' '))) return false;
  }
  return true;
}

/** stdout of a git command in the user's repository (read-only), undefined on failure. */
function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((done) =>
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 10_000 }, (error, stdout) => done(error && (error as { code?: unknown }).code !== 1 ? undefined : stdout)),
  );
}

/** Told once per hold of the loan's lock that had to wait, with the pid holding it then. */
export interface LoanLockOptions {
  onWait?: (holder: number) => void;
}

/** No hold of the loan's lock lasts this long (the adoption's repack gives up after 10 min): an older lock is stale. */
const LOAN_STALE_MS = 15 * 60_000;

/** Copies every object the store uses into its own pack, then ends the loan (holding the loan's lock). */
export async function adoptBorrowedObjects(paths: StorePaths, options: LoanLockOptions = {}): Promise<void> {
  const alternates = alternatesFile(paths);
  if (!existsSync(alternates)) return;
  const lock = await holdLock(loanLock(paths), { ...options, staleAfterMs: LOAN_STALE_MS });
  try {
    if (!existsSync(alternates)) return;
    await storeGit(paths, ['repack', '-a', '-d', '-q'], { timeoutMs: 10 * 60_000 });
    await rm(alternates, { force: true });
  } finally {
    lock.release();
  }
}

/**
 * Runs a store operation that may write objects (or make the store) holding the loan's lock while
 * a loan may be on. `work` is told whether the loan had ended by then (another process may have
 * ended it: a reader started during it still looks in the user's objects).
 */
export async function whileLent<T>(paths: StorePaths, work: (ended: boolean) => Promise<T>, options: LoanLockOptions = {}): Promise<T> {
  if (!mayBorrow(paths)) return work(false);
  await mkdir(dirname(paths.gitDir), { recursive: true, mode: 0o700 });
  const lock = await holdLock(loanLock(paths), { ...options, staleAfterMs: LOAN_STALE_MS });
  try {
    return await work(existsSync(join(paths.gitDir, 'HEAD')) && !existsSync(alternatesFile(paths)));
  } finally {
    lock.release();
  }
}

/**
 * False once the store is made, borrows nothing and no process holds the lock: no loan can start
 * again. In this order: a store is made (HEAD, then the alternates file) only under the lock, so a
 * HEAD seen, then no lock, means the alternates file, if any, was written before the look at it.
 */
function mayBorrow(paths: StorePaths): boolean {
  return !existsSync(join(paths.gitDir, 'HEAD')) || existsSync(loanLock(paths)) || existsSync(alternatesFile(paths));
}

function alternatesFile(paths: StorePaths): string {
  return join(paths.gitDir, 'objects', 'info', 'alternates');
}

/** Beside the store's git folder. */
function loanLock(paths: StorePaths): string {
  return join(dirname(paths.gitDir), 'loan.lock');
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
