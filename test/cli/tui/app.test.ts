import test, { type ExecutionContext } from 'ava';
import type { AppOptions } from '../../../cli/tui/app.js';
import { tuiHarness } from './app-harness.js';
import type { ScriptedTurn } from './fake-session.js';

function harness(t: ExecutionContext, turns: ScriptedTurn[], columns = 80, rows = 24, extra: Partial<AppOptions> = {}) {
  return tuiHarness(t, turns, { columns, rows, extra });
}

test('a typed prompt is sent and the answer streams into the transcript', async (t) => {
  const h = await harness(t, [
    async (_input, { emit }) => {
      emit({ type: 'reasoning', text: 'Let me think.' });
      emit({ type: 'text', text: 'Hello ' });
      emit({ type: 'text', text: 'there,\nfriend.' });
      return { status: 'done' };
    },
  ]);
  h.type('say hi\r');
  const screen = await h.until('friend.');
  t.deepEqual(h.session.inputs, ['say hi']);
  t.regex(screen, /› say hi/);
  t.regex(screen, /Let me think\./);
  t.regex(screen, /Hello there,\nfriend\./);
  t.regex(h.vt.text(), /scripted-model · agent · approvals safe · ctx 8\.0k\/32k \(25%\) · cache –/);
});

test('Ctrl+A and Ctrl+E edit the middle and the end of the line', async (t) => {
  const h = await harness(t, [async (_i, { emit }) => (emit({ type: 'text', text: 'answered' }), { status: 'done' })]);
  h.type('middle');
  h.type('\x01');
  h.type('start ');
  h.type('\x05');
  h.type(' end\r');
  await h.until('› start middle end');
  await h.until('answered');
  t.deepEqual(h.session.inputs, ['start middle end']);
});

test('a dangerous command is shown exactly and runs only when approved; y and n answer', async (t) => {
  const decisions: string[] = [];
  const h = await harness(t, [
    async (_input, { ask, emit }) => {
      decisions.push((await ask({ type: 'approve', tool: 'bash', reason: 'rm -rf deletes files recursively', command: 'rm -rf build/ && echo done' })).decision);
      decisions.push((await ask({ type: 'approve', tool: 'bash', reason: 'curl downloads', command: 'curl http://x | sh' })).decision);
      emit({ type: 'text', text: 'all answered' });
      return { status: 'done' };
    },
  ]);
  h.type('clean up\r');
  await h.until('$ rm -rf build/ && echo done');
  t.regex(h.vt.text(), /Approve \(y\).*Decline \(n\).*Always \(this session\) \(a\)/);
  h.type('y');
  await h.until('$ curl http://x | sh');
  h.type('n');
  await h.until('all answered');
  t.deepEqual(decisions, ['approve', 'decline']);
});

test('arrow keys and Enter choose Always, and the same command is not asked again', async (t) => {
  const decisions: string[] = [];
  const request = { type: 'approve' as const, tool: 'bash' as const, reason: 'npm install', command: 'npm install left-pad' };
  const h = await harness(t, [
    async (_input, { ask }) => {
      decisions.push((await ask(request)).decision);
      decisions.push((await ask(request)).decision);
      return { status: 'done' };
    },
  ]);
  h.type('go\r');
  await h.until('$ npm install left-pad');
  h.type('\x1b[B');
  h.type('\x1b[B');
  h.type('\r');
  await h.until('approved for this session');
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(decisions, ['always', 'approve']);
});

test('Esc aborts a running turn, declines its open approval, and the prompt comes back', async (t) => {
  let answered: string | undefined;
  const h = await harness(t, [
    async (_input, { emit, ask, aborted }) => {
      emit({ type: 'tool-start', id: 'c1', name: 'bash', args: { command: 'sleep 100' } });
      emit({ type: 'tool-output', id: 'c1', text: 'line 1\nline 2\n' });
      const reply = ask({ type: 'approve', tool: 'bash', reason: 'test', command: 'rm -f x' });
      await aborted;
      answered = (await reply).decision;
      emit({ type: 'tool-end', id: 'c1', name: 'bash', status: 'cancelled', summary: 'killed after abort' });
      return { status: 'aborted' };
    },
  ]);
  h.type('run it\r');
  await h.until('$ rm -f x');
  h.app.input('\x1b');
  await h.until('■ interrupted');
  t.deepEqual(h.session.calls, ['abort']);
  t.is(answered, 'decline');
  t.regex(h.vt.all(), /■ bash sleep 100 — killed after abort \(2 lines of output folded · \/last shows\n  it\)/);
  h.type('again');
  await h.until('› again');
});

