import test from 'ava';
import { readFileSync } from 'node:fs';

/**
 * The README's startup promise quotes the bench table: each millisecond figure in it is one the
 * table's startup rows (spawn → …) hold, measured or reference, and it names the date of the
 * table's run. A new table run that changes those rows fails here until the prose follows.
 */

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The `## Benchmarks` section: its intro and its table. */
function benchSection(): { intro: string; rows: string[] } {
  const start = readme.indexOf('\n## Benchmarks\n');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const lines = section.split('\n');
  return { intro: lines.filter((line) => !line.startsWith('|')).slice(0, 6).join('\n'), rows: lines.filter((line) => line.startsWith('| ') && !line.startsWith('| figure') && !line.startsWith('|---')) };
}

/** The numbers of a text (`1,485` → 1485; `130 / 132` → 130, 132; `70–80` → 70, 80). */
function numbers(text: string): number[] {
  return [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((match) => Number(match[0].replace(/,/g, '')));
}

test('the README’s startup promise quotes the bench table’s spawn rows and the date of their run', (t) => {
  const { intro, rows } = benchSection();
  const spawnRows = rows.filter((row) => /^\| spawn → /.test(row));
  t.true(spawnRows.length >= 3, 'the table has its spawn → prompt and spawn → first request rows');
  // Measured and reference cells (the target column is not a measurement).
  const measured = new Set(spawnRows.flatMap((row) => row.split('|').slice(2, 4).flatMap(numbers)));
  const promise = /\n2\. \*\*The terminal never freezes\.\*\*([\s\S]*?)\n\n/.exec(readme)?.[1];
  t.truthy(promise, 'the README still makes its second promise');
  const figures = [...promise!.matchAll(/(\d[\d,.]*)(?:\s*[–-]\s*(\d[\d,.]*))?\s*ms\b/g)].flatMap((match) => [match[1], match[2]].filter((n): n is string => n !== undefined).map((n) => Number(n.replace(/,/g, ''))));
  t.true(figures.length > 0, 'the promise says how soon, in ms');
  for (const figure of figures) t.true(measured.has(figure), `${figure} ms in the promise is not a figure of the table's spawn rows (${[...measured].join(', ')})`);
  const date = /\d{4}-\d\d-\d\d/.exec(intro)?.[0];
  t.truthy(date, 'the table says when it was run');
  t.true(promise!.includes(date!), `the promise names the run's date (${date})`);
});
