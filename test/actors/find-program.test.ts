import test from 'ava';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findProgram, isExecutable } from '../../actors/find-program.js';
import { tempDir } from '../helpers/temp.js';

test('a program is the first executable of its name on the path, then in the extra folders; files that cannot run and empty entries are passed over', (t) => {
  const base = tempDir();
  const [plain, first, second, extra] = ['plain', 'first', 'second', 'extra'].map((name) => join(base, name));
  for (const folder of [plain, first, second, extra]) mkdirSync(folder);
  writeFileSync(join(plain, 'tool'), 'not executable');
  for (const folder of [first, second, extra]) {
    writeFileSync(join(folder, 'tool'), '#!/bin/sh\n');
    chmodSync(join(folder, 'tool'), 0o755);
  }
  const path = ['', plain, first, second].join(delimiter);
  t.false(isExecutable(join(plain, 'tool')));
  t.is(findProgram('tool', { path }), join(first, 'tool'));
  t.is(findProgram('tool', { path: plain, extra: [extra] }), join(extra, 'tool'));
  t.is(findProgram('missing', { path, extra: [extra] }), undefined);
  t.is(findProgram('tool', { path: '' }), undefined);
});