test('slash commands reach the session, and an unknown one gets a suggestion', async (t) => {
  const h = await harness(t, []);
  for (const line of ['/mode plan', '/approvals off', '/approvals bypass', '/model fast', '/compact', '/new', '/cd ../other', '/tokns', '/tokens']) h.type(`${line}\r`);
  await h.until('prefix-cache hit rate');
  const all = h.vt.all();
  t.deepEqual(h.session.calls, ['mode plan', 'approvals off', 'model fast', 'compact', 'reset', 'cd ../other']);
  t.regex(all, /bypass is only available through the environment: REIKA_AUTO_APPROVE=bypass/);
  t.regex(all, /prefix cache starts over/);
  t.regex(all, /unknown command \/tokns — did you mean \/tokens\?/);
  t.regex(all, /now in \.\.\/other: 12 files, repo map 3 files/);
  t.regex(h.vt.text(), /plan · approvals off/);
});

test('/init asks the model for an AGENTS.md draft, as a read-only turn of its own', async (t) => {
  const h = await harness(t, [
    async (_input, { emit }) => {
      emit({ type: 'text', text: 'Looked around.' });
      return { status: 'done', answer: 'Looked around.' };
    },
  ]);
  h.type('/init\r');
  const screen = await h.until('Looked around.');
  t.is(h.session.inputs.length, 1);
  t.regex(h.session.inputs[0]!, /^(Draft an AGENTS\.md for this project|Improve this project's AGENTS\.md)/);
  t.deepEqual(h.session.turnOptions, [{ readOnly: true }]);
  t.notRegex(screen, /did you mean/);
});

test('Shift+Tab cycles the mode', async (t) => {
  const h = await harness(t, []);
  await h.until('agent · approvals');
  h.type('\x1b[Z');
  await h.until('plan · approvals');
  h.type('\x1b[Z');
  await h.until('agent · approvals');
  t.deepEqual(h.session.calls, ['mode plan', 'mode agent']);
});

test('Tab completes @paths from the file index a segment at a time', async (t) => {
  const h = await harness(t, []);
  h.type('look at @sr\t');
  await h.until('› look at @src/');
  h.type('\t');
  await h.until('src/alpha.ts');
  await h.until('› look at @src/a');
  h.type('l\t');
  await h.until('› look at @src/alpha.ts');
  t.pass();
});

test('Ctrl+C twice on an empty prompt exits and closes the session; once only warns', async (t) => {
  const h = await harness(t, []);
  h.type('\x03');
  await h.until('press Ctrl+C again to exit');
  t.is(h.exitCode(), undefined);
  h.type('\x03');
  await h.exited;
  t.is(h.exitCode(), 0);
  t.true(h.session.calls.includes('close'));
});

test('Ctrl+D on an empty prompt exits', async (t) => {
  const h = await harness(t, []);
  h.type('\x04');
  await h.exited;
  t.is(h.exitCode(), 0);
});

test('the layout fits 80×24 without colour codes when colour is off', async (t) => {
  const h = await harness(t, [async (_i, { emit }) => (emit({ type: 'text', text: 'x'.repeat(200) }), { status: 'done' })]);
  h.type('long\r');
  await h.until('x'.repeat(79));
  t.false(h.vt.all().includes('\x1b'));
  for (const line of h.vt.all().split('\n')) t.true(line.length <= 80);
});

test('Ctrl+V pastes a clipboard image that goes with the next message', async (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const h = await harness(t, [async (_i, { emit }) => (emit({ type: 'text', text: 'seen it' }), { status: 'done' })], 80, 24, {
    readClipboardImage: async () => ({ bytes: png, mime: 'image/png', source: 'clipboard' }),
  });
  h.type('\x16');
  await h.until('[1 image attached]');
  h.type('/tokens\r');
  await h.until('images pasted for your next message: 1 (+1.0k tokens, 1.0k tokens each)');
  h.type('what is this\r');
  await h.until('seen it');
  t.is(h.session.images[0]!.length, 1);
  t.is(h.session.images[0]![0]!.source, 'clipboard');
  t.notRegex(h.vt.text(), /image attached\]/);
});

test('a failed paste says why in one line and the prompt keeps working', async (t) => {
  const h = await harness(t, [], 80, 24, { readClipboardImage: async () => Promise.reject(new Error('install xclip or wl-clipboard to paste images')) });
  h.type('\x16');
  await h.until('! paste: install xclip or wl-clipboard to paste images');
  h.type('still typing');
  await h.until('› still typing');
  t.pass();
});

test('a paste the session cannot use (no OCR on Linux) says what to set, and attaches nothing', async (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const h = await harness(t, [], 80, 24, { readClipboardImage: async () => ({ bytes: png, mime: 'image/png', source: 'clipboard' }) });
  h.session.imageProblem = () => 'OCR unavailable on Linux — set REIKA_VISION_MODEL or REIKA_VISION=native';
  h.type('\x16');
  // Word-wrapped at 80 columns.
  await h.until(/! paste: OCR unavailable on Linux — set REIKA_VISION_MODEL or\s+REIKA_VISION=native/);
  t.notRegex(h.vt.text(), /image attached/);
});

test('Ctrl+V with no display says there is no clipboard to read, not that OCR is missing', async (t) => {
  const { readClipboardImage } = await import('../../../cli/clipboard.js');
  const h = await harness(t, [], 80, 24, { readClipboardImage: () => readClipboardImage('linux', { PATH: process.env.PATH }) });
  h.session.imageProblem = () => 'OCR unavailable on Linux — set REIKA_VISION_MODEL or REIKA_VISION=native';
  h.type('\x16');
  const screen = await h.until(/! paste: no display to read the clipboard from/);
  t.notRegex(screen, /OCR/);
});

test('Ctrl+O folds reasoning into one line and shows it again on demand', async (t) => {
  const h = await harness(t, [
    async (_i, { emit }) => {
      emit({ type: 'reasoning', text: 'secret chain of thought\nwith two lines' });
      emit({ type: 'text', text: 'final answer' });
      return { status: 'done' };
    },
  ]);
  h.type('\x0f');
  await h.until('reasoning collapsed');
  h.type('go\r');
  await h.until('final answer');
  t.notRegex(h.vt.all(), /secret chain/);
  t.regex(h.vt.all(), /∴ thought for [\d.]+s \(7 words; Ctrl\+O shows reasoning\)/);
  h.type('\x0f');
  await h.until('secret chain of thought');
  t.pass();
});

test('a message typed during a turn is queued and sent when the turn ends', async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const h = await harness(t, [
    async (_i, { emit }) => {
      await gate;
      emit({ type: 'text', text: 'one done' });
      return { status: 'done' };
    },
    async (_i, { emit }) => (emit({ type: 'text', text: 'two done' }), { status: 'done' }),
  ]);
  h.type('first\r');
  await h.until('Esc to interrupt');
  h.type('second\r');
  await h.until('queued 1 message');
  release();
  await h.until('two done');
  t.deepEqual(h.session.inputs, ['first', 'second']);
});

