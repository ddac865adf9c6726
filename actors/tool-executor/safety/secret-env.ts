import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { loadConfig, parseDotEnv } from '../../config.js';
import { Redactor } from './redactor.js';

/**
 * The environment a command gets (SPEC §16): the user's, minus what is secret. A variable is
 * secret when its name says so (`*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`, `*CREDENTIAL*`,
 * `*_PAT`, `*_AUTH*`, any case) or its value is a URL carrying a password; every `REIKA_*`
 * variable is dropped too (reika's own settings, its API key among them). `REIKA_PASS_ENV` names
 * variables to pass anyway (`GITHUB_TOKEN` for `gh`).
 */

const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|_AUTH|_PAT$/i;
/** `scheme://user:password@…` anywhere in the value (a list of URLs counts). */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i;
/** Shorter values are not looked for in output: "1", "true" or "off" would be redacted everywhere. */
export const MIN_SECRET_CHARS = 8;

/** True when the variable's name or value marks it as a secret. */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  return SECRET_NAME.test(name) || (value !== undefined && URL_WITH_PASSWORD.test(value));
}

export interface CommandEnvironment {
  /** What the command gets. */
  env: NodeJS.ProcessEnv;
  /** Names left out, sorted. */
  dropped: string[];
}

/** `source` without its secrets and `REIKA_*` keys; names in `pass` go through (REIKA_* never). */
export function commandEnvironment(source: NodeJS.ProcessEnv, pass: ReadonlySet<string> = new Set()): CommandEnvironment {
  const env: NodeJS.ProcessEnv = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (name.startsWith('REIKA_') || (isSecretVariable(name, value) && !pass.has(name))) dropped.push(name);
    else env[name] = value;
  }
  return { env, dropped: dropped.sort() };
}

/**
 * The secret values of an environment (whatever {@link isSecretVariable} says, passed or not),
 * long enough to look for in output, longest first.
 */
export function secretValues(source: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || value.trim().length < MIN_SECRET_CHARS || !isSecretVariable(name, value)) continue;
    found.add(value);
    // The password of a URL on its own (a command may print it without the URL around it).
    for (const match of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:([^\s/@]+)@/gi)) {
      const password = safeDecode(match[1]!);
      if (password.length >= MIN_SECRET_CHARS) found.add(password);
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * The names `REIKA_PASS_ENV` lists (comma or space separated), from the environment or the user's
 * own `.env` (`~/.config/reika/.env`) — never a project's `.env`: a repository cannot hand itself
 * the user's tokens.
 */
export function passedNames(env: NodeJS.ProcessEnv = process.env): Set<string> {
  let value = env.REIKA_PASS_ENV;
  if (value === undefined) {
    // The user's folder as config.ts finds it (read here alone: loading the whole configuration costs more than the filter).
    const userFolder = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? join(env.XDG_CONFIG_HOME, 'reika') : join(env.HOME || homedir(), '.config', 'reika');
    try {
      value = parseDotEnv(readFileSync(join(userFolder, '.env'), 'utf8')).REIKA_PASS_ENV;
    } catch {
      // No user file: nothing is passed.
    }
  }
  return new Set((value ?? '').split(/[\s,]+/).filter((name) => name !== '' && !name.startsWith('REIKA_')));
}

const redactors = new Map<string, Redactor>();

/**
 * The redactor of a project's tool results, made once per process: the secret values of the
 * environment and of the configuration (API keys and URLs with a password from the user's and
 * the project's `.env`).
 */
export function redactorFor(root: string, env: NodeJS.ProcessEnv = process.env): Redactor {
  let redactor = redactors.get(root);
  if (!redactor) {
    let configured: Record<string, string> = {};
    try {
      configured = loadConfig({ cwd: root, env }).values;
    } catch {
      // A bad setting elsewhere: the environment's secrets are still known.
    }
    redactor = new Redactor([...secretValues(env), ...secretValues(configured)]);
    redactors.set(root, redactor);
  }
  return redactor;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
