import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startScriptedServer, type Script, type ScriptedServer, type ServerOptions } from '../../helpers/scripted-server.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { Tmux, tmuxMissing } from '../../helpers/tmux.js';
import { reikaBin } from '../../helpers/binary.js';

/**
 * The built `reika` binary in a real terminal (tmux, 80×24) against the scripted model server,
 * in real temporary git repositories.
 */

const mainJs = reikaBin;
const missing = tmuxMissing();
const maybe = missing ? test.skip : test.serial;
if (missing) console.log(`skipping the tmux tests: ${missing}`);

interface Started {
  term: Tmux;
  server: ScriptedServer;
  root: string;
}

async function startReika(t: ExecutionContext, script: Script, options: { tree?: Record<string, string>; env?: Record<string, string>; server?: ServerOptions; root?: string } = {}): Promise<Started> {
  const server = await startScriptedServer(script, options.server ?? { models: ['scripted-model'] });
  t.teardown(() => server.close());
  const root = options.root ?? gitRepo(options.tree ?? { 'src/app.ts': 'export function main() {}\n', 'README.md': '# demo\n' });
  const term = await Tmux.start({
    command: [process.execPath, mainJs],
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: tempDir('reika-home-'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      REIKA_BASE_URL: server.url,
      REIKA_MODEL: 'scripted-model',
      REIKA_CONTEXT_WINDOW: '32000',
      ...options.env,
    },
  });
  t.teardown(() => term.kill());
  await term.waitFor('› ');
  return { term, server, root };
}