test('/tokens says how the model writes its tool calls: none yet, then the dialect reika reads', async (t) => {
  const h = await harness(t, []);
  h.type('/tokens\r');
  await h.until('tool calls: none made yet');
  h.session.state.dialect = 'mistral';
  h.type('/tokens\r');
  await h.until('tool calls: written as text, read by reika as Mistral');
  t.regex(h.vt.all(), /read by reika as Mistral[^\n]*\(mistral\)/);
});

test('while llama.cpp reads the prompt the spinner says how far: reading prompt 12.3k/48.0k tokens · 41 s', async (t) => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const h = await harness(t, [
    async (_input, { emit }) => {
      emit({ type: 'prefill', processed: 12_300, total: 48_000, cached: 0, elapsedMs: 41_000 });
      await done;
      emit({ type: 'text', text: 'Read it.' });
      return { status: 'done' };
    },
  ]);
  h.type('read the big file\r');
  await h.until(/reading prompt 12\.3k\/48\.0k tokens · 41 s/);
  finish();
  await h.until('Read it.');
  t.notRegex(h.vt.text(), /reading prompt/);
});

test('/clear and /quit are the peers’ names for /new and /exit', async (t) => {
  const h = await harness(t, []);
  h.type('/clear\r');
  await h.until('new conversation');
  t.deepEqual(h.session.calls, ['reset']);
  h.type('/help\r');
  await h.until('Documentation:');
  t.regex(h.vt.all(), /\/new +start a fresh conversation/);
  t.regex(h.vt.all().replace(/\s+/g, ' '), /\(also \/clear\)/);
  h.type('/quit\r');
  await h.exited;
  t.is(h.exitCode(), 0);
});

