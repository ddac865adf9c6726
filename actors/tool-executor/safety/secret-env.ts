import { Redactor } from './redactor.js';

// The environment a command gets (SPEC §16): the user's, minus what is secret. A variable is
// secret when its name says so (`*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`, `*CREDENTIAL*`,
// `*_PAT`, `*_AUTH*`, any case) or its value is a URL carrying a password; every `REIKA_*`
// variable is dropped too (reika's own settings, its API key among them). `REIKA_PASS_ENV` names
// variables to pass anyway (`GITHUB_TOKEN` for `gh`): `ToolSettings.passEnv`, read by `actors/config/`
// from the environment or the user's own files, never a project's.

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

const redactors = new Map<string, Redactor>();

/**
 * The redactor of tool results, made once per set of configured secrets: the secret values of
 * this process's environment and `configured`, the secret values of reika's own configuration
 * (`ToolSettings.secrets`: API keys and URLs with a password, from the environment and the `.env`
 * files, as `actors/config/` read them).
 */
export function redactorFor(configured: readonly string[], env: NodeJS.ProcessEnv = process.env): Redactor {
  const key = configured.join('\0');
  let redactor = redactors.get(key);
  if (!redactor) {
    redactor = new Redactor([...new Set([...secretValues(env), ...configured])]);
    redactors.set(key, redactor);
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
