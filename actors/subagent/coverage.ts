import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ToolCallRecord } from '../agent/events.js';

/** A word that looks like a path: has a `/` or ends in a dotted extension. */
const PATH_WORD = /(?:[\w@~+-][\w@~.+-]*)?(?:\/[\w@~.+-]+)+\/?|[\w@~+-][\w@~.+-]*\.[A-Za-z][\w]{0,9}/g;

/**
 * Which files a subagent's task named and which of them it never read, so the parent can hand
 * those to another subagent. Named: every entry of `files`, plus path-like words of the task
 * text that are files in the project (so "e.g." or "v1.2" are not taken for files).
 */
export interface Coverage {
  /** The named files, as the task or `files` wrote them (deduplicated). */
  named: string[];
  /** Named files never read, in the order named; a missing one says so. */
  notCovered: string[];
  /** Files read, relative to the root when inside it. */
  read: string[];
}

/** The files a task names: `files` first, then files of the project mentioned in the text. */
export function namedFiles(root: string, task: string, files: readonly string[]): string[] {
  const named = new Map<string, string>();
  for (const file of files) named.set(resolve(root, file), file);
  for (const match of task.matchAll(PATH_WORD)) {
    const word = match[0].replace(/[.:]+$/, '');
    const full = resolve(root, word);
    if (named.has(full) || (!isAbsolute(word) && word.startsWith('..'))) continue;
    if (isFile(full)) named.set(full, word);
  }
  return [...named.values()];
}

/** Compares the named files with the successful `read` calls of the subagent's turn. */
export function coverage(root: string, named: readonly string[], calls: readonly ToolCallRecord[]): Coverage {
  const readFull = new Set<string>();
  for (const call of calls) {
    if (call.name === 'read' && call.status === 'done' && typeof call.arguments.path === 'string') readFull.add(resolve(root, call.arguments.path));
  }
  const notCovered: string[] = [];
  for (const file of named) {
    const full = resolve(root, file);
    if (readFull.has(full)) continue;
    if (isDirectory(full)) {
      if ([...readFull].some((path) => path.startsWith(full + sep))) continue;
      notCovered.push(`${file} (a folder: none of its files was read)`);
    } else if (!exists(full)) notCovered.push(`${file} (not found)`);
    else notCovered.push(file);
  }
  const read = [...readFull].map((full) => {
    const rel = relative(root, full);
    return rel.startsWith('..') || isAbsolute(rel) ? full : rel.split(sep).join('/');
  });
  return { named: [...named], notCovered, read };
}

/** The closing section of every report. */
export function notCoveredSection(result: Pick<Coverage, 'named' | 'notCovered'>): string {
  if (result.named.length === 0) return 'Not covered: none (the task named no files).';
  if (result.notCovered.length === 0) return `Not covered: none (${result.named.length === 1 ? 'the named file was' : `all ${result.named.length} named files were`} read).`;
  return ['Not covered (named in the task but not read; hand them to another subagent):', ...result.notCovered.map((file) => `- ${file}`)].join('\n');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
