import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { lstat, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { realPathOfNearest } from '../files/paths.js';
import { credentialMatcher } from './credential-paths.js';

/**
 * What runs later outside the sandbox (SPEC §16): a repository's hooks and config (also of
 * submodules, nested repositories and worktrees, and the folder `core.hooksPath` names),
 * `.gitmodules`, `.mcp.json`, `.reika/`, `.vscode/`, `.idea/`, shell start-up files and git's
 * own user config, and reika's config and state folders. The write and edit tools ask first; a
 * sandboxed command finds the existing ones read-only, and what it creates of the missing ones is
 * removed after it.
 */

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
    if (existsSync(path)) existing.push(path);
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
