import test from 'ava';
import { ConfigError } from '../../actors/settings/parse.js';
import { ImageError } from '../../actors/images/image.js';
import { IdleTimeoutError } from '../../actors/model-io/http/http-request.js';
import { FrontMatterError } from '../../actors/prompt/front-matter.js';
import { RuleSyntaxError } from '../../actors/tool-executor/rules/rule.js';
import { TooManyFiles } from '../../actors/tool-executor/safety/index-stage.js';
import { StoreGitError } from '../../actors/tool-executor/safety/store-git.js';
import { ToolError } from '../../actors/tool-executor/tools/tool-error.js';
import { SessionChoiceError } from '../../cli/open-session.js';
import { UsageError } from '../../cli/session-flags.js';
import { fromErrorRecord, isReikaErrorCode, ReikaError, ERROR_CODES, TOOL_ERROR_CODES, toErrorRecord } from '../../runtime/errors.js';

test('each error class is a ReikaError whose isInstance knows it by its code, also flattened and rebuilt', (t) => {
  const cases = [
    [new UsageError('--mode takes agent or plan'), UsageError],
    [new ConfigError('REIKA_APPROVALS: "sometimes" is not safe, off or bypass'), ConfigError],
    [new SessionChoiceError('no session abc in this folder'), SessionChoiceError],
    [new ImageError('a.txt is not a PNG, JPEG, WebP or GIF image'), ImageError],
    [new ToolError('EDIT_NO_MATCH', 'old_string was not found in a.ts', 'near line 3'), ToolError],
    [new RuleSyntaxError('"Bash(ls" opens a parenthesis it does not close'), RuleSyntaxError],
    [new FrontMatterError('the front matter has no closing "---" line'), FrontMatterError],
    [new IdleTimeoutError(30_000), IdleTimeoutError],
    [new StoreGitError('git write-tree: fatal', 'fatal: bad tree'), StoreGitError],
    [new TooManyFiles('more than 100,000 files to hold: checkpoints are off in this folder'), TooManyFiles],
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
  t.false(ToolError.isInstance(Object.assign(new Error('a.ts does not exist'), { code: 'NOT_FOUND' })), 'a plain Error with a tool code is not a ToolError');
});

test('a ToolError keeps its code, the word its ToolResult carries, across a boundary; its payload stays on this side', (t) => {
  const error = new ToolError('NOT_FOUND', 'a.ts does not exist', 'did you mean b.ts?');
  t.is(error.code, 'NOT_FOUND');
  t.is(error.payload, 'did you mean b.ts?');
  const crossed = fromErrorRecord(structuredClone(toErrorRecord(error)));
  t.true(ToolError.isInstance(crossed));
  t.is(crossed.code, 'NOT_FOUND');
  for (const code of TOOL_ERROR_CODES) t.true(isReikaErrorCode(code), code);
});

test('a record whose code is outside the closed set comes back as the handler failure, message kept', (t) => {
  const failure = Object.assign(new Error('ENOENT: no such file, open a.txt'), { code: 'ENOENT' });
  const rebuilt = fromErrorRecord(toErrorRecord(failure));
  t.is(rebuilt.code, 'REIKA_ERR_HANDLER');
  t.is(rebuilt.message, 'ENOENT: no such file, open a.txt');
  t.false(isReikaErrorCode('ENOENT'));
  t.is(new Set(ERROR_CODES).size, ERROR_CODES.length, 'no code is listed twice');
});
