import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer, type WireJson } from '../helpers/scripted-server.js';
import { processesRunning } from '../helpers/processes.js';
import { gitRepo, tempDir, writeTree } from '../helpers/temp.js';
import { processesIn, runReika } from './headless-helpers.js';

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

async function server(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const s = await startScriptedServer(...args);
  servers.push(s);
  return s;
}

const env = (s: ScriptedServer, extra: Record<string, string> = {}) => ({ REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model', ...extra });

function toolMessages(body: WireJson): string[] {
  return body.messages.filter((m: WireJson) => m.role === 'tool').map((m: WireJson) => m.content as string);
}

test('a multi-step task reads, edits, runs the tests and answers; the file is changed', async (t) => {
  const repo = gitRepo({
    'package.json': JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'node test.js' } }),
    'src/add.js': 'export function add(a, b) {\n  return a - b;\n}\n',
    'test.js': "import { add } from './src/add.js';\nif (add(2, 3) !== 5) { console.log('FAIL'); process.exit(1); }\nconsole.log('PASS');\n",
  });
  const s = await server([
    { content: 'Let me look.', toolCalls: [{ name: 'read', arguments: { path: 'src/add.js' } }] },
    { toolCalls: [{ name: 'edit', arguments: { path: 'src/add.js', old_string: 'return a - b;', new_string: 'return a + b;' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'node test.js' } }] },
    { content: 'Fixed add(): it subtracted. The test passes.' },
  ]);
  // A known window: requests are append-only (with it unknown, older payloads become summaries).
  const run = await runReika(['-p', 'fix the failing test', '--json'], { cwd: repo, env: env(s, { REIKA_CONTEXT_WINDOW: '32768' }) });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.is(result.status, 'answered');
  t.is(result.answer, 'Fixed add(): it subtracted. The test passes.');
  t.is(result.turns, 1, 'one task is one turn');
  t.is(result.requests, 4, 'of four chat requests');
  t.deepEqual(result.toolCalls.map((c: { name: string; status: string }) => [c.name, c.status]), [['read', 'done'], ['edit', 'done'], ['bash', 'done']]);
  t.true(result.usage.promptTokens > 0);
  t.true(result.usage.cachedTokens > 0, 'append-only requests hit the prefix cache');
  // The server models an engine's prefix cache (tools, then messages): each request reuses the whole previous prompt.
  const perRequest = result.usage.requests as { promptTokens: number; cachedTokens: number }[];
  for (let i = 1; i < perRequest.length; i++) t.true(perRequest[i]!.cachedTokens >= perRequest[i - 1]!.promptTokens - 1, `request ${i + 1} reuses request ${i}'s prompt`);
  t.is(typeof result.durationMs, 'number');
  t.is(readFileSync(join(repo, 'src/add.js'), 'utf8'), 'export function add(a, b) {\n  return a + b;\n}\n');
  const chats = s.chatRequests();
  t.is(chats.length, 4);
  t.regex(toolMessages(chats[3]!.json).at(-1)!, /PASS/);
  t.regex(chats[0]!.json.messages[0].content, /Project: calc/);
  t.regex(chats[0]!.json.messages[0].content, /src\/add\.js: add/, 'the repo map is in the system prompt');
});

test('plain output: the answer on stdout, progress on stderr; the prompt may come on stdin', async (t) => {
  const repo = gitRepo({ 'notes.txt': 'alpha\nbeta\n' });
  const s = await server([{ toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] }, { content: 'Two lines: alpha and beta.' }]);
  const run = await runReika([], { cwd: repo, env: env(s), stdin: 'what is in notes.txt?' });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, 'Two lines: alpha and beta.\n');
  t.regex(run.stderr, /✓ read notes\.txt/);
  t.is(s.chatRequests()[0]!.json.messages[1].content, 'what is in notes.txt?');
});

