import test from 'ava';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { call } from './harness.js';

test('a catastrophic pattern comes back at once with the right matches', async (t) => {
  const evil = `${'a'.repeat(5_000)}!`;
  const root = writeTree(tempDir(), { 'a.txt': `${evil}\naaaa\nbbb\n`, 'b.txt': `${evil}\n`.repeat(20) });
  // JavaScript's engine needs ~2^5000 steps for the first line; RE2 is linear in it.
  const result = await call(root, 'grep', { pattern: '(a+)+$' });
  t.is(result.status, 'done', result.summary);
  t.is(result.payload, 'a.txt:2: aaaa');
});

test('ignore_case matches whatever the case, the required literal included', async (t) => {
  const root = writeTree(tempDir(), { 'a.ts': 'const TODO = 1;\n// todo: later\nTodoList\nnothing\n' });
  const result = await call(root, 'grep', { pattern: 'todo', ignore_case: true });
  t.is(result.payload, ['a.ts:1: const TODO = 1;', 'a.ts:2: // todo: later', 'a.ts:3: TodoList'].join('\n'));
  t.is((await call(root, 'grep', { pattern: 'todo' })).payload, 'a.ts:2: // todo: later');
  t.is((await call(root, 'grep', { pattern: '(?i)todo:' })).payload, 'a.ts:2: // todo: later', 'inline flags work too');
});

test('JavaScript syntax is translated; lookaround and backreferences get one line saying what to write instead', async (t) => {
  const root = writeTree(tempDir(), { 'a.ts': 'export function loadAll() {}\nconst a = "x/y";\n' });
  t.is((await call(root, 'grep', { pattern: '(?<verb>load)\\w+\\(' })).payload, 'a.ts:1: export function loadAll() {}');
  t.is((await call(root, 'grep', { pattern: 'x\\/y' })).payload, 'a.ts:2: const a = "x/y";');
  t.is((await call(root, 'grep', { pattern: '[(?=]' })).status, 'done', 'inside a class, (?= is three characters');
  for (const [pattern, what] of [['load(?=All)', /lookahead/], ['(?<!const )a', /negative lookbehind/], ['(["\'])x\\1', /backreference/], ['(?<q>")\\k<q>', /named backreference/]] as const) {
    const result = await call(root, 'grep', { pattern });
    t.is(result.errorCode, 'INVALID_REGEX', pattern);
    t.regex(result.summary, what);
    t.regex(result.summary, /RE2 .* does not have: /);
  }
  const broken = await call(root, 'grep', { pattern: 'a(b' });
  t.is(broken.errorCode, 'INVALID_REGEX');
  t.regex(broken.summary, /is not a valid regular expression: missing closing \)/);
});