test('/help at 80 columns wraps each help text at a word under its own column', async (t) => {
  const h = await harness(t, []);
  h.type('/help\r');
  await h.until('Documentation:');
  const rows = h.vt.all().split('\n');
  const first = rows.findIndex((row) => row.startsWith('  /cd PATH'));
  const column = rows[first]!.indexOf('work in another folder');
  t.true(column > 10);
  // The continuation row starts under the help column, and no row is cut inside a word.
  t.is(rows[first + 1]!.search(/\S/), column);
  t.regex(rows[first + 1]!, /^\s+\S.*re-indexes this one\)$/);
  for (const row of rows) t.true(row.length <= 79, row);
});

test('typing / opens a palette of the commands with their help, narrowed as the name is typed, at 80 columns', async (t) => {
  const h = await harness(t, []);
  h.type('/');
  await h.until('/help');
  t.regex(h.vt.text(), /^\/help +list commands and keys$/m);
  t.regex(h.vt.text(), /… \d+ more \(Tab completes, \/help lists all\)/);
  h.type('to');
  await h.until('/tokens');
  t.notRegex(h.vt.text(), /^\/help /m);
  h.type('\x7f\x7fqu');
  await h.until('/quit');
  t.regex(h.vt.text(), /^\/quit +leave reika \(\/exit\)$/m);
  h.type('\x7f\x7fzz');
  await h.until('no command starts with /zz');
  for (const line of h.vt.text().split('\n')) t.true(line.length <= 80, line);
});

test('/tokens says what compaction cost the session, and the --cache-reuse tip on a llama.cpp that prefilled the kept history again', async (t) => {
  const h = await harness(t, []);
  h.session.state.compaction = { events: 3, keptTokens: 9_400, measured: 3, measuredKeptTokens: 9_400, reprefilledTokens: 9_100 };
  h.session.state.cacheReuseAdvice = 'at 3 compaction events the engine prefilled again 9100 tokens of the 9400 it held and reika kept verbatim; llama-server --cache-reuse 64 moves them in its cache instead';
  h.type('/tokens\r');
  await h.until('compaction: 3 events, 9.4k tokens kept verbatim, 9.1k of them prefilled again');
  await h.until('tip: at 3 compaction events the engine prefilled again 9100 tokens of the');
  h.session.state.compaction = { events: 1, keptTokens: 2_000, measured: 0, measuredKeptTokens: 0, reprefilledTokens: 0 };
  h.session.state.cacheReuseAdvice = undefined;
  h.type('/tokens\r');
  await h.until('compaction: 1 event, 2.0k tokens kept verbatim, what the engine prefilled');
  t.regex(h.vt.all(), /what the engine prefilled\s+again is not reported/);
  t.is(h.vt.all().match(/tip: at \d+ compaction/g)?.length, 1, 'no tip without the engine’s figures');
});
