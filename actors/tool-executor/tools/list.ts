import { stat } from 'node:fs/promises';
import { defineTool, EVERY_MODE } from './define-tool.js';
import { lazy } from '../lazy.js';
import { integer, path, type ArgsOf } from './params.js';
import { displayPath, resolveToolPath } from '../files/paths.js';
import { credentialAction, credentialsSkipped } from '../safety/credential-paths.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv, type ToolOutcome } from './tool-env.js';
import type { WalkEntry } from '../files/walk.js';

export const LIST_MAX_ENTRIES = 500;
export const LIST_DEFAULT_DEPTH = 2;
/** Past the shown entries the walk goes on this far, only to count. */
const COUNT_LIMIT = 20_000;

/** The crawler is loaded on the first call (see lazy.ts). */
const crawler = lazy(() => import('../files/walk.js'));

const params = {
  path: path('Folder to list (default: the project root).', { required: false }),
  depth: integer('How many levels deep (1-5, default 2).', { min: 1, max: 5 }),
};

/**
 * `list{path?, depth?}`: one folder as an indented tree, breadth-first so a cut keeps the
 * shallow entries; says how many entries the ignore rules hid.
 */
export const listTool = defineTool({
  name: 'list',
  description: 'List a folder as an indented tree (folders end in "/"). Skips files ignored by .gitignore and says how many were hidden; at most 500 entries.',
  params,
  modes: EVERY_MODE,
  approval: 'never',
  guard: (args, env) => credentialAction('list', 'lists', resolveToolPath(env.root, args.path ?? '.')),
  run: list,
});

async function list(args: ArgsOf<typeof params>, env: ToolEnv): Promise<ToolOutcome> {
  const start = resolveToolPath(env.root, args.path ?? '.');
  const shown = displayPath(env.root, start);
  const info = await stat(start).catch((error: unknown) => {
    throw fsError(error, shown);
  });
  if (!info.isDirectory()) throw new ToolError('NOT_A_DIRECTORY', `${shown} is a file, not a folder (use read to see it)`);
  const depth = args.depth ?? LIST_DEFAULT_DEPTH;
  const kept: WalkEntry[] = [];
  const { walk } = await crawler();
  const stats = await walk({ root: env.root, start, maxDepth: depth, maxEntries: COUNT_LIMIT, signal: env.signal }, (entry) => {
    if (kept.length < LIST_MAX_ENTRIES) kept.push(entry);
  });

  const lines = render(kept);
  const parts = [`list ${shown} (depth ${depth}): ${plural(stats.visited, 'entry', 'entries')}${stats.stopped ? '+' : ''}`];
  if (stats.hidden > 0) parts.push(`${stats.hidden.toLocaleString('en-US')} hidden by ignore rules`);
  if (stats.visited > kept.length) parts.push(`showing the first ${kept.length} (shallowest first); list a subfolder to see more`);
  if (stats.unfiltered) parts.push(`${shown} is ignored by the project's rules but listed because it was named`);
  if (stats.credentials > 0) parts.push(credentialsSkipped(stats.credentials));
  if (stats.unreadable > 0) parts.push(`${plural(stats.unreadable, 'folder')} could not be read`);
  if (stats.aborted) return { status: 'cancelled', summary: `list ${shown} was cancelled`, payload: lines.join('\n') };
  return { summary: parts.join('; '), payload: lines.length > 0 ? lines.join('\n') : '(empty folder)', meta: { path: start } };
}

/** An indented tree: folders end in `/`, symlinks in `@`; children follow their folder. */
function render(entries: WalkEntry[]): string[] {
  const sorted = [...entries].sort((a, b) => compareParts(a.rel.split('/'), b.rel.split('/')));
  return sorted.map((entry) => {
    const name = entry.rel.slice(entry.rel.lastIndexOf('/') + 1);
    const suffix = entry.kind === 'directory' ? '/' : entry.kind === 'symlink' ? '@' : '';
    return `${'  '.repeat(entry.depth - 1)}${name}${suffix}`;
  });
}

function compareParts(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}