test('text-format tool calls work end to end', async (t) => {
  const repo = gitRepo({ 'a.txt': 'the secret is 42\n' });
  const s = await server([
    { content: 'I will read it.\n<tool_call>\n{"name": "read", "arguments": {"path": "a.txt"}}\n</tool_call>', finishReason: 'stop' },
    { content: 'The secret is 42.' },
  ]);
  const run = await runReika(['-p', 'what is the secret?', '--json'], { cwd: repo, env: env(s) });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.is(result.answer, 'The secret is 42.');
  t.deepEqual(result.toolCalls.map((c: { name: string; status: string }) => [c.name, c.status]), [['read', 'done']]);
  t.is(result.dialect, 'hermes');
  t.regex(toolMessages(s.chatRequests()[1]!.json)[0]!, /the secret is 42/);
});

test('a looping model is stopped within 15 requests', async (t) => {
  const repo = gitRepo({ 'a.txt': 'same\n' });
  const s = await server(() => ({ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }));
  const run = await runReika(['-p', 'loop', '--json'], { cwd: repo, env: env(s) });
  t.is(run.code, 1);
  const result = JSON.parse(run.stdout);
  t.is(result.status, 'loop');
  t.true(s.chatRequests().length <= 15, `${s.chatRequests().length} requests`);
  t.regex(run.stderr, /^reika: stopped: the model repeated the same read call/m);
});

test('SIGINT during a long bash exits 130 and leaves no process', async (t) => {
  const repo = gitRepo({ 'README.md': 'x\n' });
  const s = await server([{ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 61 & echo $! > bg.pid; echo $$ > sh.pid; echo started; wait' } }] }, { content: 'never' }]);
  let signalledAt = 0;
  const run = await runReika(['-p', 'run it', '--stream'], {
    cwd: repo,
    env: env(s),
    onLine(line, child) {
      const event = JSON.parse(line);
      if (event.type === 'tool-output' && event.text.includes('started') && signalledAt === 0) {
        signalledAt = Date.now();
        child.kill('SIGINT');
      }
    },
  });
  const elapsed = Date.now() - signalledAt;
  t.true(signalledAt > 0, 'the command started');
  t.is(run.code, 130, run.stderr);
  // A figure, not a verdict: timing on a shared machine is not a test (bench/ measures it).
  t.log(`exited ${elapsed} ms after SIGINT`);
  const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  t.is(last.type, 'result');
  t.is(last.status, 'aborted');
  for (const file of ['bg.pid', 'sh.pid']) t.true(Number(readFileSync(join(repo, file), 'utf8')) > 0, `${file} was written`);
  // Found by command line: inside the sandbox's PID namespace `$!` and `$$` are not the pids seen out here.
  t.deepEqual(processesRunning('sleep', '61'), [], 'the background sleep is gone');
  t.deepEqual(processesIn(repo), [], 'no actor or command process is left in the project folder');
});

test('SIGTERM while the model streams closes the stream and exits 130', async (t) => {
  const repo = gitRepo({ 'README.md': 'x\n' });
  const s = await server([{ content: 'thinking about it for a very long time '.repeat(20), fault: { type: 'stall', afterBytes: 1_500 } }]);
  let signalledAt = 0;
  const run = await runReika(['-p', 'go', '--stream'], {
    cwd: repo,
    env: env(s),
    onLine(line, child) {
      if (JSON.parse(line).type === 'text-delta' && signalledAt === 0) {
        signalledAt = Date.now();
        child.kill('SIGTERM');
      }
    },
  });
  t.true(signalledAt > 0, 'the reply started streaming');
  t.is(run.code, 130, run.stderr);
  t.log(`exited ${Date.now() - signalledAt} ms after SIGTERM`);
  t.is(await s.chatRequests()[0]!.outcome, 'client-closed', 'the HTTP stream was closed');
  t.deepEqual(processesIn(repo), []);
});

test('headless declines actions that need approval and tells the model', async (t) => {
  const repo = gitRepo({ 'build/keep.txt': 'keep\n' });
  const s = await server([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] }, { content: 'I could not delete build: it needs approval.' }]);
  const run = await runReika(['-p', 'delete build', '--json'], { cwd: repo, env: env(s) });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.deepEqual(result.toolCalls.map((c: { name: string; status: string }) => [c.name, c.status]), [['bash', 'declined']]);
  t.true(existsSync(join(repo, 'build/keep.txt')));
  t.regex(toolMessages(s.chatRequests()[1]!.json)[0]!, /reika runs headless/);
  t.regex(s.chatRequests()[0]!.json.messages[0].content, /You run headless/);
  // Visible to scripts although the model answered: in --json and on stderr.
  t.like(result, { status: 'answered', declined: [{ name: 'bash', arguments: { command: 'rm -rf build' }, status: 'declined' }] });
  t.regex(run.stderr, /^reika: 1 action was declined \(headless: nobody to approve it\): bash rm -rf build — allow with a permission rule \(docs\/settings\.md\) or run interactively$/m);
});

test('--stream ends with a result that lists the declined calls; a run with none has no declined key', async (t) => {
  const repo = gitRepo({ 'build/keep.txt': 'keep\n' });
  const s = await server([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] }, { content: 'It needs approval.' }]);
  const run = await runReika(['-p', 'delete build', '--stream'], { cwd: repo, env: env(s) });
  t.is(run.code, 0, run.stderr);
  const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  t.is(last.type, 'result');
  t.deepEqual(last.declined.map((c: { name: string }) => c.name), ['bash']);
  const calm = await server([{ content: 'Nothing to do.' }]);
  const quiet = await runReika(['-p', 'hello', '--json'], { cwd: repo, env: env(calm) });
  t.false('declined' in JSON.parse(quiet.stdout));
  t.notRegex(quiet.stderr, /declined/);
});

