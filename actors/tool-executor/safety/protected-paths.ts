import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { lstat, rm, rmdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { realPathOfNearest } from '../files/paths.js';
import { credentialMatcher } from './credential-paths.js';

// What runs later outside the sandbox (SPEC §16): a repository's hooks and config (also of
// submodules, nested repositories and worktrees, and the folder `core.hooksPath` names),
// `.gitmodules`, `.mcp.json`, `.reika/`, `.vscode/`, `.idea/`, shell start-up files and git's
// own user config, and reika's config and state folders. The write and edit tools ask first; a
// sandboxed command finds the existing ones read-only and the missing ones it could make blocked
// (an empty read-only folder mounted there); whatever still stands at a missing one after it is
// removed (the second layer, for a place no mount could cover).

/** Inside a git folder: its config and hooks, and those of its submodules and worktrees. */
const IN_GIT_DIR = /^(?:(?:modules\/.+|worktrees\/[^/]+)\/)?(?:config(?:\.worktree)?|hooks(?:\/.*)?)$/;
/** A project folder or file of that name anywhere in the project. */
const PROJECT_NAMES = new Set(['.gitmodules', '.mcp.json', '.reika', '.vscode', '.idea']);
/** Start-up files in the home folder: shells, and git's user config (aliases, hooksPath). */
export const HOME_STARTUP = [
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin',
  '.config/fish/config.fish', '.gitconfig', '.config/git/config',
] as const;

export interface ProtectedOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
}

/** Why writing `absolute` asks, or undefined: "writes .git/config, which git runs from outside the sandbox". */
export function protectedReason(root: string, absolute: string, options: ProtectedOptions = {}): string | undefined {
  const home = options.home ?? homedir();
  for (const path of new Set([resolve(absolute), realPathOfNearest(resolve(absolute))])) {
    const what = protectedKind(root, path, home, options);
    if (what) return `writes ${shown(root, path, home)}, ${what}`;
  }
  return undefined;
}

function protectedKind(root: string, path: string, home: string, options: ProtectedOptions): string | undefined {
  const parts = path.split(sep);
  const git = parts.lastIndexOf('.git');
  if (git !== -1 && IN_GIT_DIR.test(parts.slice(git + 1).join('/'))) return 'a repository\'s config or hooks: git runs what they name outside the sandbox';
  for (const gitDir of gitFoldersOf(root)) {
    const rel = relative(gitDir, path);
    if (!rel.startsWith('..') && !isAbsolute(rel) && IN_GIT_DIR.test(rel.split(sep).join('/'))) return 'a repository\'s config or hooks: git runs what they name outside the sandbox';
  }
  for (const hooks of hookFolders(root)) if (path === hooks || path.startsWith(hooks + sep)) return 'in the folder core.hooksPath names: git runs it outside the sandbox';
  const inProject = relative(realPathOfNearest(root), path);
  if (!inProject.startsWith('..') && !isAbsolute(inProject) && inProject.split(sep).some((part) => PROJECT_NAMES.has(part))) {
    return 'a project file editors, git or reika act on later (settings, tasks, MCP servers, submodules)';
  }
  if (HOME_STARTUP.some((name) => path === join(home, name))) return 'a start-up file: shells or git run what it says outside the sandbox';
  const credential = credentialMatcher({ home, env: options.env }).lexical(path);
  if (credential && credential.label.startsWith('reika')) return `${credential.label}: reika's settings and what it keeps`;
  return undefined;
}

