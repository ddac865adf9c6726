import test from 'ava';
import { Screen, type LiveArea } from '../../../cli/tui/screen.js';
import { VirtualTerminal } from './vt.js';

function setup(columns = 40, rows = 10) {
  const vt = new VirtualTerminal(columns, rows);
  let live: LiveArea = { lines: ['› '], cursor: { line: 0, column: 2 } };
  const screen = new Screen({ write: (data: string) => vt.write(data), columns, rows }, () => live, 1);
  return { vt, screen, setLive: (area: LiveArea) => (live = area) };
}

test('committed lines stay above the live area, which is redrawn in place', (t) => {
  const { vt, screen, setLive } = setup();
  screen.render();
  screen.commit('hello', 'world');
  setLive({ lines: ['⠋ thinking', '› typed', 'status'], cursor: { line: 1, column: 7 } });
  screen.render();
  setLive({ lines: ['› typed more', 'status'], cursor: { line: 0, column: 12 } });
  screen.render();
  t.is(vt.text(), 'hello\nworld\n› typed more\nstatus');
  t.is(vt.row, 2);
  t.is(vt.col, 12);
});

test('lines that wrap, including exact multiples of the width, are cleared exactly', (t) => {
  const { vt, screen, setLive } = setup(20, 10);
  screen.commit('top');
  setLive({ lines: ['x'.repeat(20), 'y'.repeat(45), '› '], cursor: { line: 2, column: 2 } });
  screen.render();
  setLive({ lines: ['x'.repeat(40), '› ab'], cursor: { line: 1, column: 4 } });
  screen.render();
  setLive({ lines: ['› abc'], cursor: { line: 0, column: 5 } });
  screen.render();
  t.is(vt.text(), 'top\n› abc');
  t.is(vt.col, 5);
});

test('a cursor at the very end of a full-width line lands on the next row', (t) => {
  const { vt, screen, setLive } = setup(20, 6);
  setLive({ lines: [`› ${'a'.repeat(18)}`, 'status'], cursor: { line: 0, column: 20 } });
  screen.render();
  t.is(vt.row, 1);
  t.is(vt.col, 0);
  setLive({ lines: ['› b', 'status'], cursor: { line: 0, column: 3 } });
  screen.render();
  t.is(vt.text(), '› b\nstatus');
});

test('a live area taller than the screen keeps its bottom and the cursor line', (t) => {
  const { vt, screen, setLive } = setup(20, 5);
  setLive({ lines: ['1', '2', '3', '4', '5', '6', '› x', 'status'], cursor: { line: 6, column: 3 } });
  screen.render();
  t.is(vt.text(), '5\n6\n› x\nstatus', 'the area keeps one row free above it');
  setLive({ lines: ['› y', 'status'], cursor: { line: 0, column: 3 } });
  screen.render();
  t.is(vt.text(), '› y\nstatus');
});

test('a live area far taller than the screen shows its last screenful and keeps the cursor line (a held table of 200,000 rows took hours a frame)', (t) => {
  const { vt, screen, setLive } = setup(40, 6);
  const rows = Array.from({ length: 200_000 }, (_, i) => `| ${i} | cell |`);
  setLive({ lines: [...rows, '› typed', 'status'], cursor: { line: rows.length, column: 7 } });
  screen.render();
  t.is(vt.text(), ['| 199997 | cell |', '| 199998 | cell |', '| 199999 | cell |', '› typed', 'status'].join('\n'));
  t.is(vt.row, 3);
  t.is(vt.col, 7);
  // The cursor's line stays even when it alone is taller than the screen.
  setLive({ lines: ['above', 'x'.repeat(400), 'below'], cursor: { line: 1, column: 0 } });
  screen.render();
  t.true(vt.text().startsWith('x'.repeat(40)));
});
