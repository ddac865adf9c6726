import { readFile, stat } from 'node:fs/promises';
import { defineTool, EVERY_MODE } from './define-tool.js';
import { compileGlob } from '../files/glob-match.js';
import { lazy } from '../lazy.js';
import { boolean, path, string, type ArgsOf } from './params.js';
import { displayPath, resolveToolPath } from '../files/paths.js';
import { decodeText, forEachLine, looksBinary, sniffBinary, stripCr } from '../files/text-file.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv, type ToolOutcome } from './tool-env.js';
import type { UserRegex } from '../files/user-regex.js';

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

/** The crawler and the regex engine are loaded on the first call (see lazy.ts). */
const crawler = lazy(() => import('../files/walk.js'));
const engine = lazy(() => import('../files/user-regex.js'));

const params = {
  pattern: string('Regular expression (JavaScript syntax without lookaround or backreferences), e.g. "function\\\\s+load".', { required: true }),
  path: path('Folder or file to search (default: the project root).', { required: false }),
  glob: string('Only files matching this glob, e.g. "*.py".', { required: false, nonEmpty: true }),
  ignore_case: boolean('Case-insensitive search.'),
};

/**
 * `grep{pattern, path?, glob?, ignore_case?}`: a JavaScript regular expression over the project's
 * non-ignored text files (or one named file, e.g. a spill file). Binary files are skipped. The
 * first 100 matches are inline; all of them are spilled to a file that read and grep can open.
 */
export const grepTool = defineTool({
  name: 'grep',
  description: 'Search file contents with a regular expression (linear-time RE2: JavaScript syntax without lookaround or backreferences). Returns "path:line: text" for up to 100 matches; more are saved to a file you can read. Skips binary and ignored files.',
  params,
  modes: EVERY_MODE,
  approval: 'never',
  run: grep,
});

async function grep(args: ArgsOf<typeof params>, env: ToolEnv): Promise<ToolOutcome> {
  const regex = (await engine()).compileUserRegex(args.pattern, args.ignore_case ?? false);
  const start = resolveToolPath(env.root, args.path ?? '.');
  const shownStart = displayPath(env.root, start);
  const info = await stat(start).catch((error: unknown) => {
    throw fsError(error, shownStart);
  });

  const files: string[] = [];
  let walkNote = '';
  let aborted = false;
  if (info.isDirectory()) {
    const wanted = args.glob ? compileGlob(args.glob) : () => true;
    const { walk } = await crawler();
    const stats = await walk({ root: env.root, start, maxEntries: GREP_MAX_ENTRIES, signal: env.signal }, (entry) => {
      if (entry.kind === 'file' && wanted(entry.rel)) files.push(entry.absolute);
    });
    aborted = stats.aborted;
    if (stats.stopped) walkNote = `; the file walk stopped after ${GREP_MAX_ENTRIES.toLocaleString('en-US')} entries, give a narrower path`;
    if (stats.unfiltered) walkNote += `; ${shownStart} is ignored by the project's rules but searched because it was named`;
  } else if (info.isFile()) {
    files.push(start);
  } else {
    throw new ToolError('NOT_A_FILE', `${shownStart} is neither a file nor a folder`);
  }

  const matches: string[] = [];
  const filesWithMatches = new Set<string>();
  let binary = 0;
  let unreadable = 0;
  let full = false;
  for (let i = 0; i < files.length && !full && !aborted; i += PARALLEL_FILES) {
    const batch = files.slice(i, i + PARALLEL_FILES);
    const results = await Promise.all(batch.map((file) => searchFile(file, regex, env.signal)));
    for (let j = 0; j < batch.length; j++) {
      const result = results[j]!;
      if (result === 'binary') binary++;
      else if (result === 'unreadable') unreadable++;
      else if (result.length > 0) {
        const shown = displayPath(env.root, batch[j]!);
        filesWithMatches.add(shown);
        for (const [line, text] of result) {
          if (matches.length >= GREP_MAX_MATCHES) {
            full = true;
            break;
          }
          matches.push(`${shown}:${line}: ${text}`);
        }
      }
    }
    if (env.signal.aborted) aborted = true;
  }
  if (files.length === 1 && info.isFile() && binary === 1) throw new ToolError('BINARY_FILE', `${shownStart} is a binary file; grep searches text files only`);
  if (files.length === 1 && info.isFile() && unreadable === 1) throw new ToolError('PERMISSION_DENIED', `${shownStart} could not be read`);

  const label = `grep /${args.pattern}/${args.ignore_case ? 'i' : ''}${args.path ? ` in ${shownStart}` : ''}${args.glob ? ` (${args.glob})` : ''}`;
  const skipped = [
    binary > 0 ? `${plural(binary, 'binary file')} skipped` : '',
    unreadable > 0 ? `${plural(unreadable, 'unreadable file')} skipped` : '',
  ].filter(Boolean);
  const skippedNote = skipped.length > 0 ? `; ${skipped.join(', ')}` : '';
  if (aborted) return { status: 'cancelled', summary: `${label} was cancelled after ${plural(matches.length, 'match', 'matches')}`, payload: matches.slice(0, GREP_INLINE).join('\n') };
  if (matches.length === 0) {
    return { summary: `${label}: no matches in ${plural(files.length, 'file')}${skippedNote}${walkNote}`, payload: '' };
  }
  const counted = `${plural(matches.length, 'match', 'matches')}${full ? '+' : ''} in ${plural(filesWithMatches.size, 'file')}`;
  if (matches.length <= GREP_INLINE) {
    return { summary: `${label}: ${counted}${skippedNote}${walkNote}`, payload: matches.join('\n') };
  }
  const spillPath = await env.spill.write('grep', matches.join('\n') + '\n');
  const stop = full ? ` (the search stopped at ${GREP_MAX_MATCHES.toLocaleString('en-US')} matches)` : '';
  return {
    summary: `${label}: ${counted}; first ${GREP_INLINE} shown, all in ${spillPath}${stop}${skippedNote}${walkNote}`,
    payload: `${matches.slice(0, GREP_INLINE).join('\n')}\n… ${plural(matches.length - GREP_INLINE, 'more match', 'more matches')} in ${spillPath} (read or grep it)`,
    meta: { spillPath },
  };
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
