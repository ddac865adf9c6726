import { execFileSync } from 'node:child_process';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import type { SandboxState } from './sandbox.js';
import { credentialPaths } from './credential-paths.js';

// The sandbox policy for one `bash` command (SPEC §12): the project, the system temp folder,
// the repository's git folders and package-manager caches writable, everything else read-only;
// a fresh `/dev` and `/proc`; no network unless the user approved the command. The command
// stays in the process group it was spawned in (bubblewrap gets no `--new-session`), so abort
// and timeouts still kill the whole tree, and `--die-with-parent` takes it down with the executor.

export interface SandboxRequest {
  /** The shell command line. */
  command: string;
  /** Absolute project root (the command's working folder). */
  root: string;
  /** The user approved this command: it may use the network. */
  network: boolean;
  /** The user approved this command: credential paths are not masked (SPEC §16). Default: masked. */
  showCredentials?: boolean;
  /** Bound read-only over the writable folders (protected paths, SPEC §16): existing paths. */
  readOnly?: string[];
  /**
   * Missing protected paths kept from being made (SPEC §16): an empty read-only folder mounted
   * there (also for a file such as `.mcp.json`: writing it fails, and git ignores an empty folder
   * where it would list, and `git add -A` commit, an empty file, or refuse a device). Each must lie
   * in an existing folder the sandbox may write: bubblewrap makes an empty folder on disk to mount
   * over, which the caller removes after the command.
   */
  blocked?: string[];
  /** The home folder the caches are found under (default: the user's). */
  home?: string;
  /** Environment the caches may be redirected in (`npm_config_cache`, `XDG_CACHE_HOME`…). */
  env?: NodeJS.ProcessEnv;
}

/** Cache folders under the home folder, kept only when they exist. */
const HOME_CACHES = [
  '.npm', '.cache', '.yarn', '.pnpm-store', '.local/share/pnpm', '.bun/install/cache', '.deno',
  '.cargo/registry', '.cargo/git', 'go/pkg/mod', '.gradle/caches', '.m2/repository', '.nuget/packages',
  '.cache/pip', 'Library/Caches',
];
/** Environment variables naming a cache folder. */
const CACHE_VARIABLES = ['npm_config_cache', 'NPM_CONFIG_CACHE', 'YARN_CACHE_FOLDER', 'PNPM_STORE_DIR', 'PIP_CACHE_DIR', 'GOMODCACHE', 'GOCACHE', 'XDG_CACHE_HOME', 'BUN_INSTALL_CACHE_DIR', 'DENO_DIR', 'CARGO_HOME'];

/** The folders a sandboxed command may write, real paths, parents before children, no duplicates. */
export function writableFolders(request: SandboxRequest): string[] {
  const home = request.home ?? homedir();
  const env = request.env ?? process.env;
  const candidates = [request.root, tmpdir(), '/tmp', ...gitFolders(request.root)];
  for (const name of HOME_CACHES) candidates.push(join(home, name));
  for (const name of CACHE_VARIABLES) {
    const value = env[name];
    if (value && isAbsolute(value)) candidates.push(value);
  }
  const real = new Set<string>();
  for (const path of candidates) {
    try {
      if (!statSync(path).isDirectory()) continue;
      real.add(realpathSync(path));
    } catch {
      // missing: nothing to bind
    }
  }
  // A folder inside another writable one needs no bind of its own.
  const sorted = [...real].sort((a, b) => a.length - b.length);
  return sorted.filter((path, i) => !sorted.slice(0, i).some((parent) => parent === '/' || path.startsWith(parent + sep)));
}

const gitFolderCache = new Map<string, string[]>();

/** The repository's git folders when they lie outside the project (a subfolder, a worktree): commits write there. */
function gitFolders(root: string): string[] {
  let found = gitFolderCache.get(root);
  if (found) return found;
  try {
    const out = execFileSync('git', ['rev-parse', '--absolute-git-dir', '--git-common-dir'], { cwd: root, encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });
    found = out.split('\n').filter(Boolean).map((path) => resolve(root, path));
  } catch {
    found = [];
  }
  gitFolderCache.set(root, found);
  return found;
}

/** The program and arguments that run `request.command` under the sandbox `state`. */
export function sandboxedCommand(state: SandboxState, request: SandboxRequest): { file: string; args: string[] } {
  if (state.kind === 'bwrap') return { file: state.program!, args: bwrapArgs(state, request) };
  if (state.kind === 'sandbox-exec') return { file: state.program!, args: ['-p', seatbeltProfile(request), '/bin/bash', '-c', request.command] };
  return { file: '/bin/bash', args: ['-c', request.command] };
}

export function bwrapArgs(state: Pick<SandboxState, 'pidNamespace'>, request: SandboxRequest): string[] {
  const args = ['--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  if (state.pidNamespace) args.unshift('--unshare-pid');
  if (!request.network) args.unshift('--unshare-net');
  for (const path of writableFolders(request)) args.push('--bind', path, path);
  // After the writable binds, which may hold one (the state folder under /tmp).
  for (const { path, folder } of credentialMasks(request)) args.push(...(folder ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path]));
  for (const path of request.readOnly ?? []) args.push('--ro-bind', path, path);
  for (const path of request.blocked ?? []) args.push('--tmpfs', path, '--remount-ro', path);
  args.push('--chdir', realpathOr(request.root), '--', ...(state.pidNamespace ? ['/bin/sh', '-c', COUNT_LEFTOVERS, 'reika', request.command] : ['/bin/bash', '-c', request.command]));
  return args;
}

