import test from 'ava';
import { SseDecoder, type SseEvent } from '../../../../actors/model-io/http/sse-decoder.js';
import { splitBytes } from '../../../helpers/scripted-server.js';

function decode(pieces: Buffer[]): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  for (const piece of pieces) events.push(...decoder.push(piece));
  events.push(...decoder.end());
  return events;
}

const stream = [
  ': keep-alive comment',
  '',
  'data: {"a":"héllo 日本 🎉"}',
  '',
  'event: ping',
  'data: first line',
  'data: second line',
  '',
  'data:no-space',
  '',
  'id: 7',
  'retry: 1000',
  'data: [DONE]',
  '',
].join('\n');

const expected: SseEvent[] = [
  { event: 'message', data: '{"a":"héllo 日本 🎉"}' },
  { event: 'ping', data: 'first line\nsecond line' },
  { event: 'message', data: 'no-space' },
  { event: 'message', data: '[DONE]' },
];

test('events survive any split: whole, byte by byte, and seeded random cuts, mid UTF-8 character', (t) => {
  const bytes = Buffer.from(stream, 'utf8');
  t.deepEqual(decode([bytes]), expected);
  t.deepEqual(decode(splitBytes(bytes, { mode: 'byte' })), expected);
  for (let seed = 1; seed <= 40; seed++) t.deepEqual(decode(splitBytes(bytes, { mode: 'random', seed, max: 7 })), expected, `seed ${seed}`);
});

test('CRLF and lone CR line endings decode the same, even when CR and LF arrive in different chunks', (t) => {
  for (const eol of ['\r\n', '\r']) {
    const bytes = Buffer.from(stream.replace(/\n/g, eol), 'utf8');
    t.deepEqual(decode([bytes]), expected, JSON.stringify(eol));
    t.deepEqual(decode(splitBytes(bytes, { mode: 'byte' })), expected, JSON.stringify(eol));
  }
});

test('a last event without its blank line still counts when the stream closes', (t) => {
  t.deepEqual(decode([Buffer.from('data: {"x":1}\n\ndata: {"y":2}')]), [
    { event: 'message', data: '{"x":1}' },
    { event: 'message', data: '{"y":2}' },
  ]);
});

test('one 10 MB event arriving in 64 KB chunks decodes whole, and the same as in 64 KB events', (t) => {
  const content = 'x'.repeat(10 * 1024 * 1024);
  const one = Buffer.from(`data: {"c":"${content}"}\n\n`);
  const events = decode(splitBytes(one, { mode: 'fixed', size: 64 * 1024 }));
  t.is(events.length, 1);
  t.is(events[0]!.data.length, content.length + 8);
  t.true(events[0]!.data.endsWith('x"}'));
  const many = Buffer.from(Array.from({ length: 160 }, () => `data: {"c":"${'x'.repeat(64 * 1024)}"}\n\n`).join(''));
  const small = decode(splitBytes(many, { mode: 'fixed', size: 64 * 1024 }));
  t.is(small.length, 160);
  t.true(small.every((event) => event.data.length === 64 * 1024 + 8));
});
