import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import { stateFolder } from '../../state-dir.js';
import { realPathOfNearest } from '../files/paths.js';
import type { PreparedCall } from '../prepared.js';

// The well-known places credentials live (SPEC §16). Reading one asks first through every tool,
// and a sandboxed command finds them empty unless a person approved it. Reads elsewhere outside
// the project stay as they are.

/** Under the home folder: keys, cloud and registry logins, cluster configs. */
export const HOME_CREDENTIALS = [
  '.ssh', '.aws', '.gnupg', '.config/gh', '.netrc', '.git-credentials', '.docker/config.json', '.kube',
  '.npmrc', '.pypirc', '.config/gcloud', '.azure',
] as const;

/** Any process's environment (with the tokens of whoever started it). */
const PROC_ENVIRON = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?environ$/;

export interface CredentialOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
}

export interface CredentialPath {
  /** Absolute path as listed (and its real path when that differs, for symlinked homes). */
  path: string;
  /** How it is shown: `~/.ssh`, `reika's state folder`. */
  label: string;
}

/** The lists made so far, by home, config and state folder: every command's danger check asks. */
const made = new Map<string, readonly CredentialPath[]>();

/**
 * Every credential path, reika's own config and state folders included, each also by its real
 * path where that differs (a home whose `.ssh` links into a dotfiles folder). Made once per
 * process for a home: the links are those the person had when reika started (measured: the
 * existence and realpath calls were 0.5 ms of every danger check, 30 µs before this list).
 */
export function credentialPaths({ home = homedir(), env = process.env }: CredentialOptions = {}): readonly CredentialPath[] {
  const listed: CredentialPath[] = HOME_CREDENTIALS.map((name) => ({ path: join(home, name), label: `~/${name}` }));
  const config = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? join(env.XDG_CONFIG_HOME, 'reika') : join(home, '.config', 'reika');
  listed.push({ path: config, label: "reika's config folder" }, { path: stateFolder(env), label: "reika's state folder" });
  const key = `${home}\0${config}\0${listed.at(-1)!.path}`;
  const before = made.get(key);
  if (before) return before;
  const all = [...listed];
  for (const entry of listed) {
    // Most are missing on a given machine: the lexical path is enough then. Asked first, because
    // a failed realpath throws, and making that error cost more than the rest of a danger check.
    if (!existsSync(entry.path)) continue;
    try {
      const real = realpathSync.native(entry.path);
      if (real !== entry.path) all.push({ path: real, label: entry.label });
    } catch {
      // gone meanwhile, or unreadable: the lexical path is enough
    }
  }
  made.set(key, Object.freeze(all));
  return all;
}

/**
 * Finds the credential path an absolute path is (or lies inside), on its lexical path and then
 * its real path; `lexical` alone costs no system call (for walks, which never follow links).
 */
export interface CredentialMatcher {
  (absolute: string): CredentialPath | undefined;
  lexical(absolute: string): CredentialPath | undefined;
}

export function credentialMatcher(options: CredentialOptions = {}): CredentialMatcher {
  const paths = credentialPaths(options);
  const lexical = (absolute: string): CredentialPath | undefined => {
    if (PROC_ENVIRON.test(absolute)) return { path: absolute, label: '/proc/*/environ' };
    return paths.find(({ path }) => absolute === path || absolute.startsWith(path + sep));
  };
  return Object.assign((absolute: string) => lexical(absolute) ?? lexical(realPathOfNearest(absolute)), { lexical });
}

/**
 * For a walk from `start` (list, glob, grep): whether an entry is a credential path to leave out.
 * A walk reaches what lies inside one only through the path itself, so the entries are compared
 * by name first and then whole, no system call. Undefined when `start` is itself inside one (the
 * person said yes to that).
 */
export function credentialEntries(start: string, options: CredentialOptions = {}): ((folder: string, name: string) => boolean) | undefined {
  if (credentialMatcher(options)(start)) return undefined;
  const paths = new Set(credentialPaths(options).map(({ path }) => path));
  const names = new Set([...paths].map((path) => path.slice(path.lastIndexOf(sep) + 1)));
  return (folder, name) => (names.has(name) && paths.has(join(folder, name))) || (name === 'environ' && folder.startsWith('/proc/'));
}

/** The credential paths strictly below `start` (none when `start` is itself inside one). */
export function credentialsUnder(start: string, options: CredentialOptions = {}): string[] {
  if (credentialMatcher(options)(start)) return [];
  return credentialPaths(options).map(({ path }) => path).filter((path) => path.startsWith(start + sep));
}

/** The note a walking tool adds when it left credential paths out. */
export function credentialsSkipped(count: number): string {
  return `${count} credential ${count === 1 ? 'path' : 'paths'} left out (name one as the path to look inside; reika asks first)`;
}

/** The reason an approver is shown: "reads ~/.ssh/id_ed25519, a credential path (~/.ssh)". */
export function credentialReason(how: string, found: CredentialPath, absolute: string, home: string = homedir()): string {
  const shown = absolute === home || absolute.startsWith(home + sep) ? `~${absolute.slice(home.length)}` : absolute;
  return shown === found.label ? `${how} ${shown}, a credential path` : `${how} ${shown}, a credential path (${found.label})`;
}

/** A reading tool's guard: asks when `absolute` is (or lies inside) a credential path. */
export function credentialAction(tool: string, how: string, absolute: string, options: CredentialOptions = {}): PreparedCall['action'] | undefined {
  const found = credentialMatcher(options)(absolute);
  return found ? { tool, path: absolute, reasons: [credentialReason(how, found, absolute, options.home)] } : undefined;
}
