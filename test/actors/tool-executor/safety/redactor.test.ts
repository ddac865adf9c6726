import test from 'ava';
import { Redactor, REDACTED, secretForms } from '../../../../actors/tool-executor/safety/redactor.js';

const secret = 'ghp_fakeGithubToken0123456789';
const short = 'pw-12345';
const redactor = new Redactor([secret, short]);
const base64 = (text: string) => Buffer.from(text).toString('base64');
const reversed = (text: string) => [...text].reverse().join('');

test('a secret is replaced wherever it occurs, also inside words and next to another', (t) => {
  t.is(redactor.redact(`token=${secret}\n`), `token=${REDACTED}\n`);
  t.is(redactor.redact(`${secret}${secret}x${short}`), `${REDACTED}x${REDACTED}`);
  t.is(redactor.redact(`a ${short} b`), `a ${REDACTED} b`);
  t.is(redactor.redact('nothing secret here, only ordinary output of a build\n'), 'nothing secret here, only ordinary output of a build\n');
});

test('its reversed and base64 forms are replaced, at every byte alignment and in base64url', (t) => {
  t.false(redactor.redact(reversed(secret)).includes(reversed(secret).slice(2, -2)));
  for (const prefix of ['', 'a', 'ab', 'abc', 'KEY=', 'GITHUB_TOKEN=']) {
    const encoded = base64(`${prefix}${secret}\n`);
    const out = redactor.redact(encoded);
    t.true(out.includes(REDACTED), `${prefix}: ${out}`);
    // What is left can no longer be decoded back to the secret.
    t.false(Buffer.from(out.replace(REDACTED, ''), 'base64').toString('latin1').includes(secret.slice(3, -3)), prefix);
    const url = encoded.replace(/\+/g, '-').replace(/\//g, '_');
    t.true(redactor.redact(url).includes(REDACTED), `base64url ${prefix}`);
  }
  t.true(secretForms(secret).length >= 5);
});

test('a long output with many secrets is redacted exactly where they are', (t) => {
  const secrets = Array.from({ length: 12 }, (_, i) => `sk-fake-secret-${i}-${'x'.repeat(i)}-end`);
  const many = new Redactor(secrets);
  const parts: string[] = [];
  const expected: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const filler = `line ${i}: ${'lorem ipsum '.repeat(i % 7)}`;
    const s = secrets[i % secrets.length]!;
    parts.push(`${filler}${i % 5 === 0 ? s : ''}\n`);
    expected.push(`${filler}${i % 5 === 0 ? REDACTED : ''}\n`);
  }
  t.is(many.redact(parts.join('')), expected.join(''));
});

test('live output cut inside a secret is still redacted, and nothing else is held back for long', (t) => {
  const text = `before ${secret} middle ${short} after\n`;
  for (let cut = 1; cut < text.length; cut++) {
    for (const second of [cut + 1, cut + 7, text.length]) {
      const stream = redactor.stream();
      const shown = stream.push(text.slice(0, cut)) + stream.push(text.slice(cut, second)) + stream.push(text.slice(second)) + stream.end();
      t.is(shown, `before ${REDACTED} middle ${REDACTED} after\n`, `cut at ${cut}/${second}`);
    }
  }
  const stream = redactor.stream();
  t.is(stream.push('plain line\n'), 'plain line\n');
  // "g" could begin the secret: it waits for what follows, then goes out unchanged.
  t.is(stream.push('ending in g'), 'ending in ');
  t.is(stream.push('reen\n'), 'green\n');
});

test('live output in pieces longer than any secret, cut anywhere, comes out as the whole text redacts', (t) => {
  // The carry is searched beside the start of the next piece, the piece on its own: a secret
  // across the cut, one just after it, and overlapping forms on both sides are all replaced.
  const secrets = ['sk-fake-secret-long-0123456789', 'pw-12345', 'abcd1234', '1234wxyz'];
  const many = new Redactor(secrets);
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) lines.push(`line ${i} ${'.'.repeat(i % 13)}${secrets[i % 4]}${i % 3 === 0 ? 'wxyz' : ''} ${reversed(secrets[0]!)}\n`);
  const text = lines.join('');
  const expected = many.redact(text);
  t.true(expected.includes(REDACTED) && !expected.includes('pw-12345'));
  for (const size of [31, 32, 45, 97, 1000, 4096]) {
    for (let first = 0; first < 40; first += 3) {
      const stream = many.stream();
      let shown = stream.push(text.slice(0, first));
      for (let at = first; at < text.length; at += size) shown += stream.push(text.slice(at, at + size));
      t.is(shown + stream.end(), expected, `pieces of ${size} after ${first}`);
    }
  }
});

test('no secrets: the text is returned as it is', (t) => {
  const none = new Redactor([]);
  t.true(none.empty);
  const text = 'x'.repeat(1000);
  t.is(none.redact(text), text);
  t.is(none.stream().push(text), text);
});

test('short and long secrets are found at every offset of a long text, as a plain search finds them', (t) => {
  // The table is looked up every (shortest form − 3) characters: each offset mod that step is tried.
  const secrets = ['pw-12345', 'hunter2pw!', 'sk-proj-fakeOpenAiKey0123456789abcdefghij'];
  const mixed = new Redactor(secrets);
  const forms = [...new Set(secrets.flatMap((s) => secretForms(s)))];
  for (const form of forms) {
    for (let offset = 0; offset < 24; offset++) {
      const filler = 'abcdefghijklmnopqrstuvwxyz0123456789 '.repeat(3).slice(0, offset);
      const text = `${filler}${form}${filler}tail`;
      t.is(mixed.redact(text), `${filler}${REDACTED}${filler}tail`, `${form} after ${offset}`);
    }
  }
});

test('short secrets that overlap, or hold characters a pattern language treats specially, are replaced whole', (t) => {
  const overlapping = new Redactor(['abcd1234', '1234wxyz', 'p.w*(1)+?|$']);
  t.is(overlapping.redact('x abcd1234wxyz y'), `x ${REDACTED} y`);
  t.is(overlapping.redact('x 1234wxyz abcd1234 y'), `x ${REDACTED} ${REDACTED} y`);
  t.is(overlapping.redact('pass p.w*(1)+?|$ end, not pXw*(1)+?|$'), `pass ${REDACTED} end, not pXw*(1)+?|$`);
});
