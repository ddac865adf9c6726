import test from 'ava';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

test('reika -p "/NAME args" sends the custom command\'s prompt with $ARGUMENTS filled in', async (t) => {
  const server = await startScriptedServer([{ content: 'reviewed' }]);
  t.teardown(() => server.close());
  const cwd = gitRepo({ 'README.md': '# demo\n', '.reika/commands/review.md': '---\ndescription: Review\n---\nReview $ARGUMENTS for bugs.\n' });
  const run = await runReika(['-p', '/review src/app.ts'], { cwd, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'coder', REIKA_CONTEXT_WINDOW: '32768' } });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, 'reviewed\n');
  const messages = server.chatRequests()[0]!.json.messages as { role: string; content: string }[];
  t.is(messages.at(-1)?.content, 'Review src/app.ts for bugs.');
});

test('reika -p "/NAME" of a broken command file is one line and exit 1; a /path is still a message', async (t) => {
  const server = await startScriptedServer([{ content: 'a message' }]);
  t.teardown(() => server.close());
  const cwd = gitRepo({ 'README.md': '# demo\n', '.reika/commands/broken.md': '---\ndescription: never closed\n' });
  const env = { REIKA_BASE_URL: server.url, REIKA_MODEL: 'coder', REIKA_CONTEXT_WINDOW: '32768' };
  const broken = await runReika(['-p', '/broken'], { cwd, env });
  t.is(broken.code, 1);
  t.regex(broken.stderr, /^reika: \S+\/\.reika\/commands\/broken\.md: the front matter has no closing "---" line$/m);
  t.is(server.chatRequests().length, 0);
  const plain = await runReika(['-p', '/usr/bin is where?'], { cwd, env });
  t.is(plain.code, 0, plain.stderr);
  t.is((server.chatRequests()[0]!.json.messages as { content: string }[]).at(-1)?.content, '/usr/bin is where?');
});
