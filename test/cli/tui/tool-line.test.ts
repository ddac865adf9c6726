import test from 'ava';
import { addToolOutput, newToolView, toolTail } from '../../../cli/tui/tool-line.js';
import { createStyle, stripAnsi } from '../../../cli/tui/style.js';

/** A running tool's live tail as its streamed output arrives in `deltas`. */
function tail(deltas: readonly string[]): string[] {
  const view = newToolView('1', 'bash', { command: 'x' }, 0);
  for (const delta of deltas) addToolOutput(view, delta);
  return toolTail(view, 80, createStyle(false)).map((line) => stripAnsi(line).replace(/^ {2}│ /, ''));
}

test('a carriage return writes the line over: a progress bar shows its latest state', (t) => {
  t.deepEqual(tail(['downloading\n', '\r[=>   ] 10%', '\r[==>  ] 20%']), ['downloading', '[==>  ] 20%']);
  t.deepEqual(tail(['50%\r', '60%\r', '70%']), ['70%']);
  t.deepEqual(tail(['one\r[=> ]\r[==> ]\ntwo']), ['[==> ]', 'two']);
});

test('CRLF line ends, also split across deltas, end lines without losing them', (t) => {
  t.deepEqual(tail(['abc\r', '\ndef\r\n', 'ghi']), ['abc', 'def', 'ghi']);
  t.deepEqual(tail(['a\r\nb\r\n']), ['a', 'b']);
});

test('200,000 progress updates on one line cost their own size: the tail is the last one (each re-split the whole line: 20,000 took 54 s)', (t) => {
  const deltas = Array.from({ length: 200_000 }, (_, i) => `\r[${'='.repeat(i % 40)}>] ${i}`);
  t.deepEqual(tail(deltas), [`[${'='.repeat(199_999 % 40)}>] 199999`]);
  // A long line without a return keeps its start (the tail shows one row of it).
  t.deepEqual(tail(Array.from({ length: 100_000 }, () => 'x')), [`${'x'.repeat(74)}…`]);
});
