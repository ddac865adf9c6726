import test from 'ava';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { issuedFolder, rememberIssued } from '../../../cli/acp/issued-sessions.js';
import { tempDir } from '../../helpers/temp.js';

const id = (n: number): string => n.toString(36).padStart(10, '0');

test('an issued id is found with its folder, the newest record winning; torn and foreign lines are skipped', (t) => {
  const env = { XDG_STATE_HOME: tempDir('reika-state-') };
  t.is(issuedFolder(id(1), env), undefined);
  rememberIssued(id(1), '/work/a', env);
  appendFileSync(join(env.XDG_STATE_HOME, 'reika', 'acp-sessions.jsonl'), '{"id":"0000000002","cw\n{"id":"../../etc","cwd":"/x"}\nnull\n');
  rememberIssued(id(1), '/work/b', env);
  t.is(issuedFolder(id(1), env), '/work/b');
  t.is(issuedFolder(id(2), env), undefined);
  t.is(issuedFolder('../../etc', env), undefined);
});

test('the record keeps the newest thousand ids once it holds twice as many', (t) => {
  const env = { XDG_STATE_HOME: tempDir('reika-state-') };
  const folder = `/work/${'deep/'.repeat(12)}project`;
  for (let n = 1; n <= 2001; n++) rememberIssued(id(n), folder, env);
  const lines = readFileSync(join(env.XDG_STATE_HOME, 'reika', 'acp-sessions.jsonl'), 'utf8').trim().split('\n');
  t.is(lines.length, 1000);
  t.is(issuedFolder(id(1001), env), undefined);
  t.is(issuedFolder(id(1002), env), folder);
  t.is(issuedFolder(id(2001), env), folder);
});
