import test from 'ava';
import type { FileSymbols } from '../../../../actors/indexer/map/extract.js';
import { hashIdentifier } from '../../../../actors/indexer/map/identifiers.js';
import { rankFiles } from '../../../../actors/indexer/map/rank.js';

/** A file that defines `exported` (and `internal`) and mentions the space-separated `references`. */
const file = (path: string, exported: string, references: string, internal = '', generated = false): FileSymbols => ({
  path,
  exported,
  internal,
  references: Int32Array.from(references.split(' ').filter(Boolean), hashIdentifier),
  generated,
});

const order = (files: FileSymbols[]) => rankFiles(files).map((ranked) => ranked.path);

test('a file whose definitions others mention ranks above the files that mention them', (t) => {
  const files = [
    file('src/app.ts', 'startApplication', 'loadSettings openDatabase startApplication'),
    file('src/db.ts', 'openDatabase', 'loadSettings openDatabase'),
    file('src/settings.ts', 'loadSettings', 'loadSettings'),
  ];
  t.deepEqual(order(files), ['src/settings.ts', 'src/db.ts', 'src/app.ts']);
  const [first] = rankFiles(files);
  t.deepEqual(first, { path: 'src/settings.ts', score: first!.score, symbols: ['loadSettings'] });
});

test('files nobody mentions tie, and ties go by path whatever the input order', (t) => {
  const files = [file('b.ts', 'beta', ''), file('a.ts', 'alpha', ''), file('c/a.ts', 'gamma', '')];
  t.deepEqual(order(files), ['a.ts', 'b.ts', 'c/a.ts']);
  t.deepEqual(order([...files].reverse()), ['a.ts', 'b.ts', 'c/a.ts']);
  const scores = rankFiles(files).map((ranked) => ranked.score);
  t.deepEqual(new Set(scores).size, 1);
});

test('a long, specific name outweighs short common ones', (t) => {
  const callers = Array.from({ length: 6 }, (_, i) => file(`src/caller${i}.ts`, `caller${i}Handler`, 'load save read parseInvoiceLines'));
  const files = [...callers, file('src/common.ts', 'load save read', ''), file('src/invoice.ts', 'parseInvoiceLines', '')];
  t.deepEqual(order(files).slice(0, 2), ['src/invoice.ts', 'src/common.ts']);
});

test('a name defined in many files says little about each of them', (t) => {
  const definers = Array.from({ length: 8 }, (_, i) => file(`plugins/p${i}.ts`, 'registerPlugin', ''));
  const files = [...definers, file('src/core.ts', 'createKernel', ''), file('src/main.ts', 'main', 'registerPlugin createKernel')];
  t.is(order(files)[0], 'src/core.ts');
});

test('a file that defines a name itself is not taken to mean another file’s', (t) => {
  const files = [file('a.ts', 'formatReport', 'formatReport'), file('b.ts', 'formatReport', 'formatReport'), file('c.ts', 'buildReport', 'buildReport')];
  const ranked = rankFiles(files);
  t.deepEqual(new Set(ranked.map((r) => r.score)).size, 1, 'no file voted for another');
});

test('private definitions still draw edges, with less weight than exported ones', (t) => {
  const files = [
    file('pkg/a.go', '', 'helperFunction', '', false),
    file('pkg/b.go', '', '', 'helperFunction'),
    file('pkg/c.go', 'HelperFunction', ''),
    file('pkg/d.go', '', 'HelperFunction'),
  ];
  const scores = Object.fromEntries(rankFiles(files).map((r) => [r.path, r.score]));
  t.true(scores['pkg/b.go']! > scores['pkg/a.go']!);
  t.true(scores['pkg/c.go']! > scores['pkg/b.go']!);
});

