import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { progressLine } from '../../cli/headless/output.js';
import { ApprovalPrompt } from '../../cli/tui/approval-prompt.js';
import { createStyle } from '../../cli/tui/style.js';
import { newToolView, toolLine, toolTail, addToolOutput } from '../../cli/tui/tool-line.js';
import { visible } from '../../cli/visible-text.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** Names from tools reach the terminal escaped (issue 21): a right-to-left override must not flip what the user reads. */

const RLO = '\u202e';
const plain = createStyle(false);
// Any control or bidi/format character left raw in a line bound for the terminal.
const RAW = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

test('control, bidi and invisible format characters become escapes; other text stays as it is', (t) => {
  t.is(visible(`invoice${RLO}fdp.exe`), 'invoice\\u202Efdp.exe');
  t.is(visible('a\x1b[2Jb\nc\td\re'), 'a\\x1b[2Jb\\nc\\td\\re');
  t.is(visible('\u0085\u009b'), '\\x85\\x9b');
  t.is(visible('x\u200by\ufeffz\u2066w\u2069\u2028'), 'x\\u200By\\uFEFFz\\u2066w\\u2069\\u2028');
  t.is(visible('日本語 café 🎉 → ✓'), '日本語 café 🎉 → ✓');
});

test('a tool line shows a bidi-named path and its summary escaped, and the output tail too', (t) => {
  const view = newToolView('c1', 'read', { path: `src/invoice${RLO}fdp.exe` }, 0);
  view.state = 'done';
  view.summary = `read src/invoice${RLO}fdp.exe: all 3 lines`;
  const line = toolLine(view, 200, plain);
  t.notRegex(line, RAW);
  t.is(line, '✓ read src/invoice\\u202Efdp.exe — all 3 lines');
  const running = newToolView('c2', 'bash', { command: 'ls' }, 0);
  addToolOutput(running, `evil${RLO}txt.sh\nnext\n`);
  const tail = toolTail(running, 200, plain).join('\n');
  t.notRegex(tail, RAW);
  t.regex(tail, /evil\\u202Etxt\.sh/);
});

test('an approval shows the command, path and diff with their control characters escaped', (t) => {
  const prompt = new ApprovalPrompt({ type: 'approve', tool: 'bash', reason: 'it runs a command', command: `cat ${RLO}gnp.sh\necho \x1b[2J` }, () => {});
  const lines = prompt.describe(plain);
  t.notRegex(lines.join('\n'), RAW);
  t.deepEqual(lines.slice(1), ['  $ cat \\u202Egnp.sh', '  $ echo \\x1b[2J']);
});

test('headless progress on stderr shows names from tools escaped', (t) => {
  const line = progressLine({
    type: 'tool-call',
    turn: 't',
    state: { status: 'done', call: { id: 'c', name: 'read', arguments: { path: `a${RLO}b` }, source: 'native' }, result: { callId: 'c', name: 'read', status: 'done', summary: `read a${RLO}b: all 1 lines`, payload: 'x' } },
  } as never)!;
  t.is(line, '✓ read a\\u202Eb — all 1 lines');
  t.is(progressLine({ type: 'notice', turn: 't', message: `skipped ${RLO}x` }), 'reika: skipped \\u202Ex');
});

test('reika -p reading a file whose name holds U+202E prints the name escaped on stderr, and the model still gets the real name', async (t) => {
  const name = `notes${RLO}txt.sh`;
  const repo = gitRepo({ 'README.md': 'readme\n' });
  writeFileSync(join(repo, name), 'hello\n');
  const server = await startScriptedServer([{ toolCalls: [{ name: 'read', arguments: { path: name } }] }, { content: 'It says hello.' }]);
  t.teardown(() => server.close());
  const run = await runReika(['-p', 'read it'], { cwd: repo, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model' } });
  t.is(run.code, 0, run.stderr);
  t.notRegex(run.stderr, RAW);
  t.regex(run.stderr, /✓ read notes\\u202Etxt\.sh — /);
  const tool = server.chatRequests()[1]!.json.messages.find((m: { role: string }) => m.role === 'tool');
  t.true(tool.content.includes(name), 'the tool result keeps the real name for the model');
});
