import test from 'ava';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO as repo, sourceFiles } from '../helpers/source-files.js';

/**
 * The indexer's layout (STYLE.md): `workers/` holds only the indexer threads' entry files, which
 * import the logic under `actors/indexer/`; nothing imports a thread entry, and the imports among
 * the indexer's files (and of the tools that share its crawler) only go one way: no cycles.
 * Read from the TypeScript sources, so type-only imports count too.
 */



/** The repository-relative `.ts` files a source file imports (static, dynamic, re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)\.js'/gm)) {
    found.add(relative(repo, resolve(repo, dirname(file), `${match[1]}.ts`)).split('\\').join('/'));
  }
  return [...found];
}

const all = ['actors', 'cli', 'runtime', 'workers', 'bench'].flatMap(sourceFiles);

test('workers/ holds only thread entries, each started by its URL from actors/indexer or loaded by a CommonJS loader beside it', (t) => {
  const entries = sourceFiles('workers');
  t.true(entries.length > 0);
  const starters = sourceFiles('actors/indexer').map((file) => readFileSync(join(repo, file), 'utf8')).join('\n');
  const loaders = entries.filter((file) => file.endsWith('.cts')).map((file) => readFileSync(join(repo, file), 'utf8')).join('\n');
  for (const entry of entries) {
    const name = entry.slice('workers/'.length).replace(/\.ts$/, '.js').replace(/\.cts$/, '.cjs');
    const started = starters.includes(`new URL('../../workers/${name}', import.meta.url)`) || loaders.includes(`import('./${name}')`);
    t.true(started, `${entry} is not a thread entry`);
  }
});

test('no source file imports a thread entry (but its loader)', (t) => {
  const offenders = all.filter((file) => !file.endsWith('.cts') && importsOf(file).some((target) => target.startsWith('workers/')));
  t.deepEqual(offenders, []);
});

test('the indexer and the tools that share its crawler import without cycles', (t) => {
  const scope = all.filter((file) => file.startsWith('actors/indexer/') || file.startsWith('workers/') || importsOf(file).some((target) => target.startsWith('actors/indexer/')));
  const graph = new Map(scope.map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  t.deepEqual(cycles, []);
  t.true(graph.size > 20, 'the graph was read');
});

test('the tool executor takes crawling and ignore code from one home, actors/indexer/crawl/, and threads from the indexer pool', (t) => {
  const edges = sourceFiles('actors/tool-executor').flatMap((file) => importsOf(file).filter((target) => target.startsWith('actors/indexer/')).map((target) => `${file} → ${target}`));
  t.true(edges.length > 0, 'the tools use the indexer\'s crawler');
  // grep's walk path reads its files in indexer threads (files/search/search-pool.ts): the pool class, nothing else.
  t.deepEqual(edges.filter((edge) => !edge.includes('→ actors/indexer/crawl/') && !edge.endsWith('→ actors/indexer/pool.ts')), []);
});
