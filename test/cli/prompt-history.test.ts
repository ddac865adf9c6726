import test from 'ava';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { HISTORY_LIMIT, PromptHistory } from '../../cli/prompt-history.js';
import { tempDir } from '../helpers/temp.js';

const place = () => ({ root: tempDir('reika-project-'), env: { XDG_STATE_HOME: tempDir('reika-xdg-') } });

test('the history of a project comes back deduplicated (a repeat moves to the newest place), oldest first', (t) => {
  const { root, env } = place();
  const history = new PromptHistory(root, [], env);
  for (const line of ['one', 'two', 'one', '  ', 'three\nlines', 'two']) history.add(line);
  t.deepEqual(new PromptHistory(root, [], env).entries(), ['one', 'three\nlines', 'two']);
  t.deepEqual(new PromptHistory(tempDir('reika-other-'), [], env).entries(), [], 'another folder has its own');
  t.is(statSync(history.file).mode & 0o777, 0o600);
});

test('the history is capped, compacted once it holds twice the cap, skips a torn line, and never holds a key', (t) => {
  const { root, env } = place();
  const key = 'sk-history-0123456789';
  const history = new PromptHistory(root, [key], env);
  for (let i = 0; i < 2 * HISTORY_LIMIT + 5; i++) history.add(`prompt ${i}`);
  history.add(`use ${key}`);
  appendFileSync(history.file, '"torn');
  const entries = history.entries();
  t.is(entries.length, HISTORY_LIMIT);
  t.is(entries.at(-1), 'use [redacted]');
  t.is(entries[0], `prompt ${HISTORY_LIMIT + 6}`);
  const text = readFileSync(history.file, 'utf8');
  t.false(text.includes(key));
  t.is(text.trim().split('\n').length, HISTORY_LIMIT, 'rewritten compact');
});
