import { relative, resolve, sep } from 'node:path';
import { agentsMdCandidates, collectAgentsMd, type AgentsFile } from '../agents-md.js';
import { isMapSource } from './symbols/languages.js';

// The mapped files the project's AGENTS.md files name (the ranking personalised as Aider's is
// by the files a chat mentions). Only the instruction files count, never the user's
// prompt: the map is part of the system prompt, which must be the same bytes in every session of
// an unchanged repository (the engine's prefix cache, the bootstrap cache), and the prompt
// differs from session to session.
//
// A mention is a word of the text that spells a mapped file's path (`actors/indexer/scan.ts`,
// also in backticks, a link or as `scan.ts:42`): from the repository's top (where the session's
// AGENTS.md files usually are), from the AGENTS.md file's own folder, or, with no `/` in it, the
// file name of exactly one mapped file (a name of a language the map reads: `scan.ts`, not
// `e.g.`). A few milliseconds, cold, for a 12,000-character AGENTS.md and 3,000 files.

/** Path-like words: letters, digits and `_@$+-./`, with a `.` or a `/` in them. */
const WORD = /[\w@$+-]*[./][\w@$+\-./]*/g;

/**
 * The paths of `mapped` (relative to `root`, `/`-separated) that the AGENTS.md files of `root`
 * name, in `mapped`'s order; `files` are those AGENTS.md files (the session reads the same).
 */
export function mentionedFiles(root: string, mapped: readonly string[], files: readonly AgentsFile[] = collectAgentsMd(root)): string[] {
  if (files.length === 0) return [];
  // The AGENTS.md paths are relative to the repository's top; the mapped ones to `root`.
  const top = relative(agentsMdCandidates(root).top, resolve(root)).split(sep).join('/');
  const wanted = new Set<string>();
  const names = new Set<string>();
  for (const file of files) {
    const folder = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
    WORD.lastIndex = 0;
    for (let match = WORD.exec(file.content); match !== null; match = WORD.exec(file.content)) {
      const spelled = cleaned(match[0]);
      if (spelled === undefined) continue;
      for (const fromTop of folder === '' ? [spelled] : [spelled, `${folder}/${spelled}`]) {
        if (top === '') wanted.add(fromTop);
        else if (fromTop.startsWith(`${top}/`)) wanted.add(fromTop.slice(top.length + 1));
      }
      if (!spelled.includes('/') && isMapSource(spelled)) names.add(spelled);
    }
  }
  // One pass over the mapped files; a file name counts only when one file has it.
  const byName = new Map<string, number>();
  if (names.size > 0) {
    for (const path of mapped) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (names.has(name)) byName.set(name, (byName.get(name) ?? 0) + 1);
    }
  }
  return mapped.filter((path) => wanted.has(path) || (byName.size > 0 && byName.get(path.slice(path.lastIndexOf('/') + 1)) === 1));
}

/** A word as a relative path (`./a/b.ts.` → `a/b.ts`), or undefined when it cannot name a file. */
function cleaned(word: string): string | undefined {
  let path = word.endsWith('.') ? word.replace(/\.+$/, '') : word;
  while (path.startsWith('./')) path = path.slice(2);
  if (path === '' || path.startsWith('/') || path.endsWith('/') || path.includes('..') || path.includes('//')) return undefined;
  return path.includes('.') || path.includes('/') ? path : undefined;
}
