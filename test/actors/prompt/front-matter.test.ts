import test from 'ava';
import { FrontMatterError, parseFrontMatter } from '../../../actors/prompt/front-matter.js';

/**
 * The shapes come from files people keep for other agents: Claude Code's command front matter
 * (`allowed-tools: Bash(git add:*), …`, `argument-hint: [message]`, as its docs show it), the
 * anthropics/skills repository's SKILL.md files (`name`, a long one-line `description`,
 * `license`; a `.claude/commands/*.md` there with `allowed_tools: ["Bash", "Read"]`), and YAML's
 * own block and list forms.
 */

test('key: value lines between --- lines; the rest is the body', (t) => {
  const text = '---\nallowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)\nargument-hint: [message]\ndescription: Create a git commit\n---\n\n## Context\n\nCommit with $ARGUMENTS\n';
  const { fields, body } = parseFrontMatter(text);
  t.deepEqual(fields, { 'allowed-tools': 'Bash(git add:*), Bash(git status:*), Bash(git commit:*)', 'argument-hint': '[message]', description: 'Create a git commit' });
  t.is(body, '\n## Context\n\nCommit with $ARGUMENTS\n');
});

test('a SKILL.md with a long description, a flow list and a licence line', (t) => {
  const text = '---\nname: pdf\ndescription: Use this skill whenever the user wants to do anything with PDF files: read, merge, split, fill forms.\nlicense: Proprietary. LICENSE.txt has complete terms\nallowed_tools: ["Bash", "Read"]\n---\n# PDF\n';
  const { fields } = parseFrontMatter(text);
  t.is(fields.name, 'pdf');
  t.is(fields.description, 'Use this skill whenever the user wants to do anything with PDF files: read, merge, split, fill forms.');
  t.is(fields.allowed_tools, '["Bash", "Read"]', 'kept as written: reika reads no list keys');
});

test('quotes, comments, blocks and lists', (t) => {
  const text = [
    '---',
    '# a comment line',
    'name: "review: strict"   # trailing comment',
    "title: 'it''s fine'",
    'escaped: "say \\"hi\\"\\n"',
    'plain: a value # with a comment',
    'hash: C# is kept without a space before it',
    'folded: >',
    '  one',
    '  two',
    '',
    'literal: |',
    '  line 1',
    '    indented',
    'tools:',
    '  - read',
    '  - "grep"',
    '---',
    'body',
  ].join('\n');
  const { fields, body } = parseFrontMatter(text);
  t.deepEqual(fields, {
    name: 'review: strict',
    title: "it's fine",
    escaped: 'say "hi"\n',
    plain: 'a value',
    hash: 'C# is kept without a space before it',
    folded: 'one two',
    literal: 'line 1\n  indented',
    tools: 'read, grep',
  });
  t.is(body, 'body');
});

test('no front matter: all of it is the body; CRLF and a BOM are read too', (t) => {
  t.deepEqual(parseFrontMatter('# Title\n---\nx: y\n'), { fields: {}, body: '# Title\n---\nx: y\n' });
  t.deepEqual(parseFrontMatter('\uFEFF---\r\ndescription: Windows\r\n---\r\nbody\r\n'), { fields: { description: 'Windows' }, body: 'body\n' });
  t.deepEqual(parseFrontMatter('---\n---\nempty front matter'), { fields: {}, body: 'empty front matter' });
});

test('what is not front matter is one line that names the line', (t) => {
  const cases: [string, string][] = [
    ['---\ndescription: never closed\n', 'the front matter has no closing "---" line'],
    ['---\njust words\n---\n', 'front matter line 2 is not "key: value": "just words"'],
    ['---\na: 1\na: 2\n---\n', 'front matter line 3: "a" is given twice'],
    ['---\nname: "open\n---\n', 'front matter line 2: the double quote is not closed'],
    ["---\nname: 'x' y\n---\n", 'front matter line 2: text after the closing quote'],
    ['---\nname: x\n  indented\n---\n', 'front matter line 3: an indented line after "name: x"'],
    ['---\ntools:\n  read\n---\n', 'front matter line 3: "tools" is followed by indented lines that are not a "- item" list'],
  ];
  for (const [text, message] of cases) {
    const error = t.throws(() => parseFrontMatter(text), undefined, text);
    t.true(FrontMatterError.isInstance(error), text);
    t.is(error?.message, message);
    t.false(error!.message.includes('\n'));
  }
});
