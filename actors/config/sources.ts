import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { withoutComment } from '../line-comment.js';

// Where settings come from, each source a layer of raw `REIKA_*` values (the environment, the
// project's `.env`, the user's `.env`); `load-config.ts` merges them, earlier layers winning.

/** Which source a value came from. */
export type SourceKind = 'environment' | 'project .env' | 'local settings' | 'project settings' | 'user .env' | 'user settings' | 'command line';

export interface Source {
  kind: SourceKind;
  /** The file, for a file source. */
  path?: string;
  /** The flag, for the command line (`--approvals`). */
  flag?: string;
}

/** One source's `REIKA_*` values (an empty value counts as unset). */
export interface Layer extends Source {
  values: Record<string, string>;
}

/** Whether a source is the project's (it may not loosen safety or redirect code until trusted). */
export function isProjectSource(kind: SourceKind): boolean {
  return kind === 'project .env' || kind === 'local settings' || kind === 'project settings';
}

/** How a source is named to the user: `environment`, its file, or its flag. */
export function sourceLabel(source: Source): string {
  return source.path ?? source.flag ?? source.kind;
}

/** Parses a `.env` file: `KEY=value`, optional `export `, quotes, `#` comments. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.lastIndexOf(quote) > 0) {
      value = value.slice(1, value.lastIndexOf(quote));
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      value = withoutComment(value).trim();
    }
    out[match[1]!] = value;
  }
  return out;
}

/** The `REIKA_*` entries of a set of variables, empty ones left out. */
export function reikaValues(variables: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(variables)) if (key.startsWith('REIKA_') && value !== undefined && value !== '') out[key] = value;
  return out;
}

/** A `.env` file as a layer; a missing or unreadable file is an empty one. */
export function dotEnvLayer(kind: 'project .env' | 'user .env', path: string): Layer {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // no file: nothing set here
  }
  return { kind, path, values: reikaValues(parseDotEnv(text)) };
}

/**
 * The user's reika folder, `$XDG_CONFIG_HOME/reika` or `~/.config/reika`: its `.env`, `mcp.json`,
 * `commands/` and `skills/`.
 */
export function userFolderOf(env: Record<string, string | undefined>, home: string): string {
  return env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? join(env.XDG_CONFIG_HOME, 'reika') : join(home, '.config', 'reika');
}

/**
 * The project root of `cwd`: the nearest folder up from it holding `.git` (a repository or a
 * worktree), else `cwd` itself. The project's `.env` files and `.reika/` settings are found there.
 */
export function projectRootOf(cwd: string): string {
  for (let folder = cwd; ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder;
    if (dirname(folder) === folder) return cwd;
  }
}

/** The folders from `cwd` up to `root`, nearest first (their `.env` files, nearer winning). */
export function foldersUpTo(cwd: string, root: string): string[] {
  const folders = [cwd];
  for (let folder = cwd; folder !== root && dirname(folder) !== folder; ) {
    folder = dirname(folder);
    folders.push(folder);
  }
  return folders;
}
