import test from 'ava';
import { parseDotEnv } from '../../../actors/config/sources.js';
import { withoutComment } from '../../../actors/line-comment.js';

test('a .env value loses its comment from the first white space before a #; a # inside a word stays', (t) => {
  t.is(withoutComment('on  # the default'), 'on');
  t.is(withoutComment('a#b'), 'a#b');
  t.is(withoutComment('x\t#c # d'), 'x');
  t.deepEqual(parseDotEnv('REIKA_MODEL=qwen # local\nREIKA_URL="http://h/#frag"\n'), { REIKA_MODEL: 'qwen', REIKA_URL: 'http://h/#frag' });
});

test("a project's .env with a long run of spaces is read in one pass (the comment regex retried each space: ~minutes at 400,000)", (t) => {
  const spaces = ' '.repeat(400_000);
  t.deepEqual(parseDotEnv(`A=x${spaces}y\nB=v${spaces}# c\n`), { A: `x${spaces}y`, B: 'v' });
});
