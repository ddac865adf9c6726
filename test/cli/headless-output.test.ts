import test from 'ava';
import { progressLine } from '../../cli/headless/output.js';

test('progress lines are one line each and count their nouns right', (t) => {
  t.is(progressLine({ type: 'bootstrap', root: '/r', files: 1, repoMapFiles: 1, capped: false, ms: 12 }), 'reika: indexed 1 file, repo map of 1 file (12 ms)');
  t.is(progressLine({ type: 'bootstrap', root: '/r', files: 10_000, repoMapFiles: 357, capped: true, ms: 90 }), 'reika: indexed 10000 files (capped), repo map of 357 files (90 ms)');
  const report = `Report line one\n${'details '.repeat(300)}`;
  const line = progressLine({
    type: 'tool-call',
    turn: 't',
    state: { status: 'done', call: { id: 'c', name: 'subagent', arguments: {}, source: 'native' }, result: { callId: 'c', name: 'subagent', status: 'done', summary: report, payload: report } },
  } as never);
  t.is(line, '✓ subagent — Report line one');
});

test('a finished call reads once: the summary does not repeat the tool and its target', (t) => {
  const line = (name: string, args: Record<string, unknown>, summary: string) =>
    progressLine({ type: 'tool-call', turn: 't', state: { status: 'done', call: { id: 'c', name, arguments: args, source: 'native' }, result: { callId: 'c', name, status: 'done', summary, payload: '' } } } as never);
  t.is(line('read', { path: 'README.md' }, 'read README.md: all 5 lines'), '✓ read README.md — all 5 lines');
  t.is(line('glob', { pattern: '*.ts' }, 'glob "*.ts": 3 paths'), '✓ glob *.ts — 3 paths');
  t.is(line('read', { path: 'empty.txt' }, 'empty.txt is empty (0 lines)'), '✓ read empty.txt — is empty (0 lines)');
  t.is(line('bash', { command: 'npm test' }, 'exit code 0 after 2.1 s'), '✓ bash npm test — exit code 0 after 2.1 s');
});

test('a retry says what failed once, in the server error\'s own words', (t) => {
  t.is(
    progressLine({ type: 'retry', turn: 't', attempt: 1, delayMs: 1000, reason: 'The model server failed with HTTP 500: boom.' } as never),
    'reika: The model server failed with HTTP 500: boom; retry 1 in 1.0 s',
  );
});
