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
