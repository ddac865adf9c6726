import test from 'ava';
import { KeyDecoder, type KeyEvent } from '../../../cli/tui/keys.js';

function decode(...chunks: string[]): KeyEvent[] {
  const events: KeyEvent[] = [];
  const decoder = new KeyDecoder((event) => events.push(event));
  for (const chunk of chunks) decoder.feed(chunk);
  decoder.dispose();
  return events;
}

const names = (events: KeyEvent[]) => events.map((e) => (e.type === 'key' ? e.name : `${e.type}:${e.text}`));

test('printable text arrives as one run and control bytes as named keys', (t) => {
  t.deepEqual(names(decode('héllo 世界\x01\x05\x17\x15\r')), ['text:héllo 世界', 'ctrl-a', 'ctrl-e', 'ctrl-w', 'ctrl-u', 'enter']);
  t.deepEqual(names(decode('\x7f\x08\t\x03\x04\n')), ['backspace', 'backspace', 'tab', 'ctrl-c', 'ctrl-d', 'newline']);
});

test('cursor keys decode in CSI and SS3 form, with modifiers', (t) => {
  t.deepEqual(names(decode('\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F\x1b[3~\x1b[Z')), ['up', 'down', 'right', 'left', 'home', 'end', 'delete', 'shift-tab']);
  t.deepEqual(names(decode('\x1b[1;5D\x1b[1;3C\x1b[1~\x1b[4~\x1b[13;2u')), ['word-left', 'word-right', 'home', 'end', 'newline']);
});

test('Alt+Enter inserts a line break and Alt+Backspace deletes a word', (t) => {
  t.deepEqual(names(decode('a\x1b\rb\x1b\x7f')), ['text:a', 'newline', 'text:b', 'word-backspace']);
});

test('a sequence split across reads is held until it is complete', (t) => {
  t.deepEqual(names(decode('x\x1b', '[', '1;5', 'C', 'y')), ['text:x', 'word-right', 'text:y']);
});

test('a bracketed paste arrives whole, even split mid-marker, with CR turned into LF', (t) => {
  const events = decode('\x1b[20', '0~line one\r\nline', ' two\x1b[2', '01~z');
  t.deepEqual(names(events), ['paste:line one\nline two', 'text:z']);
});

test('a lone Esc is reported after a short wait', async (t) => {
  const event = await new Promise<KeyEvent>((resolve) => {
    const decoder = new KeyDecoder(resolve);
    decoder.feed('\x1b');
  });
  t.deepEqual(event, { type: 'key', name: 'escape', sequence: '\x1b' });
});

test('Esc Esc gives two escapes without waiting for the second to time out wrongly', async (t) => {
  const events: KeyEvent[] = [];
  await new Promise<void>((resolve) => {
    const decoder = new KeyDecoder((event) => {
      events.push(event);
      if (events.length === 2) resolve();
    });
    decoder.feed('\x1b\x1b');
  });
  t.deepEqual(names(events), ['escape', 'escape']);
});
