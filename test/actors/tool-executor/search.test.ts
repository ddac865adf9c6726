import test from 'ava';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { gitRepo, tempDir, writeTree } from '../../helpers/temp.js';
import { call } from './harness.js';
import { ProcessGroups } from '../../../actors/tool-executor/process/process-groups.js';
import { runTool } from '../../../actors/tool-executor/run-tool.js';
import { SpillStore } from '../../../actors/tool-executor/files/spill.js';
import { toolSettings } from '../../helpers/tool-settings.js';

function project(): string {
  return gitRepo({
    '.gitignore': 'secret/\n*.log\n!keep.log\n',
    'README.md': '# demo\n',
    'src/index.ts': 'export function main() {\n  return helper();\n}\n',
    'src/util/helper.ts': 'export function helper() {\n  return 42;\n}\n',
    'src/util/helper.test.ts': 'import { helper } from "./helper";\n',
    'secret/key.txt': 'function hidden() {}\n',
    'debug.log': 'function logged() {}\n',
    'keep.log': 'function kept() {}\n',
    'node_modules/dep/index.js': 'function dep() {}\n',
    'img.bin': Buffer.from([0, 1, 2, 102, 117, 110, 99, 116, 105, 111, 110]),
  });
}

test('list shows a tree two levels deep and counts what ignore rules hide', async (t) => {
  const root = project();
  const result = await call(root, 'list', {});
  t.is(result.status, 'done');
  t.is(result.payload, ['.gitignore', 'README.md', 'img.bin', 'keep.log', 'src/', '  index.ts', '  util/'].join('\n'));
  // .git, debug.log, node_modules/ and secret/ are hidden.
  t.is(result.summary, 'list . (depth 2): 7 entries; 4 hidden by ignore rules');
});

test('list honours depth 1–5 and refuses other depths', async (t) => {
  const root = project();
  const deep = await call(root, 'list', { path: 'src', depth: 5 });
  t.is(deep.payload, ['index.ts', 'util/', '  helper.test.ts', '  helper.ts'].join('\n'));
  const shallow = await call(root, 'list', { depth: 1 });
  t.false(shallow.payload.includes('index.ts'));
  const bad = await call(root, 'list', { depth: 6 });
  t.is(bad.errorCode, 'INVALID_ARGS');
  t.is(bad.summary, 'list: "depth" must be between 1 and 5, not 6');
});