function shown(root: string, path: string, home: string): string {
  const rel = relative(root, path);
  if (!rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

const gitFolderCache = new Map<string, string[]>();
const hookFolderCache = new Map<string, string[]>();

/** The repository's git folders (its own and the common one of a worktree), real paths. */
export function gitFoldersOf(root: string): string[] {
  let found = gitFolderCache.get(root);
  if (found) return found;
  try {
    const out = execFileSync('git', ['rev-parse', '--absolute-git-dir', '--git-common-dir'], { cwd: root, encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });
    found = [...new Set(out.split('\n').filter(Boolean).map((path) => realPathOfNearest(resolve(root, path))))];
  } catch {
    found = [];
  }
  gitFolderCache.set(root, found);
  return found;
}

/** The folder `core.hooksPath` names (and husky's folder above its `_`), real paths. */
function hookFolders(root: string): string[] {
  let found = hookFolderCache.get(root);
  if (found) return found;
  found = [];
  try {
    const value = execFileSync('git', ['config', '--get', 'core.hooksPath'], { cwd: root, encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (value) {
      const folder = realPathOfNearest(resolve(root, value.startsWith('~/') ? join(homedir(), value.slice(2)) : value));
      found.push(folder);
      if (basename(folder) === '_') found.push(dirname(folder));
    }
  } catch {
    // not set, or not a repository
  }
  hookFolderCache.set(root, found);
  return found;
}

/**
 * The protected paths a sandboxed command in `root` could write: those that exist (bound
 * read-only) and those that do not (removed after the command when it made them). Nested
 * repositories are looked for two folders deep.
 */
export function sandboxProtected(root: string): { existing: string[]; missing: string[] } {
  const candidates: string[] = [];
  const realRoot = realPathOfNearest(root);
  for (const name of PROJECT_NAMES) candidates.push(join(realRoot, name));
  const gitDirs = new Set(gitFoldersOf(root));
  for (const nested of nestedRepositories(realRoot)) gitDirs.add(nested);
  for (const gitDir of gitDirs) {
    candidates.push(join(gitDir, 'config'), join(gitDir, 'config.worktree'), join(gitDir, 'hooks'));
    for (const sub of subRepositories(gitDir)) candidates.push(join(sub, 'config'), join(sub, 'config.worktree'), join(sub, 'hooks'));
  }
  candidates.push(...hookFolders(root));
  const existing: string[] = [];
  const missing: string[] = [];
  for (const path of new Set(candidates)) {
    // A placeholder another running command mounted over is still missing: this one blocks it too.
    if (existsSync(path) && !held.has(path)) existing.push(path);
    // A missing worktree config means nothing unless git is told to read it, which the config (bound) says.
    else if (!path.endsWith('config.worktree') && !path.endsWith(`${sep}config`)) missing.push(path);
  }
  return { existing, missing };
}

/** `<git>/modules/**` and `<git>/worktrees/*`: the git folders of submodules and worktrees. */
function subRepositories(gitDir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string, depth: number) => {
    if (depth > 4) return;
    for (const name of safeList(folder)) {
      const path = join(folder, name);
      if (!isFolder(path)) continue;
      if (existsSync(join(path, 'HEAD'))) found.push(path);
      walk(join(path, 'modules'), depth + 1);
      if (depth === 0 && !existsSync(join(path, 'HEAD'))) walk(path, depth + 1);
    }
  };
  walk(join(gitDir, 'modules'), 0);
  for (const name of safeList(join(gitDir, 'worktrees'))) found.push(join(gitDir, 'worktrees', name));
  return found;
}

/** `.git` folders of repositories inside the project, up to two folders deep (node_modules skipped). */
function nestedRepositories(root: string): string[] {
  const found: string[] = [];
  const look = (folder: string, depth: number) => {
    for (const name of safeList(folder)) {
      if (name === 'node_modules' || name === '.git') continue;
      const path = join(folder, name);
      if (!isFolder(path)) continue;
      if (isFolder(join(path, '.git'))) found.push(join(path, '.git'));
      if (depth < 2) look(path, depth + 1);
    }
  };
  look(root, 1);
  return found;
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Of the missing protected paths, those a sandbox can keep from being made: bubblewrap mounts an
 * empty read-only folder there (`sandbox-policy.ts`), for which it makes an empty folder on disk — so only
 * where nothing at all stands (not even a dangling link), in a folder that exists inside one the
 * sandbox may write (`writable`, real paths) and not inside an existing protected one (`readOnly`,
 * bound read-only already: a missing hook under an existing `.git/hooks` is covered by it).
 */
export function blockable(missing: readonly string[], writable: readonly string[], readOnly: readonly string[]): string[] {
  const within = (path: string, folders: readonly string[]) => folders.some((folder) => path === folder || path.startsWith(folder + sep));
  const blocked: string[] = [];
  for (const path of missing) {
    if (lstatOrNot(path) !== undefined && !held.has(path)) continue;
    const parent = dirname(path);
    try {
      // The candidates are real paths already; a link on the way would move the placeholder.
      if (realpathSync(parent) !== parent || !statSync(parent).isDirectory()) continue;
      // Not one this user may write (a read-only checkout): nothing can be made there anyway, nor the placeholder.
      accessSync(parent, constants.W_OK);
    } catch {
      continue;
    }
    if (!within(parent, writable) || within(parent, readOnly)) continue;
    blocked.push(path);
  }
  return blocked;
}

/** Placeholders of blocked paths by path: how many running commands mounted over each. */
const held = new Map<string, number>();

/** Notes the placeholders a command's sandbox makes (call right after it is spawned). */
export function holdPlaceholders(blocked: readonly string[]): void {
  for (const path of blocked) held.set(path, (held.get(path) ?? 0) + 1);
}

/** True when `path` is (inside) a placeholder a running command holds: not a change of anyone's. */
export function isHeldPlaceholder(path: string): boolean {
  for (const placeholder of held.keys()) if (path === placeholder || path.startsWith(placeholder + sep)) return true;
  return false;
}

/**
 * After a sandboxed command: lets go of its placeholders, removes those no other running command
 * still holds (the empty folder bubblewrap made), then removes whatever else stands at a
 * missing protected path — the second layer, for those no mount covered. Returns what that
 * second step removed, as shown to the model.
 */
export async function releaseProtected(missing: readonly string[], blocked: readonly string[], root: string): Promise<string[]> {
  for (const path of blocked) {
    const count = (held.get(path) ?? 1) - 1;
    if (count > 0) held.set(path, count);
    else held.delete(path);
  }
  const sweep: string[] = [];
  for (const path of missing) {
    // Another running command has it blocked: that one tidies up when it ends.
    if (held.has(path)) continue;
    // The empty folder bubblewrap made (rmdir: one holding anything stays for the sweep).
    if (blocked.includes(path) && lstatOrNot(path)?.isDirectory()) await rmdir(path).catch(() => undefined);
    sweep.push(path);
  }
  return removeCreated(sweep, root);
}

function lstatOrNot(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Removes those of `missing` that exist now; returns them as shown to the model. */
export async function removeCreated(missing: string[], root: string): Promise<string[]> {
  const removed: string[] = [];
  for (const path of missing) {
    // lstat: a link the command made (even one that leads nowhere) goes too.
    if (!(await lstat(path).then(() => true, () => false))) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(shown(root, path, homedir()));
  }
  return removed;
}
