import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../../actors/tool-executor/safety/checkpoint-store.js';
import { runSlashCommand } from '../../cli/slash/commands.js';
import type { SlashContext } from '../../cli/slash/slash-context.js';
import { createStyle } from '../../cli/tui/style.js';
import { git, gitRepo, tempDir } from '../helpers/temp.js';
import { reikaBin } from '../helpers/binary.js';
import { testSite, watchChild } from '../helpers/watchdog.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { runReika } from './headless-helpers.js';

// Checkpoints go to a state folder of this test file's own.
const stateHome = tempDir('reika-xdg-state-');
process.env.XDG_STATE_HOME = stateHome;
process.env.REIKA_SESSION_ID = 'slash-session';
const binary = reikaBin;

function reika(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const site = testSite();
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [binary, ...args], { cwd, env: { ...process.env, REIKA_SESSION_ID: '', XDG_STATE_HOME: stateHome } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: watch.note ? `${watch.note}\n${stderr}` : stderr }),
    );
    const watch = watchChild(child, `reika ${args.join(' ')}`, { site });
  });
}

test('reika undo lists and undoes the last session’s steps in this folder, headless', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'a\n', 'README.md': 'r\n' });
  const store = CheckpointStore.for(root, { stateHome: join(stateHome, 'reika') });
  await store.snapshot('older-session', 'edit', 'README.md');
  await store.snapshot('headless-session', 'bash', 'rm -rf src');
  rmSync(join(root, 'src'), { recursive: true });
  await store.snapshot('headless-session', 'write', 'notes.txt');
  writeFileSync(join(root, 'notes.txt'), 'new\n');

  const listed = await reika(['undo', '--list'], root);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout, /^the last session that changed files here stored no transcript \(its checkpoints: headless-session\)\n2 steps to undo/);
  t.regex(listed.stdout, /1 {2}\d\d:\d\d:\d\d {2}bash {3}rm -rf src {2}reika undo 2\n/);
  t.regex(listed.stdout, /2 {2}\d\d:\d\d:\d\d {2}write {2}notes\.txt {2}reika undo 1\n/);

  const undone = await reika(['undo', '2'], root);
  t.is(undone.code, 0, undone.stderr);
  t.is(undone.stdout, 'undid 2 steps: files are as they were before step 1 (bash: rm -rf src)\n  back      src/a.ts  (deleted since)\n  removed   notes.txt  (created since)\n');
  t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), 'a\n');
  t.false(existsSync(join(root, 'notes.txt')));

  const again = await reika(['undo'], root);
  t.is(again.code, 1);
  t.is(again.stderr, 'reika undo: there is nothing to undo: no checkpoints in this session\n');
  t.is((await reika(['undo', 'x'], root)).stderr, 'reika undo: unknown argument x (usage: reika undo [--list] [N])\n');
  const elsewhere = tempDir();
  t.is((await reika(['undo'], elsewhere)).stderr, `reika undo: no checkpoints for ${elsewhere}: nothing to undo\n`);
});

test('reika undo --list names the session as reika sessions does: its id, date, turns and first prompt', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'one\n' });
  const server = await startScriptedServer([{ toolCalls: [{ name: 'edit', arguments: { path: 'src/a.ts', old_string: 'one', new_string: 'two' } }] }, { content: 'Edited.' }], { models: ['scripted-model'] });
  t.teardown(() => server.close());
  const env = { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', XDG_STATE_HOME: stateHome, REIKA_CHECKPOINTS: 'on' };
  const ran = await runReika(['-p', 'make it two', '--json'], { cwd: root, env });
  t.is(ran.code, 0, ran.stderr);
  const id = JSON.parse(ran.stdout).session as string;
  t.regex(id, /^[0-9a-z]{10}$/);
  const sessions = await runReika(['sessions'], { cwd: root, env });
  const line = sessions.stdout.split('\n').find((row) => row.startsWith(`${id} `));
  t.truthy(line, sessions.stdout);
  const listed = await runReika(['undo', '--list'], { cwd: root, env });
  t.is(listed.code, 0, listed.stderr);
  t.is(listed.stdout.split('\n')[0], 'the last session that changed files here:');
  t.is(listed.stdout.split('\n')[1], line!, 'the same line as reika sessions prints');
  t.regex(listed.stdout, /\n {4}1 {2}\d\d:\d\d:\d\d {2}edit {3}\S*src\/a\.ts {2}reika undo 1\n/);
});

