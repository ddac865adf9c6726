import test from 'ava';
import { tmuxMissing } from '../../helpers/tmux.js';
import { describeTerminal, startReika, TERMINALS } from './reika-term.js';

/** The answer's Markdown in a real terminal, at 80×24 and 120×35, with and without NO_COLOR. */

const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

const ANSWER = [
  '## Findings',
  'Read [the docs](https://example.com/docs) before **changing** `main`.',
  '> Quoted advice that is long enough to wrap on an eighty column terminal, so its second row shows whether the quote goes on.',
  '',
  '| file | lines | role |',
  '|------|------:|------|',
  '| src/app.ts | 12 | entry |',
  '| src/a-much-longer-name.ts | 3400 | helpers |',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
  'end of answer',
].join('\n');

for (const terminal of TERMINALS) {
  maybe(`the answer's Markdown: code highlighted, links, quotes and tables readable (${describeTerminal(terminal)})`, async (t) => {
    const { term } = await startReika(t, terminal, [{ content: ANSWER }]);
    term.type('report');
    term.keys('Enter');
    // The answer's last line shows live at once; the code block above it is printed only once the
    // highlighter (loaded on the first fence) has coloured it, so wait for the code row itself.
    const screen = await term.waitFor((shown) => /\nconst answer: number = 42; \/\/ the answer\n/.test(shown) && shown.includes('end of answer'));
    const rows = screen.split('\n');
    for (const row of rows) t.true(row.length < terminal.width, `fits: ${row}`);
    t.regex(screen, /\| src\/app\.ts +\| +12 \| entry +\|/, 'the table is aligned');
    const tableRows = rows.filter((row) => row.startsWith('| src/') || row.startsWith('| file'));
    t.is(tableRows.length, 3);
    t.is(new Set(tableRows.map((row) => row.indexOf('|', 1))).size, 1, `the pipes line up:\n${tableRows.join('\n')}`);
    t.regex(screen, /\nconst answer: number = 42; \/\/ the answer\n/, 'the code reads as written');
    // With the scrollback the wait looked at: under load a late line above (the index's note) can
    // push the code row off a 24-row screen.
    const escapes = term.captureEscapes(200);
    const codeRow = escapes.split('\n').find((row) => row.includes('answer') && row.includes('42'))!;
    if (terminal.noColor) {
      t.regex(screen, /\n## Findings\n/, 'the heading as written');
      t.regex(screen, /Read \[the docs\]\(https:\/\/example\.com\/docs\) before \*\*changing\*\* `main`\./, 'the line as the model wrote it');
      t.regex(screen, /\n> Quoted advice .*\n> /, 'every row of the quote keeps its >');
      t.regex(screen, /\n```ts\n/);
      t.notRegex(escapes, /\x1b\[[0-9;]*m/, 'not one colour or attribute');
    } else {
      t.regex(screen, /\nFindings\n/, 'the heading without its #');
      t.regex(screen, /Read the docs \(https:\/\/example\.com\/docs\) before changing main\./, 'a link as text (url) where hyperlinks are not known to work');
      t.regex(screen, /\n│ Quoted advice .*\n│ /, 'every row of the quote under its bar');
      t.regex(codeRow, /\x1b\[35m(\x1b\[[0-9;]*m)*const/, `the keyword is coloured: ${JSON.stringify(codeRow)}`);
      t.regex(codeRow, /\x1b\[2m(\x1b\[[0-9;]*m)*\/\/ the answer/, 'the comment is dimmed');
    }
  });
}
