import type { WriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { defineTool, EVERY_MODE } from './define-tool.js';
import { compileGlob } from '../files/glob-match.js';
import { lazy } from '../lazy.js';
import { boolean, path, string, type ArgsOf } from './params.js';
import { displayPath, resolveToolPath } from '../files/paths.js';
import { credentialAction, credentialsSkipped, credentialsUnder } from '../safety/credential-paths.js';
import { decodeText, forEachLine, looksBinary, sniffBinary, stripCr } from '../files/text-file.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv, type ToolOutcome } from './tool-env.js';
import type { UserRegex } from '../files/user-regex.js';
import type { SearchEngine } from '../files/search/candidates.js';

export const GREP_INLINE = 100;
/** Matches kept at most (inline plus spill file); the search stops there. */
export const GREP_MAX_MATCHES = 20_000;
const GREP_MAX_ENTRIES = 300_000;
/** Bigger files are streamed line by line instead of read whole. */
const WHOLE_FILE_BYTES = 8 * 1024 * 1024;
/** Only this much of a line is searched and shown (minified files, catastrophic patterns). */
const LINE_SEARCH_CHARS = 10_000;
const LINE_SHOW_CHARS = 300;
const PARALLEL_FILES = 16;

/** The crawler, the native searchers and the regex engine are loaded on the first call (see lazy.ts). */
const crawler = lazy(() => import('../files/walk.js'));
const searchers = lazy(() => import('../files/search/candidates.js'));
const engine = lazy(() => import('../files/user-regex.js'));

const params = {
  pattern: string('Regular expression (JavaScript syntax without lookaround or backreferences), e.g. "function\\\\s+load".', { required: true }),
  path: path('Folder or file to search (default: the project root).', { required: false }),
  glob: string('Only files matching this glob, e.g. "*.py".', { required: false, nonEmpty: true }),
  ignore_case: boolean('Case-insensitive search.'),
};

/** How grep finds the files to read (tests pin each path). */
export interface GrepOptions {
  /** `auto`: ripgrep when on PATH, else git grep in a repository, else the walk (`js`). */
  engine?: 'auto' | SearchEngine;
  /** PATH to look for `rg` and `git` on (default: the process's). */
  path?: string;
  onSpawn?: (pid: number) => void;
}

/**
 * `grep{pattern, path?, glob?, ignore_case?}`: a JavaScript regular expression over the project's
 * non-ignored text files (or one named file, e.g. a spill file). Binary files are skipped. The
 * first 100 matches are inline; all of them stream to a file that read and grep can open.
 * ripgrep or git grep picks the files that can match (`files/search/candidates.ts`); the result is
 * the walk's, only sooner.
 */
export const grepTool = defineTool({
  name: 'grep',
  description: 'Search file contents with a regular expression (linear-time RE2: JavaScript syntax without lookaround or backreferences). Returns "path:line: text" for up to 100 matches; more are saved to a file you can read. Skips binary and ignored files.',
  params,
  modes: EVERY_MODE,
  approval: 'never',
  guard: (args, env) => credentialAction('grep', 'searches', resolveToolPath(env.root, args.path ?? '.')),
  run: (args, env) => grepWith(args, env),
});

export async function grepWith(args: ArgsOf<typeof params>, env: ToolEnv, options: GrepOptions = {}): Promise<ToolOutcome> {
  const regex = (await engine()).compileUserRegex(args.pattern, args.ignore_case ?? false);
  const start = resolveToolPath(env.root, args.path ?? '.');
  const shownStart = displayPath(env.root, start);
  const info = await stat(start).catch((error: unknown) => {
    throw fsError(error, shownStart);
  });

  let files: string[] = [];
  let searched: number | undefined;
  let walkNote = '';
  let aborted = false;
  if (info.isDirectory()) {
    const picked = await (await searchers()).findCandidates({
      root: env.root,
      start,
      pattern: args.pattern,
      ignoreCase: args.ignore_case ?? false,
      glob: args.glob,
      signal: env.signal,
      engine: options.engine,
      path: options.path,
      onSpawn: options.onSpawn,
    });
    if (picked) {
      // The searchers list hidden files too: credential paths below the start stay out, as in the walk.
      const credentials = credentialsUnder(start);
      files = credentials.length === 0 ? picked.files : picked.files.filter((file) => !credentials.some((path) => file.startsWith(path + sep) || file === path));
      if (files.length < picked.files.length) walkNote += `; ${credentialsSkipped(picked.files.length - files.length)}`;
      searched = picked.searched;
      aborted = picked.aborted;
    } else {
      const wanted = args.glob ? compileGlob(args.glob) : () => true;
      const { walk } = await crawler();
      const stats = await walk({ root: env.root, start, maxEntries: GREP_MAX_ENTRIES, signal: env.signal }, (entry) => {
        if (entry.kind === 'file' && wanted(entry.rel)) files.push(entry.absolute);
      });
      searched = files.length;
      aborted = stats.aborted;
      if (stats.stopped) walkNote = `; the file walk stopped after ${GREP_MAX_ENTRIES.toLocaleString('en-US')} entries, give a narrower path`;
      if (stats.unfiltered) walkNote += `; ${shownStart} is ignored by the project's rules but searched because it was named`;
      if (stats.credentials > 0) walkNote += `; ${credentialsSkipped(stats.credentials)}`;
    }
  } else if (info.isFile()) {
    files.push(start);
    searched = 1;
  } else {
    throw new ToolError('NOT_A_FILE', `${shownStart} is neither a file nor a folder`);
  }

  const sink = new MatchSink(env);
  let binary = 0;
  let unreadable = 0;
  try {
    for (let i = 0; i < files.length && !sink.full && !aborted; i += PARALLEL_FILES) {
      const batch = files.slice(i, i + PARALLEL_FILES);
      const results = await Promise.all(batch.map((file) => searchFile(file, regex, env.signal)));
      for (let j = 0; j < batch.length && !sink.full; j++) {
        const result = results[j]!;
        if (result === 'binary') binary++;
        else if (result === 'unreadable') unreadable++;
        else if (result.length > 0) sink.file(displayPath(env.root, batch[j]!), result);
      }
      if (env.signal.aborted) aborted = true;
    }
  } finally {
    await sink.close();
  }
  if (files.length === 1 && info.isFile() && binary === 1) throw new ToolError('BINARY_FILE', `${shownStart} is a binary file; grep searches text files only`);
  if (files.length === 1 && info.isFile() && unreadable === 1) throw new ToolError('PERMISSION_DENIED', `${shownStart} could not be read`);

  const label = `grep /${args.pattern}/${args.ignore_case ? 'i' : ''}${args.path ? ` in ${shownStart}` : ''}${args.glob ? ` (${args.glob})` : ''}`;
  const skipped = [
    binary > 0 ? `${plural(binary, 'binary file')} skipped` : '',
    unreadable > 0 ? `${plural(unreadable, 'unreadable file')} skipped` : '',
  ].filter(Boolean);
  const skippedNote = skipped.length > 0 ? `; ${skipped.join(', ')}` : '';
  if (aborted) return { status: 'cancelled', summary: `${label} was cancelled after ${plural(sink.count, 'match', 'matches')}`, payload: sink.inline.join('\n') };
  if (sink.count === 0) {
    const where = searched === undefined ? '' : ` in ${plural(searched, 'file')}`;
    return { summary: `${label}: no matches${where}${skippedNote}${walkNote}`, payload: '' };
  }
  const counted = `${plural(sink.count, 'match', 'matches')}${sink.full ? '+' : ''} in ${plural(sink.files, 'file')}`;
  if (sink.spillPath === undefined) {
    return { summary: `${label}: ${counted}${skippedNote}${walkNote}`, payload: sink.inline.join('\n') };
  }
  const spillPath = sink.spillPath;
  const stop = sink.full ? ` (the search stopped at ${GREP_MAX_MATCHES.toLocaleString('en-US')} matches)` : '';
  return {
    summary: `${label}: ${counted}; first ${GREP_INLINE} shown, all in ${spillPath}${stop}${skippedNote}${walkNote}`,
    payload: `${sink.inline.join('\n')}\n… ${plural(sink.count - GREP_INLINE, 'more match', 'more matches')} in ${spillPath} (read or grep it)`,
    meta: { spillPath },
  };
}

/**
 * Where matches go as they are found: the first 100 kept for the payload; from the 101st on, all
 * of them written to a spill file as they come (the file is opened then, with the first 100).
 */
class MatchSink {
  readonly inline: string[] = [];
  count = 0;
  files = 0;
  full = false;
  spillPath: string | undefined;
  private stream: WriteStream | undefined;

  constructor(private readonly env: ToolEnv) {}

  file(shown: string, lines: [line: number, text: string][]): void {
    this.files++;
    for (const [line, text] of lines) {
      if (this.count >= GREP_MAX_MATCHES) {
        this.full = true;
        return;
      }
      this.add(`${shown}:${line}: ${text}`);
    }
  }

  private add(match: string): void {
    this.count++;
    if (this.count <= GREP_INLINE) {
      this.inline.push(match);
      return;
    }
    if (!this.stream) {
      const { path, stream } = this.env.spill.stream('grep');
      this.spillPath = path;
      this.stream = stream;
      stream.write(this.inline.join('\n') + '\n');
    }
    this.stream.write(match + '\n');
  }

  close(): Promise<void> {
    const stream = this.stream;
    if (!stream) return Promise.resolve();
    return new Promise((resolve) => stream.end(() => resolve()));
  }
}

type FileResult = [line: number, text: string][] | 'binary' | 'unreadable';

async function searchFile(path: string, regex: UserRegex, signal: AbortSignal): Promise<FileResult> {
  const found: [number, string][] = [];
  const test = (raw: string, number: number) => {
    const line = stripCr(raw.length > LINE_SEARCH_CHARS ? raw.slice(0, LINE_SEARCH_CHARS) : raw);
    if (regex.test(line)) found.push([number, line.length > LINE_SHOW_CHARS ? `${line.slice(0, LINE_SHOW_CHARS)}…` : line]);
  };
  try {
    const info = await stat(path);
    if (info.size <= WHOLE_FILE_BYTES) {
      const bytes = await readFile(path, { signal });
      if (looksBinary(bytes)) return 'binary';
      const text = decodeText(bytes).text;
      // Most files lack the literal every match needs: one native search rejects them.
      if (!regex.mayMatch(text)) return found;
      const lines = text.split('\n');
      if (lines.at(-1) === '') lines.pop();
      lines.forEach((line, i) => test(line, i + 1));
      return found;
    }
    if (await sniffBinary(path)) return 'binary';
    await forEachLine(
      path,
      (bytes, number) => {
        if (found.length >= GREP_MAX_MATCHES) return false;
        test(decodeText(bytes).text, number);
      },
      { signal, maxLineBytes: LINE_SEARCH_CHARS * 4 },
    );
    return found;
  } catch {
    return 'unreadable';
  }
}
