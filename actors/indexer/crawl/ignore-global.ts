import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

// Where git's per-user ignore file is (`core.excludesFile`), read the way git reads its config
// files without running git: the repository's `config` over the global `~/.gitconfig` (or
// `GIT_CONFIG_GLOBAL`) over `$XDG_CONFIG_HOME/git/config`; unset, `$XDG_CONFIG_HOME/git/ignore`
// (`~/.config/git/ignore`). `include`/`includeIf` directives and the system config are not
// followed.

/** Where to look instead of the real environment (tests). */
export interface GitUserEnvironment {
  home?: string;
  xdgConfigHome?: string;
}

/** The last `core.excludesFile` value in one config file's text, or undefined. */
export function excludesFileSetting(text: string): string | undefined {
  let section = '';
  let found: string | undefined;
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      line = line.slice(header[0].length).trim();
      if (line === '') continue;
    }
    if (section !== 'core') continue;
    const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!pair || pair[1]!.toLowerCase() !== 'excludesfile') continue;
    found = configValue(pair[2]!);
  }
  return found;
}

/** A config value: quotes removed, `;`/`#` comments outside quotes dropped, escapes read. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ';' || char === '#')) break;
    else if (char === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else out += char;
  }
  return quoted ? out : out.trimEnd();
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The per-user ignore file for a repository whose (common) git dir is `gitDir`. */
export function globalExcludesFile(gitDir: string, environment: GitUserEnvironment = {}): string {
  const home = environment.home ?? process.env.HOME ?? homedir();
  const xdg = environment.xdgConfigHome ?? (process.env.XDG_CONFIG_HOME || join(home, '.config'));
  const globalConfig = environment.home === undefined && process.env.GIT_CONFIG_GLOBAL ? process.env.GIT_CONFIG_GLOBAL : join(home, '.gitconfig');
  let setting: string | undefined;
  for (const file of [join(xdg, 'git', 'config'), globalConfig, join(gitDir, 'config')]) {
    const text = readText(file);
    const value = text === undefined ? undefined : excludesFileSetting(text);
    if (value !== undefined) setting = value;
  }
  if (setting === undefined || setting === '') return join(xdg, 'git', 'ignore');
  if (setting === '~' || setting.startsWith('~/')) return join(home, setting.slice(1));
  return resolve(gitDir, '..', setting);
}
