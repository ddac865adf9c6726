import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ReikaError } from '../../../runtime/errors.js';

// Runs git against a checkpoint store: its own GIT_DIR and index, the project as the work tree.
// Nothing inherited can point git elsewhere (GIT_* variables are dropped), nothing runs on the
// user's behalf (no fsmonitor, hooks or system config), and paths are literal.

export interface StorePaths {
  gitDir: string;
  index: string;
  root: string;
}

/** git failed on the store; `stderr` is git's whole answer (not in the flattened record). */
export class StoreGitError extends ReikaError {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super('REIKA_ERR_CHECKPOINT_GIT', message);
  }

  /** True for a StoreGitError from any realm, or its flattened record (which has no `stderr`). */
  static override isInstance(value: unknown): value is StoreGitError {
    return ReikaError.isInstance(value) && value.code === 'REIKA_ERR_CHECKPOINT_GIT';
  }
}

const CONFIG = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.untrackedCache=true',
  // The untracked cache serves `status -uall` only when it is the configured mode (git 2.39+).
  '-c', 'status.showUntrackedFiles=all',
  '-c', 'core.quotepath=off',
  '-c', 'core.autocrlf=false',
  '-c', 'core.safecrlf=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.symlinks=true',
  '-c', 'core.preloadIndex=true',
  '-c', 'gc.autoDetach=false',
  '-c', 'advice.detachedHead=false',
  '-c', 'filter.lfs.clean=',
  '-c', 'filter.lfs.smudge=',
  '-c', 'filter.lfs.process=',
  '-c', 'filter.lfs.required=false',
];

function storeEnv(paths: StorePaths): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_DIR: paths.gitDir,
    GIT_WORK_TREE: paths.root,
    GIT_INDEX_FILE: paths.index,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'reika',
    GIT_AUTHOR_EMAIL: 'checkpoints@reika.invalid',
    GIT_COMMITTER_NAME: 'reika',
    GIT_COMMITTER_EMAIL: 'checkpoints@reika.invalid',
  };
}

export interface GitRun {
  input?: string;
  timeoutMs?: number;
  /** Extra environment (e.g. GIT_OPTIONAL_LOCKS=0 for a status that must not write the index). */
  env?: Record<string, string>;
  /** Exit codes besides 0 that are an answer, not a failure (check-ignore's 1: nothing ignored). */
  okExit?: number[];
}

/** stdout of `git args…` in the store; rejects with git's own message. Retries while another process holds the index lock. */
export async function storeGit(paths: StorePaths, args: string[], options: GitRun = {}): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(paths, args, options);
    } catch (error) {
      if (!StoreGitError.isInstance(error) || !/index\.lock|\.lock': File exists/.test(error.stderr) || attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function once(paths: StorePaths, args: string[], options: GitRun): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...CONFIG, ...args],
      { cwd: paths.root, env: { ...storeEnv(paths), ...options.env }, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: options.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        if (!error || (typeof error.code === 'number' && options.okExit?.includes(error.code))) return resolve(stdout);
        const line = stderr.trim().split('\n').filter((l) => !l.startsWith('warning:')).pop() ?? error.message;
        reject(new StoreGitError(error.killed ? `git ${args[0]} took too long` : `git ${args[0]}: ${line.replace(/^(fatal|error): /, '')}`, stderr));
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** A long-lived `git args…` in the store (e.g. `cat-file --batch`), its stdin and stdout piped; stderr is dropped. */
export function storeGitProcess(paths: StorePaths, args: string[]): ChildProcessByStdio<Writable, Readable, null> {
  return spawn('git', [...CONFIG, ...args], { cwd: paths.root, env: storeEnv(paths), stdio: ['pipe', 'pipe', 'ignore'] });
}
