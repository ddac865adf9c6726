import test from 'ava';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { appendJsonLine, readJsonLines, rewriteJsonLines } from '../../cli/json-lines.js';
import { tempDir } from '../helpers/temp.js';

test('lines appended in a new folder are private to the user and read back in order; a torn line is skipped', (t) => {
  const path = join(tempDir(), 'state', 'reika', 'records.jsonl');
  t.deepEqual(readJsonLines(path), [], 'no file: no values');
  appendJsonLine(path, JSON.stringify({ a: 1 }));
  appendFileSync(path, '{"torn": tr');
  appendFileSync(path, '\n');
  appendJsonLine(path, '"two"');
  t.deepEqual(readJsonLines(path), [{ a: 1 }, 'two']);
  t.is(statSync(path).mode & 0o777, 0o600);
  t.is(statSync(join(path, '..')).mode & 0o777, 0o700);
  rewriteJsonLines(path, ['only']);
  t.is(readFileSync(path, 'utf8'), '"only"\n');
  t.is(statSync(path).mode & 0o777, 0o600);
});
