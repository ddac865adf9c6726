import test from 'ava';
import { parseBoolean, parseChoice, parseCount, parseDuration, parseList } from '../../../actors/settings/parse.js';

test('one boolean parser: the four spellings of off (and none) and of on, in any case', (t) => {
  for (const off of ['off', 'OFF', '0', 'false', 'False', 'no', 'none', ' off ']) t.is(parseBoolean(off), false, off);
  for (const on of ['on', '1', 'true', 'TRUE', 'yes', 'Yes']) t.is(parseBoolean(on), true, on);
  for (const neither of ['', 'maybe', '2', 'offf']) t.is(parseBoolean(neither), undefined, neither);
});

test('durations are milliseconds, with an optional unit', (t) => {
  t.is(parseDuration('1500'), 1_500);
  t.is(parseDuration('600_000'), 600_000);
  t.is(parseDuration('250ms'), 250);
  t.is(parseDuration('30s'), 30_000);
  t.is(parseDuration('1.5s'), 1_500);
  t.is(parseDuration('5m'), 300_000);
  t.is(parseDuration('1H'), 3_600_000);
  t.is(parseDuration('0'), 0);
  for (const bad of ['', '-1', 'soon', '5 minutes', '1e3']) t.is(parseDuration(bad), undefined, bad);
});

test('counts, choices and lists', (t) => {
  t.is(parseCount('32_768'), 32_768);
  t.is(parseCount('7.9'), 7);
  t.is(parseCount('-1'), undefined);
  t.is(parseCount(''), undefined);
  const approvals = { kind: 'choice', values: ['safe', 'off', 'bypass'], aliases: { yolo: 'bypass' } } as const;
  t.is(parseChoice(' Safe ', approvals), 'safe');
  t.is(parseChoice('YOLO', approvals), 'bypass');
  t.is(parseChoice('maybe', approvals), undefined);
  t.deepEqual(parseList(' a, b,,c '), ['a', 'b', 'c']);
});