test('list of an ignored folder named explicitly lists it anyway', async (t) => {
  const root = project();
  const secret = await call(root, 'list', { path: 'secret' });
  t.is(secret.payload, 'key.txt');
  t.regex(secret.summary, /secret is ignored by the project's rules but listed because it was named/);
  t.is((await call(root, 'list', { path: 'node_modules' })).payload, 'dep/\n  index.js');
});

test('list stops at 500 entries, shallow first, and says so', async (t) => {
  const root = tempDir();
  for (let i = 0; i < 30; i++) {
    mkdirSync(join(root, `d${String(i).padStart(2, '0')}`));
    for (let j = 0; j < 30; j++) writeFileSync(join(root, `d${String(i).padStart(2, '0')}`, `f${j}.txt`), '');
  }
  const result = await call(root, 'list', {});
  t.is(result.payload.split('\n').length, 500);
  t.regex(result.summary, /930 entries; showing the first 500 \(shallowest first\)/);
  t.true(result.payload.split('\n').filter((line) => !line.startsWith(' ')).length === 30, 'every top-level folder is kept');
});

test('list marks symlinks, survives unreadable folders, and refuses files', async (t) => {
  const root = writeTree(tempDir(), { 'a.txt': 'x', 'locked/inner.txt': 'x' });
  symlinkSync(join(root, 'a.txt'), join(root, 'link'));
  symlinkSync(root, join(root, 'loop'));
  const result = await call(root, 'list', {});
  t.true(result.payload.includes('link@'));
  t.true(result.payload.includes('loop@'), 'a symlink loop is listed, not followed');
  t.is((await call(root, 'list', { path: 'a.txt' })).errorCode, 'NOT_A_DIRECTORY');
  chmodSync(join(root, 'locked'), 0o000);
  t.teardown(() => chmodSync(join(root, 'locked'), 0o755));
  t.is((await call(root, 'list', {})).status, 'done');
});

test('glob matches paths, skips ignored files and accepts name-only patterns', async (t) => {
  const root = project();
  const ts = await call(root, 'glob', { pattern: '**/*.ts' });
  t.is(ts.payload, 'src/index.ts\nsrc/util/helper.test.ts\nsrc/util/helper.ts');
  t.is(ts.summary, 'glob "**/*.ts": 3 paths');
  t.is((await call(root, 'glob', { pattern: '*.test.ts' })).payload, 'src/util/helper.test.ts');
  t.is((await call(root, 'glob', { pattern: '*.{md,log}' })).payload, 'README.md\nkeep.log');
  t.is((await call(root, 'glob', { pattern: 'util/*.ts', path: 'src' })).payload, 'src/util/helper.test.ts\nsrc/util/helper.ts');
  t.is((await call(root, 'glob', { pattern: `${root}/src/**/*.test.ts` })).payload, 'src/util/helper.test.ts', 'an absolute pattern works too');
  const none = await call(root, 'glob', { pattern: '*.key' });
  t.regex(none.summary, /no paths match \(4 ignored entries not searched\)/);
});

test('glob past 200 paths shows a sample across top-level folders and spills the full list', async (t) => {
  const tree: Record<string, string> = {};
  for (const top of ['alpha', 'beta', 'gamma']) for (let i = 0; i < 150; i++) tree[`${top}/f${String(i).padStart(3, '0')}.txt`] = '';
  tree['z.txt'] = '';
  const root = writeTree(tempDir(), tree);
  const result = await call(root, 'glob', { pattern: '*.txt' });
  t.regex(result.summary, /451 paths; showing a sample of 200 across 4 top-level folders; full list in \/.*glob-\d+\.txt/);
  const sample = result.payload.split('\n\n')[0]!.split('\n');
  t.is(sample.length, 200);
  for (const top of ['alpha/', 'beta/', 'gamma/']) t.true(sample.filter((p) => p.startsWith(top)).length >= 66, `${top} is represented`);
  t.true(sample.includes('z.txt'));
  t.regex(result.payload, / {2}alpha\/: 150\n {2}beta\/: 150\n {2}gamma\/: 150\n {2}\(top level\): 1/);
  const full = await call(root, 'read', { path: result.meta!.spillPath!, limit: 1000 });
  t.regex(full.summary, /all 451 lines/);
});

test('glob writes its spill file as the walk finds the paths: a glob cancelled midway leaves them there', async (t) => {
  const tree: Record<string, string> = {};
  for (let d = 0; d < 5; d++) for (let f = 0; f < 100; f++) tree[`d${d}/f${String(f).padStart(3, '0')}.txt`] = '';
  const root = writeTree(tempDir(), tree);
  const controller = new AbortController();
  // The spill file is opened at the 201st path (in d2/); the walk sees the abort before the next folder.
  const store = new (class extends SpillStore {
    override lines(kind: string) {
      controller.abort();
      return super.lines(kind);
    }
  })();
  t.teardown(() => store.dispose());
  const result = await runTool(
    { type: 'run', callId: 'call_glob', name: 'glob', args: { pattern: '*.txt' }, context: { root, approvals: 'safe', mode: 'agent', settings: toolSettings(root) } },
    { root, settings: toolSettings(root), signal: controller.signal, emit: () => {}, spill: store, groups: new ProcessGroups() },
    async () => ({ decision: 'approve' }),
  );
  t.is(result.status, 'cancelled');
  t.regex(result.summary, /^glob "\*\.txt" was cancelled; the 300 paths found so far are in \/\S+glob-\d+\.txt$/);
  const spilled = readFileSync(result.meta!.spillPath!, 'utf8').trimEnd().split('\n');
  t.is(spilled.length, 300);
  t.deepEqual([spilled[0], spilled[100], spilled[299]], ['d0/f000.txt', 'd1/f000.txt', 'd2/f099.txt'], 'in the walk order');
  t.is(result.payload.split('\n').length, 200);
});

test('grep finds regex matches in non-ignored text files as path:line: text', async (t) => {
  const root = project();
  const result = await call(root, 'grep', { pattern: 'function \\w+\\(' });
  t.is(result.payload, ['keep.log:1: function kept() {}', 'src/index.ts:1: export function main() {', 'src/util/helper.ts:1: export function helper() {'].join('\n'));
  // The walk reads img.bin and counts it; ripgrep and git grep pick only files where the bytes occur.
  t.regex(result.summary, /^grep \/function \\w\+\\\(\/: 3 matches in 3 files(; 1 binary file skipped)?$/);
  const inBinary = await call(root, 'grep', { pattern: 'unction' });
  t.regex(inBinary.summary, /; 1 binary file skipped$/, 'a binary file holding the pattern is said to be skipped');
  const ci = await call(root, 'grep', { pattern: 'RETURN', ignore_case: true, glob: '*.ts', path: 'src' });
  t.is(ci.payload, 'src/index.ts:2:   return helper();\nsrc/util/helper.ts:2:   return 42;');
  const bad = await call(root, 'grep', { pattern: '(' });
  t.is(bad.errorCode, 'INVALID_REGEX');
});

test('grep spills past 100 matches to a file that read and grep can open', async (t) => {
  const root = writeTree(tempDir(), { 'many.txt': Array.from({ length: 250 }, (_, i) => `hit ${i}`).join('\n') + '\n' });
  const result = await call(root, 'grep', { pattern: '^hit' });
  t.regex(result.summary, /250 matches in 1 file; first 100 shown, all in (\/\S+grep-\d+\.txt)$/);
  t.is(result.payload.split('\n').length, 101);
  const spillPath = result.meta!.spillPath!;
  const again = await call(root, 'grep', { pattern: 'hit 24\\d$', path: spillPath });
  t.is(again.payload.split('\n').length, 10);
  t.regex(again.payload, /grep-\d+\.txt:241: many\.txt:241: hit 240/);
  const read = await call(root, 'read', { path: spillPath, offset: 250 });
  t.is(read.payload, '250\tmany.txt:250: hit 249');
});

test('grep on a named binary file or ignored folder explains itself', async (t) => {
  const root = project();
  t.is((await call(root, 'grep', { pattern: 'x', path: 'img.bin' })).errorCode, 'BINARY_FILE');
  const inIgnored = await call(root, 'grep', { pattern: 'hidden', path: 'secret' });
  t.is(inIgnored.payload, 'secret/key.txt:1: function hidden() {}');
});

test('grep streams a huge file instead of loading it', async (t) => {
  const root = tempDir();
  const line = 'x'.repeat(99) + '\n';
  writeFileSync(join(root, 'big.txt'), line.repeat(100_000) + 'needle\n');
  const result = await call(root, 'grep', { pattern: 'needle' });
  t.is(result.payload, 'big.txt:100001: needle');
});

test('grep skips unreadable files and reads Latin-1 files', async (t) => {
  const root = writeTree(tempDir(), { 'open.txt': 'token here\n', 'closed.txt': 'token hidden\n', 'old.txt': Buffer.from('token caf\xe9\n', 'latin1') });
  chmodSync(root, 0o755);
  chmodSync(join(root, 'closed.txt'), 0o000);
  const fixture = new URL('./run-as-fixture.js', import.meta.url).pathname;
  const uid = process.getuid?.() === 0 ? 65534 : undefined;
  const output = execFileSync(process.execPath, [fixture, JSON.stringify({ root, name: 'grep', args: { pattern: 'token' }, uid })], { encoding: 'utf8' });
  const result = JSON.parse(output) as { payload: string; summary: string; uid: number };
  if (uid !== undefined) t.is(result.uid, uid, 'the call ran unprivileged');
  t.is(result.payload, 'old.txt:1: token café\nopen.txt:1: token here');
  t.regex(result.summary, /2 matches in 2 files; 1 unreadable file skipped/);
});
