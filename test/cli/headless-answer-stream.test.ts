import test from 'ava';
import { AnswerStream, HOLD_CHARS } from '../../cli/headless/answer-stream.js';

const text = (t: string) => ({ type: 'text-delta', turn: 't', text: t }) as const;
const request = { type: 'request', turn: 't', n: 1, estimateTokens: 1 } as const;
const call = { type: 'tool-call', turn: 't', state: { status: 'pending', call: { id: 'c', name: 'read', arguments: {}, source: 'native' } } } as never;

test('a reply is held until it is long enough to be the answer, then streams; trailing space waits', (t) => {
  let out = '';
  const stream = new AnswerStream((chunk) => (out += chunk));
  stream.handle(request);
  stream.handle(text('Let me look. '));
  stream.handle(call);
  t.is(out, '', 'a short preamble before a call is not printed');
  stream.handle(request);
  const long = 'x'.repeat(HOLD_CHARS);
  stream.handle(text(`${long}\n\n`));
  t.is(out, long);
  stream.handle(text('more  '));
  t.is(out, `${long}\n\nmore`);
  t.true(stream.finish({ answered: true, partial: false }));
  t.is(out, `${long}\n\nmore\n`);
});

test('an interrupted reply prints what it had; an error with nothing printed prints nothing', (t) => {
  let out = '';
  const partial = new AnswerStream((chunk) => (out += chunk));
  partial.handle(text('half an ans'));
  partial.finish({ answered: false, partial: true });
  t.is(out, 'half an ans\n');
  let none = '';
  const failed = new AnswerStream((chunk) => (none += chunk));
  failed.handle(text('a reply cut by an error'));
  t.false(failed.finish({ answered: false, partial: false }));
  t.is(none, '');
});

test('a model stuck writing newlines costs each delta its own size; the output still ends in one newline (100,000 of them took 30 s)', (t) => {
  let out = '';
  const stream = new AnswerStream((chunk) => (out += chunk));
  stream.handle(text('x'.repeat(HOLD_CHARS)));
  for (let i = 0; i < 300_000; i++) stream.handle(text('\n\n'));
  t.is(out, 'x'.repeat(HOLD_CHARS));
  stream.handle(text('end'));
  t.is(out, `${'x'.repeat(HOLD_CHARS)}${'\n\n'.repeat(300_000)}end`);
  stream.finish({ answered: true, partial: false });
  t.true(out.endsWith('end\n'));
});
