import test from 'ava';
import { CodeHighlighter } from '../../../cli/tui/markdown/code-highlight.js';
import { hyperlinksSupported } from '../../../cli/tui/markdown/hyperlinks.js';
import { MarkdownLines } from '../../../cli/tui/markdown/markdown-lines.js';
import { StreamText } from '../../../cli/tui/stream-text.js';
import { createStyle, stripAnsi } from '../../../cli/tui/style.js';
import { textWidth } from '../../../cli/tui/text-width.js';

/** The answer's Markdown at 80 columns, with colour and without; the highlighter is the real one. */

const color = createStyle(true);
const plain = createStyle(false);
const ESC = /\x1b/;

function render(lines: string[], options: { color?: boolean; hyperlinks?: boolean; columns?: number; highlighter?: CodeHighlighter } = {}): string[] {
  const markdown = new MarkdownLines({ style: options.color === false ? plain : color, hyperlinks: options.hyperlinks ?? false, ...(options.highlighter ? { highlighter: options.highlighter } : {}) });
  const columns = options.columns ?? 80;
  return [...lines.flatMap((line) => markdown.push(line, columns)), ...markdown.flush(columns)];
}

test('inline Markdown: bold, code and headings are painted, the markers go', (t) => {
  t.deepEqual(render(['use **bold** and `code`', '## Title']), ['use \x1b[1mbold\x1b[22m and \x1b[36mcode\x1b[39m', '\x1b[1mTitle\x1b[22m']);
  t.deepEqual(render(['a *stressed* word, 2 * 3 * 4, snake_case_name and a lone ` tick']).map(stripAnsi), ['a stressed word, 2 * 3 * 4, snake_case_name and a lone ` tick']);
});

test('a line of markers that open nothing renders in one pass: 200,000 `_a` words keep their underscores (each opener searched the rest of the line for a closer: ~200 s)', (t) => {
  const line = '_a '.repeat(200_000).trim();
  const rows = render([line], { columns: 80 }).map(stripAnsi);
  t.is(rows.join(' ').replace(/\s+/g, ' '), line);
});

test('a URL or a heading with a long run of punctuation or spaces renders in one pass (trailing-run regexes were quadratic)', (t) => {
  const url = `https://a${'.'.repeat(400_000)}x`;
  t.is(render([`see ${url}`], { color: false }).join('').replace(/\s/g, ''), `see${url}`);
  const heading = render([`## a${' '.repeat(400_000)}b ##`]).map(stripAnsi);
  t.is(heading.join(' ').replace(/\s+/g, ' '), 'a b');
  t.deepEqual(render(['## Title ##', '# C#', '### x #y']).map(stripAnsi), ['Title', 'C#', 'x #y']);
});

test('a link is its text as an OSC 8 hyperlink where the terminal shows them, else text (url)', (t) => {
  const line = 'see [the docs](https://example.com/docs) or https://example.com/x.';
  const [fallback] = render([line]);
  t.is(stripAnsi(fallback!), 'see the docs (https://example.com/docs) or https://example.com/x.');
  t.notRegex(fallback!, /\x1b\]8;/);
  const [linked] = render([line], { hyperlinks: true });
  t.true(linked!.includes('\x1b]8;;https://example.com/docs\x1b\\'), linked);
  t.true(linked!.includes('\x1b]8;;https://example.com/x\x1b\\'), 'a bare URL is a link too, without the full stop');
  t.is(stripAnsi(linked!), 'see the docs or https://example.com/x.');
  t.is(textWidth(linked!), 'see the docs or https://example.com/x.'.length, 'hyperlink escapes take no cells');
});

test('a quote sits under a bar on every row, a list item wraps under its text, all within 80 columns', (t) => {
  const long = 'word '.repeat(40).trim();
  const quote = render([`> ${long}`]);
  t.true(quote.length > 1);
  for (const row of quote) {
    t.true(stripAnsi(row).startsWith('│ '), row);
    t.true(textWidth(row) <= 79, row);
  }
  const item = render([`- ${long}`, '  1. nested'].map(String));
  t.true(stripAnsi(item[0]!).startsWith('• word'));
  for (const row of item.slice(1, -1)) t.true(stripAnsi(row).startsWith('  word'), row);
  t.is(stripAnsi(item[item.length - 1]!), '  1. nested');
  t.deepEqual(render(['> > nested quote']).map(stripAnsi), ['│ │ nested quote']);
});

test('a table is aligned to its widest cells, and a table wider than the terminal wraps inside its cells', (t) => {
  const table = ['| Name | Size | Notes |', '|:-----|-----:|-------|', '| `a.ts` | 12 | the **entry** point |', '| b.ts | 1200 | helpers |'];
  const rows = render(table).map(stripAnsi);
  t.deepEqual(rows, ['| Name | Size | Notes           |', '|------|-----:|-----------------|', '| a.ts |   12 | the entry point |', '| b.ts | 1200 | helpers         |']);
  const wide = ['| file | what it does |', '|---|---|', `| src/app.ts | ${'starts the program and reads its settings, '.repeat(4).trim()} |`];
  const fitted = render(wide).map(stripAnsi);
  t.true(fitted.length > 3, 'the long cell takes several rows');
  for (const row of fitted) {
    t.true(row.length <= 79, row);
    t.is(row.indexOf('|', 1), fitted[0]!.indexOf('|', 1), `the pipes line up: ${row}`);
  }
  t.deepEqual(render(['| not a table', 'just text']).map(stripAnsi), ['| not a table', 'just text'], 'without a delimiter row the lines stay prose');
});