test('the user’s ~/.config/reika/AGENTS.md and a project’s CLAUDE.md reach the system prompt', async (t) => {
  const repo = gitRepo({ 'CLAUDE.md': 'Run make check before you finish.\n' });
  const config = tempDir();
  writeTree(config, { 'reika/AGENTS.md': 'Answer in British English.\n' });
  const s = await server([{ content: 'ok' }]);
  const run = await runReika(['-p', 'hi'], { cwd: repo, env: { ...env(s), XDG_CONFIG_HOME: config } });
  t.is(run.code, 0, run.stderr);
  const system = String(s.chatRequests()[0]!.json.messages[0].content);
  t.regex(system, /Answer in British English\./);
  t.regex(system, /# Instructions from CLAUDE\.md\nRun make check before you finish\./);
  t.true(system.indexOf('British English') < system.indexOf('make check'), 'the user’s file first, the project’s after it');
});

test('user errors print one sentence naming the setting and exit 1', async (t) => {
  const repo = gitRepo({ 'a.txt': 'a\n' });
  const closed = await server([]);
  const url = closed.url;
  await closed.close();
  const unreachable = await runReika(['-p', 'hi'], { cwd: repo, env: { REIKA_BASE_URL: url, REIKA_MODEL: 'm' } });
  t.is(unreachable.code, 1);
  t.regex(unreachable.stderr, /REIKA_BASE_URL/);

  const many = await server([], { models: ['a', 'b'] });
  const unset = await runReika(['-p', 'hi'], { cwd: repo, env: { REIKA_BASE_URL: many.url } });
  t.is(unset.code, 1);
  t.regex(unset.stderr, /REIKA_MODEL is not set .*offers 2 models \(a, b\)/);

  const auth = await server([{ fault: { type: 'status', status: 401 } }], { modelsStatus: 401 });
  const badKey = await runReika(['-p', 'hi'], { cwd: repo, env: { REIKA_BASE_URL: auth.url, REIKA_MODEL: 'm', REIKA_API_KEY: 'wrong' } });
  t.is(badKey.code, 1);
  t.regex(badKey.stderr, /REIKA_API_KEY/);

  const vllm = await server([{ fault: { type: 'status', status: 404, message: 'The model `wrong` does not exist.' } }], { models: ['real-model'] });
  const unknown = await runReika(['-p', 'hi'], { cwd: repo, env: { REIKA_BASE_URL: vllm.url, REIKA_MODEL: 'wrong' } });
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /no model "wrong" — set REIKA_MODEL\. The server offers: real-model/);

  for (const run of [unreachable, unset, badKey, unknown]) {
    const lines = run.stderr.trim().split('\n').filter((line) => !line.startsWith('reika: indexed '));
    t.is(lines.length, 1, run.stderr);
    t.notRegex(run.stderr, /\n\s+at /, 'no stack trace');
    t.is(run.stdout, '');
  }
});
