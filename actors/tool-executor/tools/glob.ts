import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { defineTool, EVERY_MODE } from './define-tool.js';
import { compileGlob } from '../files/glob-match.js';
import { lazy } from '../lazy.js';
import { path, string, type ArgsOf } from './params.js';
import { displayPath, resolveToolPath } from '../files/paths.js';
import { credentialAction, credentialsSkipped } from '../safety/credential-paths.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv, type ToolOutcome } from './tool-env.js';
import type { SpillLines } from '../files/spill.js';

export const GLOB_PAGE = 200;
/** The walk stops after this many entries (a home folder must not take minutes). */
export const GLOB_MAX_ENTRIES = 300_000;

/** The crawler is loaded on the first call (see lazy.ts). */
const crawler = lazy(() => import('../files/walk.js'));

const params = {
  pattern: string('Glob pattern, e.g. "src/**/*.test.ts".', { required: true, nonEmpty: true }),
  path: path('Folder to search in (default: the project root).', { required: false }),
};

/**
 * `glob{pattern, path?}`: files whose path (relative to `path`, default the project root) matches
 * the pattern, ignored paths skipped. Up to 200 are listed; past that a sample spread across the
 * top-level folders is shown with a count per folder, and the full list is spilled to a file:
 * written as the walk finds the paths (in its order: breadth-first, names sorted in a folder), so
 * a cancelled glob leaves what it found.
 */
export const globTool = defineTool({
  name: 'glob',
  description: 'Find files by path pattern: * matches within a folder, ** across folders, {a,b} alternatives. A pattern without "/" matches file names at any depth (e.g. "*.ts"). Ignored files are skipped; up to 200 paths, else a sample.',
  params,
  modes: EVERY_MODE,
  approval: 'never',
  guard: (args, env) => credentialAction('glob', 'searches', splitPattern(resolveToolPath(env.root, args.path ?? '.'), args.pattern).start),
  run: glob,
});

async function glob(args: ArgsOf<typeof params>, env: ToolEnv): Promise<ToolOutcome> {
  const { start, pattern } = splitPattern(resolveToolPath(env.root, args.path ?? '.'), args.pattern);
  const shownStart = displayPath(env.root, start);
  const info = await stat(start).catch((error: unknown) => {
    throw fsError(error, shownStart);
  });
  if (!info.isDirectory()) throw new ToolError('NOT_A_DIRECTORY', `${shownStart} is not a folder`);
  const matches = compileGlob(pattern);
  const found: { rel: string; shown: string }[] = [];
  // Past the first page the paths go to the spill file as the walk finds them (in its order).
  let spill: SpillLines | undefined;
  const { walk } = await crawler();
  const stats = await walk({ root: env.root, start, maxEntries: GLOB_MAX_ENTRIES, signal: env.signal }, (entry) => {
    if (entry.kind === 'directory' || !matches(entry.rel)) return;
    const path = { rel: entry.rel, shown: displayPath(env.root, entry.absolute) };
    found.push(path);
    if (spill) spill.line(path.shown);
    else if (found.length > GLOB_PAGE) {
      spill = env.spill.lines('glob');
      for (const earlier of found) spill.line(earlier.shown);
    }
  });
  await spill?.close();
  const spillPath = spill?.path;
  found.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  const where = args.path ? ` in ${shownStart}` : '';
  const notes: string[] = [];
  if (stats.stopped) notes.push(`the search stopped after ${GLOB_MAX_ENTRIES.toLocaleString('en-US')} entries; give a narrower path`);
  if (stats.unfiltered) notes.push(`${shownStart} is ignored by the project's rules but searched because it was named`);
  if (stats.credentials > 0) notes.push(credentialsSkipped(stats.credentials));
  const tail = notes.length > 0 ? `; ${notes.join('; ')}` : '';
  if (stats.aborted) {
    const spilled = spillPath ? `; the ${plural(found.length, 'path')} found so far are in ${spillPath}` : '';
    return { status: 'cancelled', summary: `glob "${args.pattern}" was cancelled${spilled}`, payload: found.slice(0, GLOB_PAGE).map((f) => f.shown).join('\n'), ...(spillPath ? { meta: { spillPath } } : {}) };
  }

  if (found.length === 0) {
    const hidden = stats.hidden > 0 ? ` (${plural(stats.hidden, 'ignored entry', 'ignored entries')} not searched)` : '';
    return { summary: `glob "${args.pattern}"${where}: no paths match${hidden}${tail}`, payload: '' };
  }
  if (found.length <= GLOB_PAGE) {
    return { summary: `glob "${args.pattern}"${where}: ${plural(found.length, 'path')}${tail}`, payload: found.map((f) => f.shown).join('\n') };
  }

  const groups = new Map<string, string[]>();
  for (const { rel, shown } of found) {
    const slash = rel.indexOf('/');
    const top = slash === -1 ? '.' : rel.slice(0, slash);
    let group = groups.get(top);
    if (!group) groups.set(top, (group = []));
    group.push(shown);
  }
  const sample = new Set<string>();
  for (let round = 0; sample.size < GLOB_PAGE; round++) {
    let added = false;
    for (const group of groups.values()) {
      if (round < group.length && sample.size < GLOB_PAGE) {
        sample.add(group[round]!);
        added = true;
      }
    }
    if (!added) break;
  }
  const spilled = spillPath ?? '';
  const counts = [...groups].map(([top, group]) => `  ${top === '.' ? '(top level)' : `${top}/`}: ${group.length.toLocaleString('en-US')}`);
  const payload = [...[...sample].sort(), '', `${plural(found.length, 'path')} by top-level folder:`, ...counts, `The full list is in ${spilled}.`].join('\n');
  return {
    summary: `glob "${args.pattern}"${where}: ${plural(found.length, 'path')}; showing a sample of ${sample.size} across ${plural(groups.size, 'top-level folder')}; full list in ${spilled}${tail}`,
    payload,
    meta: { spillPath: spilled },
  };
}

/**
 * An absolute pattern starts the walk at its literal folder prefix (`/repo/src` of
 * `/repo/src/**` + `/*.ts`) and matches the rest, so absolute patterns mean what models expect.
 */
function splitPattern(start: string, pattern: string): { start: string; pattern: string } {
  if (!isAbsolute(pattern)) return { start, pattern };
  const parts = pattern.split('/');
  let literal = 0;
  while (literal < parts.length - 1 && !/[*?[\]{}]/.test(parts[literal]!)) literal++;
  return { start: parts.slice(0, literal).join('/') || '/', pattern: parts.slice(literal).join('/') };
}
