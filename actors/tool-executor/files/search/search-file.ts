import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { decodeText, forEachLine, looksBinary, sniffBinary, stripCr } from '../text-file.js';
import type { UserRegex } from '../user-regex.js';

/** Matches kept at most (inline plus spill file); the search stops there. */
export const GREP_MAX_MATCHES = 20_000;
/** Bigger files are streamed line by line instead of read whole. */
const WHOLE_FILE_BYTES = 8 * 1024 * 1024;
/** Only this much of a line is searched and shown (minified files, catastrophic patterns). */
const LINE_SEARCH_CHARS = 10_000;
const LINE_SHOW_CHARS = 300;

export type FileResult = [line: number, text: string][] | 'binary' | 'unreadable';

/** One batch of files for an indexer thread (`grepFiles` in `workers/pool-entry.ts`). */
export interface GrepFilesTask {
  /** Absolute paths, searched in this order. */
  files: string[];
  pattern: string;
  ignoreCase: boolean;
}

function lineTester(regex: UserRegex, found: [number, string][]): (raw: string, number: number) => void {
  return (raw, number) => {
    const line = stripCr(raw.length > LINE_SEARCH_CHARS ? raw.slice(0, LINE_SEARCH_CHARS) : raw);
    if (regex.test(line)) found.push([number, line.length > LINE_SHOW_CHARS ? `${line.slice(0, LINE_SHOW_CHARS)}…` : line]);
  };
}

/** A whole file's bytes (≤ 8 MB) searched. */
function searchBytes(bytes: Uint8Array, regex: UserRegex): FileResult {
  if (looksBinary(bytes)) return 'binary';
  const found: [number, string][] = [];
  const text = decodeText(bytes).text;
  // Most files lack the literal every match needs: one native search rejects them.
  if (!regex.mayMatch(text)) return found;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const test = lineTester(regex, found);
  lines.forEach((line, i) => test(line, i + 1));
  return found;
}

/**
 * One file searched the way `grep` searches: its matching lines, or why it was skipped. The same
 * code runs in the tool executor (files a native searcher picked) and in the indexer threads (the
 * walk's files, `workers/pool-entry.ts`), so every path gives the same lines.
 */
export async function searchFile(path: string, regex: UserRegex, signal?: AbortSignal): Promise<FileResult> {
  try {
    const info = await stat(path);
    if (info.size <= WHOLE_FILE_BYTES) return searchBytes(await readFile(path, { signal }), regex);
    return await searchLargeFile(path, regex, signal);
  } catch {
    return 'unreadable';
  }
}

/**
 * The same search read synchronously, for a worker thread (it has nothing else to do, and an abort
 * ends the thread). Files over 8 MB are streamed as in `searchFile`.
 */
export async function searchFileInThread(path: string, regex: UserRegex): Promise<FileResult> {
  try {
    if (statSync(path).size <= WHOLE_FILE_BYTES) return searchBytes(readFileSync(path), regex);
    return await searchLargeFile(path, regex);
  } catch {
    return 'unreadable';
  }
}

async function searchLargeFile(path: string, regex: UserRegex, signal?: AbortSignal): Promise<FileResult> {
  if (await sniffBinary(path)) return 'binary';
  const found: [number, string][] = [];
  const test = lineTester(regex, found);
  await forEachLine(
    path,
    (bytes, number) => {
      if (found.length >= GREP_MAX_MATCHES) return false;
      test(decodeText(bytes).text, number);
    },
    { signal, maxLineBytes: LINE_SEARCH_CHARS * 4 },
  );
  return found;
}