/** The text of the last user message of chat request `n` (0-based). */
function lastUser(server: ScriptedServer, n: number): string {
  const messages = server.chatRequests()[n]!.json.messages as { role: string; content: string }[];
  return messages.filter((m) => m.role === 'user').at(-1)!.content;
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function processesMatching(pattern: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

maybe('a typed prompt gets a streamed answer and the status line shows model, context and cache', async (t) => {
  const { term, server } = await startReika(t, [
    { reasoning: 'Let me think about it.', content: 'Hello from the scripted model.\nIt streams line by line.', chunkDelayMs: 5 },
    { content: 'Second answer.', usage: { prompt_tokens: 1000, cached_tokens: 900 } },
  ]);
  term.type('say hello');
  term.keys('Enter');
  const screen = await term.waitFor('It streams line by line.');
  t.regex(screen, /› say hello/);
  t.regex(screen, /Let me think about it\./);
  t.is(lastUser(server, 0), 'say hello');
  term.type('again');
  term.keys('Enter');
  const after = await term.waitFor('Second answer.');
  t.regex(after, /scripted-model · agent · approvals safe · ctx [\d.]+k?\/32k \(\d+%\) · cache \d+%/);
});

maybe('Ctrl+A and Ctrl+E edit the start and the end of the line', async (t) => {
  const { term, server } = await startReika(t, [{ content: 'edited fine' }]);
  term.type('middle');
  term.keys('C-a');
  term.type('start ');
  term.keys('C-e');
  term.type(' end');
  term.keys('Enter');
  await term.waitFor('edited fine');
  t.is(lastUser(server, 0), 'start middle end');
  // Shift+Tab changes the mode only between turns: wait for the turn to end (the placeholder is back).
  await term.waitFor('› type a message');
  term.keys('BTab');
  await term.waitFor(/scripted-model · plan · approvals/);
});

maybe('a dangerous command waits for approval and runs when approved', async (t) => {
  const { term, server, root } = await startReika(t, [
    { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf victim && echo removed-it' } }] },
    { content: 'the folder is gone' },
  ], { tree: { 'victim/file.txt': 'x\n', 'README.md': '# demo\n' } });
  term.type('delete the victim folder');
  term.keys('Enter');
  const asking = await term.waitFor('Approve (y)');
  t.regex(asking, /\$ rm -rf victim && echo removed-it/);
  t.true(existsSync(`${root}/victim`), 'nothing ran before the answer');
  term.type('y');
  await term.waitFor('the folder is gone');
  t.false(existsSync(`${root}/victim`));
  const toolMessage = (server.chatRequests()[1]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!;
  t.regex(toolMessage.content, /removed-it/);
});

maybe('a declined command does not run and the model is told', async (t) => {
  const { term, server, root } = await startReika(t, [
    { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf victim' } }] },
    { content: 'understood, not deleting' },
  ], { tree: { 'victim/file.txt': 'x\n', 'README.md': '# demo\n' } });
  term.type('delete the victim folder');
  term.keys('Enter');
  await term.waitFor('Approve (y)');
  term.keys('Down');
  term.keys('Enter');
  await term.waitFor('understood, not deleting');
  t.true(existsSync(`${root}/victim/file.txt`));
  const toolMessage = (server.chatRequests()[1]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!;
  t.regex(toolMessage.content, /declin/i);
});

maybe('Esc aborts a running command: the prompt comes back and no process is left', async (t) => {
  const marker = `sleep 30${process.pid % 100}7`;
  const { term } = await startReika(t, [
    { toolCalls: [{ name: 'bash', arguments: { command: `${marker}; echo never` } }] },
    { content: 'should not be asked' },
  ]);
  term.type('wait a while');
  term.keys('Enter');
  await term.waitFor(`● bash ${marker}`);
  await until(() => processesMatching(marker).length > 0 || undefined, 'the command to start');
  term.keys('Escape');
  await term.waitFor('■ interrupted');
  await until(() => processesMatching(marker).length === 0 || undefined, 'the command to be killed', 2_000);
  term.type('typing works');
  const screen = await term.waitFor('› typing works');
  t.notRegex(screen, /should not be asked/);
});

maybe('slash commands change mode, approvals, model and conversation, and unknown ones get a suggestion', async (t) => {
  const { term, server } = await startReika(
    t,
    [
      { toolCalls: [{ name: 'read', arguments: { path: 'README.md' } }] },
      { toolCalls: [{ name: 'read', arguments: { path: 'src/app.ts' } }] },
      { content: 'first' },
      { content: 'in plan mode' },
      { content: 'on the fast profile' },
      { content: 'fresh start' },
    ],
    { env: { REIKA_PROFILES: 'fast', REIKA_FAST_MODEL: 'fast-model', REIKA_FAST_CONTEXT_WINDOW: '16000' }, server: { models: ['scripted-model', 'fast-model'] } },
  );
  // REIKA_PROFILES only lists profiles: the session starts on the default one (named here all the same).
  term.type('/model default');
  term.keys('Enter');
  await term.waitFor(/model: scripted-model \(profile default/);
  term.type('/help');
  term.keys('Enter');
  await term.waitFor('/approvals [safe|off]');
  term.type('hello');
  term.keys('Enter');
  await term.waitFor('first');
  t.regex(term.capture(), /✓ read README\.md/);
  t.regex(term.capture(), /✓ read src\/app\.ts/, 'a call id reused by the server still gets its own line');
  term.type('/tokens');
  term.keys('Enter');
  await term.waitFor('tool calls: native (the server parses them)');

  term.type('/mode plan');
  term.keys('Enter');
  await term.waitFor(/scripted-model · plan · approvals safe/);
  term.type('/approvals off');
  term.keys('Enter');
  await term.waitFor(/plan · approvals off/);
  term.type('/approvals bypass');
  term.keys('Enter');
  await term.waitFor('REIKA_AUTO_APPROVE=bypass');
  term.type('plan something');
  term.keys('Enter');
  await term.waitFor('in plan mode');
  const planTools = (server.chatRequests()[3]!.json.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
  t.false(planTools.includes('edit'));
  t.false(planTools.includes('write'));

  // `/model` waits for the turn to end: the idle prompt's placeholder says it has.
  await term.waitFor('type a message');
  term.type('/model fast');
  term.keys('Enter');
  // Its own line: the one `/model default` printed says "prefix cache starts over" too.
  await term.waitFor(/model: fast-model \(profile fast/);
  term.type('quick one');
  term.keys('Enter');
  await term.waitFor('on the fast profile');
  t.is(server.chatRequests()[4]!.json.model, 'fast-model');

  term.type('/tokens');
  term.keys('Enter');
  await term.waitFor(/prefix-cache hit rate: [\d.]+%/);
  term.type('/compact');
  term.keys('Enter');
  await term.waitFor(/compacted: 2 old rounds folded into a recap, [\d.]+k → [\d.]+k tokens/);
  term.type('/new');
  term.keys('Enter');
  await term.waitFor('new conversation');
  term.type('start over');
  term.keys('Enter');
  await term.waitFor('fresh start');
  const roles = (server.chatRequests()[5]!.json.messages as { role: string }[]).map((m) => m.role);
  t.deepEqual(roles, ['system', 'user']);

  term.type('/tokns');
  term.keys('Enter');
  await term.waitFor('did you mean /tokens?');
  term.type('/exit');
  term.keys('Enter');
  t.is(await term.waitForExit(), 0);
});

maybe('/cd into another repository changes the repo map the model sees', async (t) => {
  const other = gitRepo({ 'lib/beta.ts': 'export function betaOnlyFunction() {}\nexport const betaValue = 1;\n' });
  const { term, server, root } = await startReika(t, [{ content: 'in the first repo' }, { content: 'in the second repo' }], {
    tree: { 'src/alpha.ts': 'export function alphaOnlyFunction() {}\n' },
  });
  term.type('where am I');
  term.keys('Enter');
  await term.waitFor('in the first repo');
  // /cd refuses while a turn runs: wait for the turn to end (the placeholder is back).
  await term.waitFor('› type a message');
  const firstSystem = server.chatRequests()[0]!.json.messages[0].content as string;
  t.true(firstSystem.includes(`Working directory: ${root}`));
  t.regex(firstSystem, /alphaOnlyFunction/);
  term.type(`/cd ${other}`);
  term.keys('Enter');
  // The first bootstrap's "now in <root>: …" is on screen already: wait for the new folder's.
  await term.waitFor(`now in ${other}:`);
  term.type('and now');
  term.keys('Enter');
  await term.waitFor('in the second repo');
  const secondSystem = server.chatRequests()[1]!.json.messages[0].content as string;
  t.true(secondSystem.includes(`Working directory: ${other}`));
  t.regex(secondSystem, /betaOnlyFunction/);
  t.notRegex(secondSystem, /alphaOnlyFunction/);
});

maybe('Ctrl-C twice on an empty prompt exits, Ctrl-D exits, and NO_COLOR leaves no colour codes', async (t) => {
  const first = await startReika(t, [], { env: { NO_COLOR: '1' } });
  t.notRegex(first.term.captureEscapes(), /\x1b\[(?:[0-9;]*;)?(?:3\d|2|7)m/);
  first.term.keys('C-c');
  await first.term.waitFor('press Ctrl+C again to exit');
  first.term.keys('C-c');
  t.is(await first.term.waitForExit(), 0);

  const second = await startReika(t, []);
  second.term.keys('C-d');
  t.is(await second.term.waitForExit(), 0);
});

maybe('Ctrl+Z suspends to the shell and fg brings the prompt back with the draft', async (t) => {
  const root = gitRepo({ 'README.md': '# demo\n' });
  const term = await Tmux.start({
    command: ['bash', '--norc', '--noprofile', '-i'],
    cwd: root,
    env: { PATH: process.env.PATH, HOME: tempDir('reika-home-'), TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: 'SHELL$ ', REIKA_BASE_URL: 'http://127.0.0.1:9/v1', REIKA_MODEL: 'm' },
  });
  t.teardown(() => term.kill());
  await term.waitFor('SHELL$');
  term.type(`${process.execPath} ${mainJs}`);
  term.keys('Enter');
  await term.waitFor('› type a message');
  term.type('draft');
  await term.waitFor('› draft');
  term.keys('C-z');
  await term.waitFor(/Stopped[\s\S]*SHELL\$$/);
  term.type('fg');
  term.keys('Enter');
  term.type(' more');
  await term.waitFor('› draft more');
  t.pass();
});

maybe('resizing the terminal redraws the prompt without eating the lines above it', async (t) => {
  const { term } = await startReika(t, [{ content: 'an answer above the prompt' }]);
  term.type('first question');
  term.keys('Enter');
  await term.waitFor('an answer above the prompt');
  // Three rows at 40 columns, one at 120: redrawing with the old row count would erase two lines.
  const draft = 'a draft long enough to wrap twice once the terminal is only forty columns wide, yes';
  term.type(draft);
  await term.waitFor(', yes');
  term.resize(40, 24);
  // reika wraps the draft at words itself, continuation rows indented under the prompt.
  await term.waitFor((screen) => /› a draft long enough to wrap twice\n  once the terminal is only forty\n  columns wide, yes/.test(screen));
  term.resize(120, 24);
  const wide = await term.waitFor(`› ${draft}`);
  t.regex(wide, /an answer above the prompt/);
  t.regex(wide, /› first question/);
  t.is(wide.split('\n').filter((line) => line.startsWith('› a draft')).length, 1, 'one prompt, no leftovers');
});
