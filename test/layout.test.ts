import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO as repo, sourceFiles } from './helpers/source-files.js';

// The rooms of the source tree and the one direction imports run between them (STYLE.md, "The
// layout is the architecture"; docs/architecture.md). Read from the TypeScript sources, so
// type-only imports count too.


/**
 * Bottom to top: a file may import from its own room or a room listed before it, never after.
 * `actors` is the shared files at the root of actors/. A new actor folder takes its place here.
 */
const ROOMS = [
  'runtime',
  'actors',
  'actors/settings',
  'actors/approver',
  'actors/editor-files',
  'actors/hooks',
  'actors/lsp',
  'actors/model-io',
  'actors/indexer',
  'actors/prompt',
  'actors/images',
  'actors/context',
  'actors/tool-executor',
  'actors/mcp',
  'actors/config',
  'actors/agent',
  'actors/subagent',
  'actors/transcript',
  'actors/session',
  'workers',
  'cli',
] as const;

/** Upward imports still to be removed, each named (none today: add one only with a reason). */
const KNOWN_UPWARD = new Set<string>([]);


/** The repository-relative `.ts` files a source file imports (static, dynamic, re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)\.c?js'/gm)) {
    found.add(relative(repo, resolve(repo, dirname(file), `${match[1]}.ts`)).split('\\').join('/'));
  }
  return [...found];
}

/** The room a file lives in: its top folder, or its actor's folder. */
function roomOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'actors' && parts.length > 2 ? `actors/${parts[1]}` : parts[0]!;
}

const all = ['runtime', 'actors', 'workers', 'cli'].flatMap(sourceFiles);
const rank = new Map<string, number>(ROOMS.map((room, index) => [room, index]));

test('every source folder is a room with a place in the order', (t) => {
  const unplaced = [...new Set(all.map(roomOf))].filter((room) => !rank.has(room));
  t.deepEqual(unplaced, [], 'add the new folder to ROOMS, above what it imports');
});

test('imports run only downward across rooms', (t) => {
  const upward: string[] = [];
  for (const file of all) {
    for (const target of importsOf(file)) {
      const from = rank.get(roomOf(file));
      const to = rank.get(roomOf(target));
      if (from === undefined || to === undefined || to <= from) continue;
      const edge = `${file} → ${target}`;
      if (!KNOWN_UPWARD.has(edge)) upward.push(edge);
    }
  }
  t.deepEqual(upward, []);
});

test('the known upward imports are still there (remove one from the list when it is gone)', (t) => {
  const edges = new Set(all.flatMap((file) => importsOf(file).map((target) => `${file} → ${target}`)));
  t.deepEqual([...KNOWN_UPWARD].filter((edge) => !edges.has(edge)), []);
});

test('each actor address is declared in the protocol.ts of its own folder', (t) => {
  const misplaced: string[] = [];
  for (const file of all) {
    const text = readFileSync(join(repo, file), 'utf8');
    const addresses = [...text.matchAll(/^export const (\w+) = actorAddress</gm)].map((match) => match[1]!);
    if (addresses.length === 0) continue;
    const home = file.startsWith('runtime/') || /^actors\/[^/]+\/protocol\.ts$/.test(file);
    if (!home || addresses.length > 1) misplaced.push(`${file}: ${addresses.join(', ')}`);
  }
  t.deepEqual(misplaced, []);
});

test('the big actors keep their roles in folders: a handful of files at their root', (t) => {
  for (const actor of ['actors/tool-executor', 'actors/model-io']) {
    const root = readdirSync(join(repo, actor), { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
    t.true(root.length <= 10, `${actor} has ${root.length} files at its root: put them in the folder of their role`);
  }
});

test('the rule reads the tree: rooms and imports were found', (t) => {
  t.true(all.length > 200);
  t.true(all.some((file) => importsOf(file).some((target) => roomOf(target) === 'runtime')));
});