test('fenced code is highlighted by the lazily loaded highlighter, its text kept exactly', async (t) => {
  const highlighter = new CodeHighlighter(color);
  await highlighter.prepare('ts');
  t.is(highlighter.state('ts'), 'ready');
  const code = ['```typescript', 'const answer: number = 42; // the answer', 'function greet(name: string) { return `hi ${name}`; }', '```'];
  const rows = render(code, { highlighter });
  t.deepEqual(rows.map(stripAnsi), code, 'the fence and the code read as written');
  t.true(rows[1]!.includes('\x1b[35mconst\x1b[39m'), `a keyword is coloured: ${JSON.stringify(rows[1])}`);
  t.true(rows[1]!.includes('\x1b[2m// the answer\x1b[22m'), 'a comment is dimmed');
  t.regex(rows[2]!, /\x1b\[32m`hi /, 'a template string is green');
});

test('code waits for the highlighter while it loads, then comes out in order; an unknown language stays plain', async (t) => {
  const highlighter = new CodeHighlighter(color);
  let ready!: () => void;
  const released = new Promise<void>((resolve) => (ready = resolve));
  const markdown = new MarkdownLines({ style: color, highlighter, onReady: () => ready() });
  t.deepEqual(markdown.push('```py', 80).map(stripAnsi), ['```py']);
  t.deepEqual(markdown.push('def f(x):', 80), [], 'held while the grammar loads');
  t.deepEqual(markdown.push('    return x', 80), []);
  t.deepEqual(markdown.pending(), ['def f(x):', '    return x'], 'the live area shows what is held');
  await released;
  const rows = markdown.take(80);
  t.deepEqual(rows.map(stripAnsi), ['def f(x):', '    return x']);
  t.regex(rows[0]!, /\x1b\[35mdef\x1b\[39m/);
  t.deepEqual(render(['```brainfuck-ish', 'const x = 1', '```']), ['\x1b[2m```brainfuck-ish\x1b[22m', 'const x = 1', '\x1b[2m```\x1b[22m']);
});

test('nothing of the highlighter is loaded before the first fence that names a language it has', async (t) => {
  const loaded: string[] = [];
  const highlighter = new CodeHighlighter(color, (path) => {
    loaded.push(path);
    return import(path);
  });
  const markdown = new MarkdownLines({ style: color, highlighter });
  for (const line of ['# Title', 'prose with `code`', '```', 'unnamed code', '```', '```cobol', 'MOVE A TO B.', '```']) markdown.push(line, 80);
  t.deepEqual(loaded, []);
  markdown.push('```rust', 80);
  await highlighter.prepare('rs');
  t.deepEqual(loaded.slice(0, 2), ['@speed-highlight/core/tokenize', '@speed-highlight/core/languages/rs.js']);
  t.true(loaded.slice(2).every((path) => path.startsWith('@speed-highlight/core/languages/')), 'then the grammars it embeds');
});

test('when the highlighter cannot load, code is shown plain and nothing is lost', async (t) => {
  const highlighter = new CodeHighlighter(color, () => Promise.reject(new Error('not installed')));
  await highlighter.prepare('ts');
  t.is(highlighter.state('ts'), 'none');
  t.deepEqual(render(['```ts', 'const x = 1;', '```'], { highlighter }).map(stripAnsi), ['```ts', 'const x = 1;', '```']);
  const markdown = new MarkdownLines({ style: color, highlighter: new CodeHighlighter(color, () => new Promise(() => {})) });
  markdown.push('```ts', 80);
  t.deepEqual(markdown.push('let y = 2;', 80), []);
  t.deepEqual(markdown.flush(80), ['let y = 2;'], 'the end of the answer shows held code plain');
});

test('without colour the text is kept as written: no escapes, markers kept, no highlighter loaded, tables aligned', (t) => {
  let loads = 0;
  const highlighter = new CodeHighlighter(plain, () => {
    loads++;
    return Promise.reject(new Error('must not load'));
  });
  const source = ['# Title', 'use **bold**, `code` and [a link](https://example.com)', '> quoted', '- item', '```ts', 'const x = 1;', '```'];
  const rows = render(source, { color: false, highlighter, hyperlinks: true });
  t.deepEqual(rows, source);
  t.is(loads, 0);
  const long = render([`> ${'word '.repeat(30).trim()}`], { color: false });
  for (const row of long) t.true(row.startsWith('> '), row);
  const table = render(['| a | bb |', '|---|---|', '| ccc | d |'], { color: false });
  t.deepEqual(table, ['| a   | bb |', '|-----|----|', '| ccc | d  |']);
  for (const row of [...rows, ...table]) t.notRegex(row, ESC);
});

test('streamed a few characters at a time, the answer renders as if it came whole, long prose committed row by row', async (t) => {
  const answer = ['## Plan', '', `A paragraph with **bold** words that goes on ${'and on '.repeat(30)}until it ends.`, '', '| a | b |', '|---|---|', '| 1 | 2 |', '', 'done'].join('\n');
  const whole: string[] = [];
  const whole80 = new StreamText((...lines) => whole.push(...lines), color, () => 80, () => false, Date.now, false);
  whole80.write('text', answer);
  whole80.end();
  const pieces: string[] = [];
  let liveTall = 0;
  const stream = new StreamText((...lines) => pieces.push(...lines), color, () => 80, () => false, Date.now, false);
  for (let i = 0; i < answer.length; i += 3) {
    stream.write('text', answer.slice(i, i + 3));
    if (!stream.liveLines().some((line) => line.startsWith('|'))) liveTall = Math.max(liveTall, stream.liveLines().reduce((rows, line) => rows + Math.ceil(Math.max(1, textWidth(line)) / 80), 0));
  }
  stream.end();
  // Rows may break elsewhere (a streamed row is cut before its markers are known), the text may not.
  const text = (rows: string[]) => rows.map(stripAnsi).join('\n').replace(/\n(?=\S)(?<=[^\n]\n)/g, ' ');
  t.is(text(pieces), text(whole));
  t.true(pieces.some((row) => row.includes('\x1b[1mbold\x1b[22m')), 'bold within a committed row still renders');
  t.is(liveTall, 1, 'prose never takes more than one live row');
  for (const row of pieces) t.true(textWidth(row) <= 79, row);
});

test('a long think and a long code line stream in linear time, and words split across deltas count once', (t) => {
  // 200,000 deltas: the reasoning was counted whole at each one, and a line waiting whole was
  // re-split at each one (20,000 deltas took 52 s; these would take hours and time out).
  const committed: string[] = [];
  let clock = 0;
  const folded = new StreamText((...lines) => committed.push(...lines), plain, () => 80, () => true, () => (clock += 1), false);
  for (let i = 0; i < 200_000; i++) folded.write('reasoning', 'word and ');
  folded.end();
  t.regex(committed.at(-1)!, /\(400000 words; /);
  const counted: string[] = [];
  const split = new StreamText((...lines) => counted.push(...lines), plain, () => 80, () => true, Date.now, false);
  for (const piece of ['hel', 'lo wor', 'ld  ', '', 'again', ' ', 'and', '\nmore']) split.write('reasoning', piece);
  split.end();
  t.regex(counted.at(-1)!, /\(5 words; /);
  // A code line of 1.2 MB arriving 6 characters at a time waits whole, then comes out whole.
  const rows: string[] = [];
  const code = new StreamText((...lines) => rows.push(...lines), plain, () => 80, () => false, Date.now, false);
  code.write('text', '```json\n');
  for (let i = 0; i < 200_000; i++) code.write('text', '0, 0, ');
  t.is(code.liveLines().length, 1);
  code.write('text', '\n```\n');
  code.end();
  t.is(rows.join('').replace(/[^0]/g, '').length, 400_000);
});

test('OSC 8 hyperlinks are used where the terminal says it shows them, and FORCE_HYPERLINK decides', (t) => {
  t.false(hyperlinksSupported({ TERM: 'xterm-256color' }));
  t.true(hyperlinksSupported({ TERM: 'xterm-256color', TERM_PROGRAM: 'WezTerm' }));
  t.true(hyperlinksSupported({ TERM: 'xterm-256color', VTE_VERSION: '7600' }));
  t.false(hyperlinksSupported({ TERM: 'screen-256color', TERM_PROGRAM: 'tmux', TERM_PROGRAM_VERSION: '3.3a' }));
  t.true(hyperlinksSupported({ TERM: 'tmux-256color', TERM_PROGRAM: 'tmux', TERM_PROGRAM_VERSION: '3.4' }));
  t.true(hyperlinksSupported({ TERM: 'xterm', FORCE_HYPERLINK: '1' }));
  t.false(hyperlinksSupported({ TERM: 'xterm', TERM_PROGRAM: 'WezTerm', FORCE_HYPERLINK: '0' }));
});

test('fence names as models write them map to the grammars the package has', (t) => {
  t.is(CodeHighlighter.grammarOf('typescript'), 'ts');
  t.is(CodeHighlighter.grammarOf('Python title="x.py"'), 'py');
  t.is(CodeHighlighter.grammarOf('shell'), 'bash');
  t.is(CodeHighlighter.grammarOf('c++'), 'c');
  t.is(CodeHighlighter.grammarOf(''), undefined);
  t.is(CodeHighlighter.grammarOf('cobol'), undefined);
});
