import test from 'ava';
import { ConfigError } from '../../actors/settings/parse.js';
import { ImageError } from '../../actors/images/image.js';
import { SessionChoiceError } from '../../cli/open-session.js';
import { UsageError } from '../../cli/session-flags.js';
import { fromErrorRecord, isReikaErrorCode, ReikaError, ERROR_CODES, toErrorRecord } from '../../runtime/errors.js';

test('each error class is a ReikaError whose isInstance knows it by its code, also flattened and rebuilt', (t) => {
  const cases = [
    [new UsageError('--mode takes agent or plan'), UsageError],
    [new ConfigError('REIKA_APPROVALS: "sometimes" is not safe, off or bypass'), ConfigError],
    [new SessionChoiceError('no session abc in this folder'), SessionChoiceError],
    [new ImageError('a.txt is not a PNG, JPEG, WebP or GIF image'), ImageError],
  ] as const;
  for (const [error, kind] of cases) {
    t.true(ReikaError.isInstance(error), error.code);
    t.true(isReikaErrorCode(error.code), error.code);
    const crossed = fromErrorRecord(structuredClone(toErrorRecord(error)));
    t.true(kind.isInstance(crossed), `${error.code} after crossing a boundary`);
    t.is(crossed.message, error.message);
    for (const [other, otherKind] of cases) if (otherKind !== kind) t.false(otherKind.isInstance(error), `${other.code} is not ${error.code}`);
  }
  t.false(UsageError.isInstance(new Error('--mode takes agent or plan')));
});

test('a record whose code is outside the closed set comes back as the handler failure, message kept', (t) => {
  const failure = Object.assign(new Error('ENOENT: no such file, open a.txt'), { code: 'ENOENT' });
  const rebuilt = fromErrorRecord(toErrorRecord(failure));
  t.is(rebuilt.code, 'REIKA_ERR_HANDLER');
  t.is(rebuilt.message, 'ENOENT: no such file, open a.txt');
  t.false(isReikaErrorCode('ENOENT'));
  t.is(new Set(ERROR_CODES).size, ERROR_CODES.length, 'no code is listed twice');
});
