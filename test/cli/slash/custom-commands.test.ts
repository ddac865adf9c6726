import test from 'ava';
import { expandCommand, loadCustomCommands } from '../../../cli/slash/custom-commands.js';
import { tempDir, writeTree } from '../../helpers/temp.js';

test("NAME.md in the project's .reika/commands and the user's commands folder are /NAME; the project's wins a clash", (t) => {
  const root = writeTree(tempDir(), {
    '.reika/commands/review.md': '---\ndescription: Review the staged changes\nargument-hint: [focus]\n---\nReview `git diff --staged`, focusing on $ARGUMENTS.\n',
    '.reika/commands/Fix-Issue.md': 'Fix issue #$ARGUMENTS: read it with `gh issue view $ARGUMENTS` first.\n',
    '.reika/commands/shared.md': '---\ndescription: project\n---\nproject body\n',
    '.reika/commands/notes.txt': 'not a command',
  });
  const user = writeTree(tempDir(), { 'commands/shared.md': '---\ndescription: user\n---\nuser body\n', 'commands/standup.md': '# Standup\nSummarise my commits since yesterday.\n' });
  const { commands, problems } = loadCustomCommands(root, user);
  t.deepEqual(problems, []);
  t.deepEqual(commands.map((c) => [c.name, c.source, c.description, c.args]), [
    ['fix-issue', 'project', 'Fix issue #$ARGUMENTS: read it with `gh issue view $ARGUMENTS` first.', undefined],
    ['review', 'project', 'Review the staged changes', '[focus]'],
    ['shared', 'project', 'project', undefined],
    ['standup', 'user', 'Standup', undefined],
  ]);
});

test('$ARGUMENTS becomes what follows the name, every time; a prompt without it gets the arguments as a last paragraph', (t) => {
  t.is(expandCommand({ body: 'Fix issue #$ARGUMENTS (see $ARGUMENTS).' }, '42'), 'Fix issue #42 (see 42).');
  t.is(expandCommand({ body: 'Focus on $ARGUMENTS.' }, ''), 'Focus on .');
  t.is(expandCommand({ body: 'Summarise my commits.' }, 'in French'), 'Summarise my commits.\n\nin French');
  t.is(expandCommand({ body: 'Summarise my commits.' }, ''), 'Summarise my commits.');
  t.is(expandCommand({ body: 'cost: $ARGUMENTS' }, '$& and $1'), 'cost: $& and $1', 'replacement patterns are not interpreted');
});

test('a file with bad front matter, no prompt or a bad name is one line, and the rest load', (t) => {
  const root = writeTree(tempDir(), {
    '.reika/commands/good.md': 'works',
    '.reika/commands/broken.md': '---\ndescription: never closed\nbody\n',
    '.reika/commands/empty.md': '---\ndescription: nothing after\n---\n\n',
    '.reika/commands/bad name.md': 'x',
  });
  const { commands, problems } = loadCustomCommands(root, tempDir());
  t.deepEqual(commands.map((c) => c.name), ['good']);
  t.deepEqual(problems.map((line) => line.slice(root.length)), [
    '/.reika/commands/bad name.md: a command name is letters, digits, "_" or "-" (at most 64), starting with a letter or digit',
    '/.reika/commands/broken.md: the front matter has no closing "---" line',
    '/.reika/commands/empty.md: has no prompt after its front matter',
  ]);
});

test("/init's draft runs from the answer's ```markdown line to the last line closing that fence, else it is the last fenced block, else the whole answer", async (t) => {
  const { draftOf } = await import('../../../cli/slash/init-command.js');
  t.is(draftOf('Intro\n```bash\nnpm test\n```\n\n```markdown\n# A\n\n```bash\nnpm test\n```\n```\nThat is all.'), '# A\n\n```bash\nnpm test\n```\n', 'code blocks inside the draft stay in it');
  t.is(draftOf('```md\n# B\n```'), '# B\n');
  t.is(draftOf('````markdown\n# C\n```sh\nx\n```\n````'), '# C\n```sh\nx\n```\n');
  t.is(draftOf('```markdown\n# unclosed\n'), '# unclosed\n');
  t.is(draftOf('```\n# D\n```'), '# D\n');
  t.is(draftOf('# E\nno fences'), '# E\nno fences\n');
  t.is(draftOf(''), '');
});