test('tests and generated files do not outrank the core they use', (t) => {
  const tests = Array.from({ length: 10 }, (_, i) => file(`test/case${i}.test.ts`, '', 'createTestHarness computeTotals'));
  const files = [
    ...tests,
    file('test/helpers/harness.ts', 'createTestHarness', ''),
    file('src/generated/api.ts', 'apiClientFactory', ''),
    file('src/totals.ts', 'computeTotals', 'apiClientFactory'),
    file('src/cli.ts', 'main', 'computeTotals'),
  ];
  t.deepEqual(order(files).slice(0, 2), ['src/totals.ts', 'src/cli.ts']);
});

test('a file others import outranks one that only shares the names they mention', (t) => {
  // Both define `createStore`; only one is imported, as a parser would see.
  const importer = (i: number): FileSymbols => ({ ...file(`src/view${i}.ts`, `View${i}`, 'createStore'), imports: './store/index' });
  const files = [...Array.from({ length: 4 }, (_, i) => importer(i)), file('src/store/index.ts', 'createStore', ''), file('legacy/store.ts', 'createStore', '')];
  const ranked = order(files);
  t.is(ranked[0], 'src/store/index.ts');
  t.true(ranked.indexOf('src/store/index.ts') < ranked.indexOf('legacy/store.ts'));
});

test('a barrel that re-exports passes its rank on to the modules behind it', (t) => {
  const users = Array.from({ length: 5 }, (_, i): FileSymbols => ({ ...file(`app/page${i}.ts`, `Page${i}`, ''), imports: '@acme/common' }));
  const files = [
    ...users,
    { ...file('packages/common/src/index.ts', '', ''), imports: './color ./point' },
    file('packages/common/src/color.ts', 'mixColors', ''),
    file('packages/common/src/point.ts', 'pointDistance', ''),
    { ...file('packages/common/src/unused.ts', 'neverImported', ''), imports: '' },
  ];
  const ranked = order(files);
  // As PageRank over the real import graph has it: the barrel first, then what it re-exports.
  t.deepEqual(ranked.slice(0, 3), ['packages/common/src/index.ts', 'packages/common/src/color.ts', 'packages/common/src/point.ts']);
  t.true(ranked.indexOf('packages/common/src/unused.ts') > 3);
});

test('imports keep the ranking deterministic: the same files in any order give the same scores', (t) => {
  const files = [
    { ...file('a/x.py', 'load_config', 'parse_value'), imports: 'a/y|a' },
    { ...file('a/y.py', 'parse_value', ''), imports: '. ./z|./' },
    { ...file('a/z.py', 'ZONE', 'load_config'), imports: 'a/x' },
    file('a/__init__.py', '', ''),
  ];
  t.deepEqual(rankFiles([...files].reverse()), rankFiles(files));
});

test('a module many files import directly outranks one deep behind a barrel that is imported as often', (t) => {
  // PageRank alone puts deep.ts (all the barrel's rank) above button.ts, whose importers each
  // import five other modules too; counting importers puts the module six files use first.
  const pages = Array.from({ length: 6 }, (_, i): FileSymbols => ({ ...file(`app/page${i}.ts`, `Page${i}`, ''), imports: '../lib/barrel' }));
  const forms = Array.from({ length: 6 }, (_, i): FileSymbols => ({
    ...file(`app/form${i}.ts`, `Form${i}`, ''),
    imports: ['../ui/button', ...Array.from({ length: 5 }, (_, k) => `./parts/form${i}part${k}`)].join(' '),
  }));
  const parts = forms.flatMap((_, i) => Array.from({ length: 5 }, (_, k): FileSymbols => ({ ...file(`app/parts/form${i}part${k}.ts`, `Part${i}x${k}`, ''), imports: '' })));
  const files = [
    ...pages,
    ...forms,
    ...parts,
    { ...file('lib/barrel/index.ts', '', ''), imports: './deep' },
    { ...file('lib/barrel/deep.ts', 'deepHelper', ''), imports: '' },
    { ...file('ui/button.ts', 'Button', ''), imports: '' },
  ];
  const ranked = order(files);
  t.is(ranked[0], 'lib/barrel/index.ts');
  t.true(ranked.indexOf('ui/button.ts') < ranked.indexOf('lib/barrel/deep.ts'), ranked.slice(0, 4).join(' '));
});
