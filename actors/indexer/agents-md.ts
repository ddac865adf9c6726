import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * One instructions file found for the session: the user's own (`~/.config/reika/AGENTS.md`, for
 * every project), then the project's and those of parent folders up to the repo root. In a folder
 * without an AGENTS.md, its CLAUDE.md counts instead (projects written for Claude Code).
 */
export interface AgentsFile {
  /** Relative to the repository root (or the project root outside git), `/`-separated; the user's file as `~/…`. */
  path: string;
  content: string;
}

/** Each AGENTS.md is cut past this many characters (with a marker), to keep the prompt bounded. */
export const AGENTS_MD_MAX_CHARS = 12_000;

/** The nearest folder at or above `start` holding `.git` (folder or file), if any. */
export function findRepoRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The names read in each folder, the first present one counting. */
const NAMES = ['AGENTS.md', 'CLAUDE.md'];

/**
 * Where a session looks for AGENTS.md (or, in a folder without one, CLAUDE.md) files, present or
 * not (absolute, outermost first), and the folder their `AgentsFile.path` is relative to. The repo
 * map's ranking reads them too, and the bootstrap cache stamps them all: one that appears changes
 * the map.
 */
export function agentsMdCandidates(root: string): { top: string; files: string[]; folders: string[] } {
  const top = findRepoRoot(root) ?? resolve(root);
  const folders: string[] = [];
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dir === top || dirname(dir) === dir) break;
  }
  return { top, folders, files: folders.flatMap((dir) => NAMES.map((name) => join(dir, name))) };
}

function readCapped(file: string): string | undefined {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (content.length > AGENTS_MD_MAX_CHARS) content = `${content.slice(0, AGENTS_MD_MAX_CHARS)}\n[… ${file.split(/[\\/]/).at(-1)} cut at ${AGENTS_MD_MAX_CHARS} characters]`;
  return content.trim();
}

/**
 * The instructions for a session, outermost first so the nearest, most specific come last: the
 * user's `AGENTS.md` in their config folder (`userFolder`, when given), then one file per folder
 * from the repo root down to `root` — its AGENTS.md, or its CLAUDE.md when it has none. Outside a
 * repository only `root`'s own folder counts.
 */
export function collectAgentsMd(root: string, userFolder?: string): AgentsFile[] {
  const { top, folders } = agentsMdCandidates(root);
  const files: AgentsFile[] = [];
  if (userFolder) {
    const file = join(userFolder, 'AGENTS.md');
    const content = readCapped(file);
    const home = homedir();
    if (content) files.push({ path: file.startsWith(`${home}/`) ? `~/${relative(home, file).split('\\').join('/')}` : file, content });
  }
  for (const folder of folders) {
    for (const name of NAMES) {
      const content = readCapped(join(folder, name));
      if (content === undefined) continue;
      files.push({ path: relative(top, join(folder, name)).split('\\').join('/'), content });
      break;
    }
  }
  return files;
}
