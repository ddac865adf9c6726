import test from 'ava';
import { MAX_REPO_MAP_TOKENS, MIN_REPO_MAP_TOKENS, repoMapBudget } from '../../../actors/indexer/budget.js';
import { lineOf, MAX_SYMBOLS_PER_LINE, omittedLine, renderRepoMap } from '../../../actors/indexer/repo-map.js';
import type { RepoMapFile } from '../../../actors/indexer/protocol.js';

test('the budget is 5% of the context window within 3,200–12,000 tokens (from 1,600 under a 32k window), 3,200 when the window is unknown', (t) => {
  t.is(repoMapBudget(), MIN_REPO_MAP_TOKENS);
  t.is(repoMapBudget(undefined), 3_200);
  t.is(repoMapBudget(8_192), 1_600);
  t.is(repoMapBudget(16_384), 1_600);
  t.is(repoMapBudget(32_767), 1_638);
  t.is(repoMapBudget(32_768), 3_200);
  t.is(repoMapBudget(131_072), 6_553);
  t.is(repoMapBudget(1_000_000), MAX_REPO_MAP_TOKENS);
  t.is(repoMapBudget(0), 3_200);
});

test('a pinned budget wins over the window, even outside the clamp', (t) => {
  t.is(repoMapBudget(131_072, 500), 500);
  t.is(repoMapBudget(undefined, 50_000), 50_000);
  t.is(repoMapBudget(131_072, 0), 0);
});

const file = (path: string, symbols: string[], score = 1): RepoMapFile => ({ path, score, symbols });

test('a line is the path and its names, or the path alone; long lists are counted, not printed', (t) => {
  t.is(lineOf(file('src/a.ts', ['alpha', 'beta'])), 'src/a.ts: alpha, beta');
  t.is(lineOf(file('scripts/run.sh', [])), 'scripts/run.sh');
  const many = Array.from({ length: MAX_SYMBOLS_PER_LINE + 5 }, (_, i) => `name${i}`);
  t.is(lineOf(file('big.ts', many)), `big.ts: ${many.slice(0, MAX_SYMBOLS_PER_LINE).join(', ')}, … (+5)`);
});

test('the map takes whole lines in rank order while they fit, then says how many files it left out', (t) => {
  const files = [file('a.ts', ['one']), file('b.ts', ['two']), file('c.ts', ['three']), file('d.ts', ['four'])];
  const all = renderRepoMap(files, 100);
  t.is(all.text, 'a.ts: one\nb.ts: two\nc.ts: three\nd.ts: four');
  t.is(all.omitted, 0);
  t.is(all.files, files);
  t.is(all.budgetTokens, 100);
  // 12 tokens = 48 characters: two lines (20) plus the closing line must fit.
  const cut = renderRepoMap(files, 12);
  t.is(cut.text, 'a.ts: one\nb.ts: two\n… 2 more files not shown');
  t.true(cut.text.length <= 48);
  t.is(cut.omitted, 2);
  const one = renderRepoMap(files.slice(0, 3), 9);
  t.is(one.text, 'a.ts: one\n… 2 more files not shown');
  t.is(omittedLine(1), '… 1 more file not shown');
});

test('the last file needs no room for a closing line, and the text never exceeds the budget', (t) => {
  const files = [file('a.ts', ['one']), file('b.ts', ['two'])];
  t.is(renderRepoMap([file('a.ts', ['one'])], 3).text, 'a.ts: one');
  // 6 tokens = 24 characters: no line fits beside the closing line, which fits alone.
  t.deepEqual({ ...renderRepoMap(files, 6), files: [] }, { text: '… 2 more files not shown', files: [], omitted: 2, budgetTokens: 6 });
  t.is(renderRepoMap(files, 5).text, '');
  t.is(renderRepoMap(files, 0).text, '');
  t.is(renderRepoMap(files, 0).omitted, 2);
  t.is(renderRepoMap([], 3_200).text, '');
});