test('reika undo passes over a step that changed no file, undoes the edit before it and names the step it passed', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'one\n' });
  const store = CheckpointStore.for(root, { stateHome: join(stateHome, 'reika') });
  // read (no checkpoint) → edit → `npm test`, which writes nothing.
  await store.snapshot('test-run-session', 'edit', 'src/a.ts');
  writeFileSync(join(root, 'src/a.ts'), 'two\n');
  await store.snapshot('test-run-session', 'bash', 'npm test');
  store.stopWatching();

  const listed = await reika(['undo', '--list'], root);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout, /\n {4}1 {2}\d\d:\d\d:\d\d {2}edit {3}src\/a\.ts {2}reika undo 1\n/);
  t.regex(listed.stdout, /\n {4}2 {2}\d\d:\d\d:\d\d {2}bash {3}npm test {2}changed no file: passed over\n/);

  const undone = await reika(['undo'], root);
  t.is(undone.code, 0, undone.stderr);
  t.is(
    undone.stdout,
    'undid 1 step (passing over 1 that changed no file): files are as they were before step 1 (edit: src/a.ts)\n' +
      '  restored  src/a.ts\n' +
      '  passed    step 2 (bash: npm test)  (changed no file)\n',
  );
  t.is(readFileSync(join(root, 'src/a.ts'), 'utf8'), 'one\n');
  t.is((await reika(['undo'], root)).stderr, 'reika undo: there is nothing to undo: no checkpoints in this session\n');
});

test('reika undo brings back the files of a step that also committed, names the commit it left and does not move HEAD', async (t) => {
  const root = gitRepo({ 'notes.txt': 'notes\n', 'a.txt': 'a\n' });
  const first = git(root, 'rev-parse', 'HEAD').trim();
  const store = CheckpointStore.for(root, { stateHome: join(stateHome, 'reika') });
  await store.snapshot('git-session', 'bash', 'rm -- notes.txt && git commit -qam wip');
  rmSync(join(root, 'notes.txt'));
  git(root, 'commit', '-qam', 'wip');
  const second = git(root, 'rev-parse', 'HEAD').trim();
  const undone = await reika(['undo'], root);
  t.is(undone.code, 0, undone.stderr);
  t.is(
    undone.stdout,
    'undid 1 step: files are as they were before step 1 (bash: rm -- notes.txt && git commit -qam wip)\n' +
      '  back      notes.txt  (deleted since)\n' +
      `  git       HEAD moved since then (main ${first.slice(0, 12)} → main ${second.slice(0, 12)}); undo restores files, not commits or the index: \`git reset --soft ${first.slice(0, 12)}\` moves the branch back\n`,
  );
  t.is(readFileSync(join(root, 'notes.txt'), 'utf8'), 'notes\n');
  t.is(git(root, 'rev-parse', 'HEAD').trim(), second, 'the user’s HEAD is where the step left it');
});

/** The slash commands' context for a session in `root`, with what they print and the errors they say. */
function slashContext(root: string): { context: SlashContext; printed: string[]; errors: string[] } {
  const printed: string[] = [];
  const errors: string[] = [];
  const context = {
    session: { facts: () => ({ root }) },
    style: createStyle(false),
    print: (...lines: string[]) => printed.push(...lines),
    error: (message: string) => errors.push(message),
    exit: () => {},
    busy: () => false,
    forgetApprovals: () => {},
    pendingImages: () => 0,
  } as unknown as SlashContext;
  return { context, printed, errors };
}

test('/checkpoints lists this session’s steps and /undo N restores and says what changed', async (t) => {
  const root = gitRepo({ 'a.txt': 'one\n' });
  const store = CheckpointStore.for(root);
  await store.snapshot('slash-session', 'edit', 'a.txt');
  writeFileSync(join(root, 'a.txt'), 'two\n');
  const { context, printed, errors } = slashContext(root);
  await runSlashCommand('/checkpoints', context);
  t.regex(printed.join('\n'), /1 step to undo[^\n]*\n\s+1 {2}\d\d:\d\d:\d\d {2}edit {3}a\.txt {2}\/undo 1/);
  printed.length = 0;
  await runSlashCommand('/undo x', context);
  t.deepEqual(errors, ['usage: /undo [N] (N a number of steps from 1, got "x")']);
  await runSlashCommand('/undo', context);
  t.deepEqual(printed, ['undid 1 step: files are as they were before step 1 (edit: a.txt)', '  restored  a.txt', '(files only: the conversation still holds those steps)']);
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\n');
  await runSlashCommand('/undo', context);
  t.deepEqual(errors.at(-1), '/undo: there is nothing to undo: no checkpoints in this session');
});

test('/undo passes over a step that changed no file, as reika undo does', async (t) => {
  const root = gitRepo({ 'a.txt': 'one\n' });
  const store = CheckpointStore.for(root);
  await store.snapshot('slash-session', 'edit', 'a.txt');
  writeFileSync(join(root, 'a.txt'), 'two\n');
  await store.snapshot('slash-session', 'bash', 'npm test');
  const { context, printed, errors } = slashContext(root);
  await runSlashCommand('/checkpoints', context);
  t.regex(printed.join('\n'), /2 {2}\d\d:\d\d:\d\d {2}bash {3}npm test {2}changed no file: passed over/);
  printed.length = 0;
  await runSlashCommand('/undo', context);
  t.deepEqual(errors, []);
  t.deepEqual(printed.slice(0, 3), ['undid 1 step (passing over 1 that changed no file): files are as they were before step 1 (edit: a.txt)', '  restored  a.txt', '  passed    step 2 (bash: npm test)  (changed no file)']);
  t.is(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\n');
});
