import type { WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { defineTool, EVERY_MODE } from './define-tool.js';
import { compileGlob } from '../files/glob-match.js';
import { lazy } from '../lazy.js';
import { boolean, path, string, type ArgsOf } from './params.js';
import { displayPath, resolveToolPath } from '../files/paths.js';
import { credentialAction, credentialsSkipped, credentialsUnder } from '../safety/credential-paths.js';
import { GREP_MAX_MATCHES, searchFile, type FileResult } from '../files/search/search-file.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv, type ToolOutcome } from './tool-env.js';
import type { IndexerPool } from '../../indexer/pool.js';
import type { SearchEngine } from '../files/search/candidates.js';

export { GREP_MAX_MATCHES };
export const GREP_INLINE = 100;
const GREP_MAX_ENTRIES = 300_000;
/** Files read at once on this thread (the files a native searcher picked). */
const PARALLEL_FILES = 16;

/** The crawler, the native searchers, the threaded reader and the regex engine are loaded on the first call (see lazy.ts). */
const crawler = lazy(() => import('../files/walk.js'));
const searchers = lazy(() => import('../files/search/candidates.js'));
const threads = lazy(() => Promise.all([import('../files/search/threaded-search.js'), import('../files/search/search-pool.js')]));
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
  /** The indexer threads that read the walk's files (default: the executor's, `search-pool.ts`). */
  pool?: IndexerPool;
}

/**
 * `grep{pattern, path?, glob?, ignore_case?}`: a JavaScript regular expression over the project's
 * non-ignored text files (or one named file, e.g. a spill file). Binary files are skipped. The
 * first 100 matches are inline; all of them stream to a file that read and grep can open.
 * ripgrep or git grep picks the files that can match (`files/search/candidates.ts`); without them
 * the walk finds the files and the indexer threads read them (`files/search/threaded-search.ts`).
 * The result is the same either way, only sooner or later.
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
  const sink = new MatchSink(env);
  let binary = 0;
  let unreadable = 0;
  const take = (file: string, result: FileResult) => {
    if (result === 'binary') binary++;
    else if (result === 'unreadable') unreadable++;
    else if (result.length > 0) sink.file(displayPath(env.root, file), result);
  };
  try {
    let walked = false;
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
        walked = true;
        const wanted = args.glob ? compileGlob(args.glob) : () => true;
        const [{ walk }, [{ ThreadedSearch }, { searchPool }]] = await Promise.all([crawler(), threads()]);
        const threaded = new ThreadedSearch(options.pool ?? (await searchPool()), { pattern: args.pattern, ignoreCase: args.ignore_case ?? false, regex }, env.signal);
        let count = 0;
        // The threads read while the walk goes on; the walk is not cut short when the matches are
        // capped, so its counts and notes are those of the whole tree, as on the other paths.
        const walking = walk({ root: env.root, start, maxEntries: GREP_MAX_ENTRIES, signal: env.signal }, (entry) => {
          if (entry.kind === 'file' && wanted(entry.rel)) {
            count++;
            threaded.add(entry.absolute);
          }
        }).finally(() => threaded.end());
        walking.catch(() => {});
        try {
          for await (const [file, result] of threaded.results()) {
            if (sink.full) break;
            take(file, result);
          }
        } catch (error) {
          if (!env.signal.aborted) throw error;
          aborted = true;
        } finally {
          threaded.close();
        }
        const stats = await walking;
        searched = count;
        aborted ||= stats.aborted;
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
    for (let i = 0; !walked && i < files.length && !sink.full && !aborted; i += PARALLEL_FILES) {
      const batch = files.slice(i, i + PARALLEL_FILES);
      const results = await Promise.all(batch.map((file) => searchFile(file, regex, env.signal)));
      for (let j = 0; j < batch.length && !sink.full; j++) take(batch[j]!, results[j]!);
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
  if (aborted) {
    const spilled = sink.spillPath === undefined ? '' : `; all of them are in ${sink.spillPath}`;
    return { status: 'cancelled', summary: `${label} was cancelled after ${plural(sink.count, 'match', 'matches')}${spilled}`, payload: sink.inline.join('\n'), ...(sink.spillPath ? { meta: { spillPath: sink.spillPath } } : {}) };
  }
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