/**
 * In a PID namespace of its own, what the command leaves running ends with the namespace, and
 * from out here nothing tells a process left behind from the namespace's teardown. So the command
 * (`/bin/bash -c`, as without one) runs under a POSIX shell that, once it has exited, counts the
 * processes still in the namespace (not zombies; not pid 1 or one entered from outside, whose
 * parent is out here, `0`) and writes the count to fd 3, which the command itself does not get.
 * The exit status is the command's. `/bin/sh` (dash on Debian) starts in a third of bash's time:
 * `true` took ~4 ms longer than unwrapped, where a bash wrapper took ~7 (19 → 23 ms here).
 */
const COUNT_LEFTOVERS = `/bin/bash -c "$1" 3>&-
s=$?
n=0
for p in /proc/[0-9]*; do
  p=\${p#/proc/}
  [ "$p" = "$$" ] && continue
  { read -r stat < "/proc/$p/stat"; } 2>/dev/null || continue
  rest=\${stat##*) }
  case \${rest%% *} in Z|X) continue ;; esac
  rest=\${rest#* }
  [ "\${rest%% *}" = 0 ] && continue
  n=$((n+1))
done
[ "$n" = 0 ] || { echo "$n" >&3; } 2>/dev/null
exit "$s"`;

/** True when the command's processes left running are counted on fd 3 ({@link COUNT_LEFTOVERS}). */
export function countsLeftovers(state: SandboxState): boolean {
  return state.kind === 'bwrap' && state.pidNamespace === true;
}

/**
 * The credential paths a command finds empty (SPEC §16): each existing one (its real path; a
 * symlink is masked through its target), unless the user approved the command or the project
 * lies inside it (reika run in its own config folder).
 */
export function credentialMasks(request: SandboxRequest): { path: string; folder: boolean }[] {
  if (request.showCredentials) return [];
  const root = realpathOr(request.root);
  const masks: { path: string; folder: boolean }[] = [];
  for (const { path } of credentialPaths({ home: request.home ?? homedir(), env: request.env ?? process.env })) {
    let info;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isSymbolicLink() || root === path || root.startsWith(path + sep)) continue;
    if (!masks.some((mask) => mask.path === path)) masks.push({ path, folder: info.isDirectory() });
  }
  return masks;
}

/** macOS: the same policy as a Seatbelt profile (not tested here). */
export function seatbeltProfile(request: SandboxRequest): string {
  const quote = (path: string) => `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const writable = writableFolders(request).map((path) => `(subpath ${quote(path)})`);
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.join(' ')} (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/(tty|fd/|ttys)"))`,
    ...(request.network ? [] : ['(deny network*)', '(allow network* (remote unix-socket))']),
    ...[...(request.readOnly ?? []), ...(request.blocked ?? [])].map((path) => `(deny file-write* (subpath ${quote(path)}))`),
    ...credentialMasks(request).map(({ path, folder }) => `(deny file-read* file-write* (${folder ? 'subpath' : 'literal'} ${quote(path)}))`),
  ].join('\n');
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** What the model is told when the sandbox refused a write or a connection (one line each). */
/**
 * What a command prints when it had no network: no route, no name resolution, and a refused
 * connection to this machine's loopback (inside the sandbox's own network namespace nothing
 * listens there, so a server the user runs is out of reach too).
 */
const NO_NETWORK =
  /Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|getaddrinfo E(NOTFOUND|AI_AGAIN)|Name or service not known|No address associated with hostname|ECONNREFUSED (127\.0\.0\.1|::1)|(Failed to connect to|connect to) (127\.0\.0\.1|localhost|::1)|(127\.0\.0\.1|localhost)[^\n]*Connection refused/;

/** The sandbox's one-line note that the output shows a lack of network. */
export const NO_NETWORK_NOTE = 'no network in the sandbox: only a command the user approved may use it';

export function sandboxNotes(output: string, network: boolean, protectedPaths: readonly string[] = []): string[] {
  const notes: string[] = [];
  // A refused write that names a protected path (as the project shows it) is that; any other is outside the project.
  const named = new Set<string>();
  let outside = false;
  for (const line of output.split('\n')) {
    if (!/Read-only file system|EROFS|Is a directory/.test(line)) continue;
    const hit = protectedPaths.filter((path) => line.includes(path));
    for (const path of hit) named.add(path);
    if (hit.length === 0 && !/Is a directory/.test(line)) outside = true;
  }
  if (named.size > 0) notes.push(`protected, read-only in the sandbox: ${[...named].join(', ')} (what they hold runs later outside it; the write tool asks the user)`);
  if (outside) notes.push('outside the project: read-only in the sandbox (the project, the temp folder and package caches are writable)');
  if (!network && NO_NETWORK.test(output)) {
    notes.push(NO_NETWORK_NOTE);
  }
  return notes;
}
