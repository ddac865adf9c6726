import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCustomCommands } from '../../../cli/slash/custom-commands.js';
import { initPrompt } from '../../../cli/slash/init-command.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { appHarness } from './app-harness.js';

/** Custom commands and /init in the terminal, against a scripted session. */

function withCommands(tree: Record<string, string>) {
  const root = writeTree(tempDir(), tree);
  const user = tempDir();
  return (session: { state: { root: string }; customCommands?: () => ReturnType<typeof loadCustomCommands> }) => {
    session.state.root = root;
    session.customCommands = () => loadCustomCommands(root, user);
  };
}

const commands = {
  '.reika/commands/review.md': '---\ndescription: Review the staged changes\nargument-hint: [focus]\n---\nReview the staged diff, focusing on $ARGUMENTS.\n',
  '.reika/commands/fix-issue.md': 'Fix issue #$ARGUMENTS.\n',
  '.reika/commands/broken.md': '---\ndescription: no end\n',
  '.reika/commands/help.md': 'shadowing a built-in\n',
};

test('/NAME args sends the expanded prompt as a message; the transcript shows what was typed', async (t) => {
  const h = await appHarness(t, [async (_input, { emit }) => (emit({ type: 'text', text: 'reviewed' }), { status: 'done' })], withCommands(commands));
  h.type('/review error handling\r');
  await h.until('reviewed');
  t.deepEqual(h.session.inputs, ['Review the staged diff, focusing on error handling.']);
  t.regex(h.vt.all(), /› \/review error handling/);
  t.false(h.vt.all().includes('› Review the staged diff'));
});

test('/help lists the custom commands with their descriptions, and says in one line which could not be used', async (t) => {
  const h = await appHarness(t, [], withCommands(commands));
  h.type('/help\r');
  const screen = await h.until('Custom commands');
  t.regex(screen, /\/review \[focus\] +Review the staged changes/);
  t.regex(screen, /\/fix-issue \[args\] +Fix issue #\$ARGUMENTS\./);
  t.regex(screen, /! \S*broken\.md: the front matter has no closing "---" line/);
  t.regex(screen, /! \S*help\.md: \/help is a built-in command, which wins;\s+rename the file/);
  t.regex(screen, /\/exit +leave reika/, 'the built-ins are all still there');
});

test('Tab completes custom command names too', async (t) => {
  const h = await appHarness(t, [], withCommands(commands));
  h.type('/rev\t');
  t.is(h.app.editor.text, '/review ');
  h.app.editor.clear();
  h.type('/fix\t');
  t.is(h.app.editor.text, '/fix-issue ');
});

test('a broken command says why when it is typed; an unknown one suggests the closest', async (t) => {
  const h = await appHarness(t, [], withCommands(commands));
  h.type('/broken\r');
  await h.until(/broken\.md: the front matter has no closing "---" line/);
  h.type('/reviw\r');
  await h.until('unknown command /reviw — did you mean /review?');
  t.deepEqual(h.session.inputs, []);
});

const draft = '# AGENTS.md\n\nBuild with `npm run build`; test with `npm test`.\n';

test('/init asks for a draft in a read-only turn, shows it as a diff, and writes AGENTS.md only when approved', async (t) => {
  const h = await appHarness(
    t,
    [async (_input, { emit }) => (emit({ type: 'text', text: 'Here it is.' }), { status: 'done', answer: `Here it is.\n\n\`\`\`markdown\n${draft}\`\`\`\n` })],
    withCommands({}),
  );
  const file = join(h.session.state.root, 'AGENTS.md');
  h.type('/init\r');
  await h.until('? init needs approval: create AGENTS.md with the model\'s draft');
  t.deepEqual(h.session.inputs, [initPrompt(false)]);
  t.deepEqual(h.session.turnOptions, [{ readOnly: true }]);
  t.regex(h.vt.all(), /› \/init/);
  t.regex(h.vt.all(), /\+# AGENTS\.md\n.*\n *\+Build with `npm run build`; test with `npm test`\./);
  t.false(existsSync(file), 'nothing is written before the answer');
  h.type('y');
  await h.until('wrote AGENTS.md (3 lines)');
  t.is(readFileSync(file, 'utf8'), draft);
});

test('/init declined leaves an existing AGENTS.md as it was', async (t) => {
  const h = await appHarness(
    t,
    [async () => ({ status: 'done', answer: `\`\`\`markdown\n${draft}\`\`\`` })],
    withCommands({ 'AGENTS.md': '# old\n' }),
  );
  h.type('/init\r');
  await h.until("? init needs approval: replace AGENTS.md with the model's draft");
  t.deepEqual(h.session.inputs, [initPrompt(true)]);
  t.regex(h.vt.all(), /-# old/);
  h.type('n');
  await h.until('AGENTS.md not written (declined)');
  t.is(readFileSync(join(h.session.state.root, 'AGENTS.md'), 'utf8'), '# old\n');
});

test('/init with an interrupted or empty turn writes nothing', async (t) => {
  const h = await appHarness(t, [async () => ({ status: 'aborted' }), async () => ({ status: 'done', answer: '   ' })], withCommands({}));
  h.type('/init\r');
  await h.until('/init: no draft (interrupted); nothing was written');
  h.type('/init\r');
  await h.until('/init: the model gave no draft; nothing was written');
  t.false(existsSync(join(h.session.state.root, 'AGENTS.md')));
});

test('the / palette lists custom commands with their descriptions, read once while it is open', async (t) => {
  let reads = 0;
  const setup = withCommands(commands);
  const h = await appHarness(t, [], (session) => {
    setup(session);
    const load = session.customCommands!;
    session.customCommands = () => (reads++, load());
  });
  h.type('/');
  h.type('r');
  h.type('e');
  await h.until('Review the staged changes');
  t.regex(h.vt.text(), /^\/review +Review the staged changes$/m);
  t.is(reads, 1, 'the commands folder is read when the palette opens, not per key');
});
