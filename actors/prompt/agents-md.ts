import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One AGENTS.md found for the session: the project's own and those of parent folders up to the repo root. */
export interface AgentsFile {
  /** Relative to the repository root (or the project root outside git), `/`-separated. */
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

/**
 * Where a session looks for AGENTS.md files, present or not (absolute, outermost first), and the
 * folder their `AgentsFile.path` is relative to. The repo map's ranking reads them too, and the
 * bootstrap cache stamps them all: one that appears changes the map.
 */
export function agentsMdCandidates(root: string): { top: string; files: string[] } {
  const top = findRepoRoot(root) ?? resolve(root);
  const files: string[] = [];
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    files.unshift(join(dir, 'AGENTS.md'));
    if (dir === top || dirname(dir) === dir) break;
  }
  return { top, files };
}

/**
 * AGENTS.md files from the repo root down to `root` (outermost first, so the nearest, most
 * specific instructions come last). Outside a repository only `root`'s own file counts.
 */
export function collectAgentsMd(root: string): AgentsFile[] {
  const { top, files: candidates } = agentsMdCandidates(root);
  const files: AgentsFile[] = [];
  for (const candidate of candidates) {
    let content: string;
    try {
      content = readFileSync(candidate, 'utf8');
    } catch {
      continue;
    }
    if (content.length > AGENTS_MD_MAX_CHARS) {
      content = `${content.slice(0, AGENTS_MD_MAX_CHARS)}\n[… AGENTS.md cut at ${AGENTS_MD_MAX_CHARS} characters]`;
    }
    const path = relative(top, candidate).split('\\').join('/');
    files.push({ path, content: content.trim() });
  }
  return files;
}
