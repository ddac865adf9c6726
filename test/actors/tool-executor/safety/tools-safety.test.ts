import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CheckpointStore } from '../../../../actors/tool-executor/safety/checkpoint-store.js';
import { sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';
import { checkpointSession } from '../../../../actors/tool-executor/safety/session-id.js';
import { runReika } from '../../../cli/headless-helpers.js';
import { startScriptedServer } from '../../../helpers/scripted-server.js';
import { git, gitRepo } from '../../../helpers/temp.js';
import { call } from '../harness.js';
import { reikaBin } from '../../../helpers/binary.js';

// The tools with the sandbox and checkpoints wired in. Projects and "outside" live under
// /var/tmp: /tmp is writable inside the sandbox by design.
const state = await sandboxState(undefined);
const sandboxed = state.kind === 'bwrap' ? test : test.skip;
const because = state.kind === 'bwrap' ? '' : ` (skipped: ${state.note})`;
const base = mkdtempSync('/var/tmp/reika-tools-safety-');
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
let count = 0;
function folders(): { root: string; out: string } {
  const dir = join(base, String(++count));
  mkdirSync(join(dir, 'project'), { recursive: true });
  mkdirSync(join(dir, 'outside'));
  return { root: join(dir, 'project'), out: join(dir, 'outside') };
}

sandboxed(`a script that writes outside the project runs without a prompt and is refused by the sandbox, in one clear line${because}`, async (t) => {
  const { root, out } = folders();
  writeFileSync(join(root, 'escape.js'), `require('fs').writeFileSync(${JSON.stringify(join(out, 'x.txt'))}, 'x')`);
  const result = await call(root, 'bash', { command: 'node escape.js' });
  t.deepEqual(result.asked, [], 'nothing on the command line says it writes outside');
  t.is(result.meta?.exitCode, 1);
  t.regex(result.summary, /; outside the project: read-only in the sandbox/);
  t.regex(result.payload, /EROFS|read-only file system/i);
  t.deepEqual(readdirSync(out), []);
});

sandboxed(`a command without approval has no network; the same command approved reaches a loopback server${because}`, async (t) => {
  const { root } = folders();
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end('pong');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
  writeFileSync(join(root, 'fetch.js'), `fetch(${JSON.stringify(url)}).then((r) => r.text()).then(console.log, (e) => { console.log('failed', e.cause?.code); process.exit(3); })`);
  const plain = await call(root, 'bash', { command: 'node fetch.js' });
  t.deepEqual(plain.asked, []);
  t.is(plain.meta?.exitCode, 3);
  t.regex(plain.payload, /failed ECONNREFUSED/);
  t.deepEqual(hits, []);
  // `rm -f` makes safe mode ask; the user's yes grants the network too.
  const approved = await call(root, 'bash', { command: 'node fetch.js && rm -f gone.tmp' });
  t.is(approved.asked.length, 1);
  t.is(approved.meta?.exitCode, 0, approved.payload);
  t.regex(approved.payload, /pong/);
  t.deepEqual(hits, ['/ping']);
});

sandboxed(`an abort kills a TERM-ignoring child inside the sandbox${because}`, async (t) => {
  const { root } = folders();
  const controller = new AbortController();
  let started = false;
  const result = await call(root, 'bash', { command: `bash -c 'trap "" TERM; echo started; sleep 313; true'` }, {
    signal: controller.signal,
    onDelta: (delta) => {
      if (delta.text.includes('started') && !started) {
        started = true;
        controller.abort('user pressed Esc');
      }
    },
  });
  t.is(result.status, 'cancelled');
  t.true(started);
  // Found by command line: the pid the command sees is its PID namespace's, not the one seen here.
  t.deepEqual(livingWith('sleep 313'), [], 'the child is gone');
});

/** Live processes whose command line (arguments joined by spaces) includes `text`. */
function livingWith(text: string): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z' && readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').includes(text);
    } catch {
      return false;
    }
  }).map(Number);
}

sandboxed(`git, npm test and node run normally inside${because}`, async (t) => {
  const { root } = folders();
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node -e "console.log(\'tests ok\')"' } }));
  const result = await call(root, 'bash', { command: 'git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git log --oneline | wc -l && npm test --silent && node -p 1+1' });
  t.is(result.meta?.exitCode, 0, result.payload);
  t.is(result.payload, '1\ntests ok\n2\n');
});

test('each bash, edit and write is checkpointed first, and undoing them restores the files byte for byte', async (t) => {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# r\n' });
  const before = readFileSync(join(root, 'src/a.ts'));
  const removed = await call(root, 'bash', { command: 'rm -rf src' }, { approvals: 'bypass' });
  t.is(removed.meta?.checkpoint, 1);
  const written = await call(root, 'write', { path: 'notes.txt', content: 'new\n' });
  t.is(written.meta?.checkpoint, 2);
  const edited = await call(root, 'edit', { path: 'README.md', old_string: '# r', new_string: '# s' });
  t.is(edited.meta?.checkpoint, 3);
  const store = CheckpointStore.for(root);
  t.deepEqual((await store.list(checkpointSession())).map((c) => `${c.tool} ${c.label}`), ['bash rm -rf src', `write ${join(root, 'notes.txt')}`, `edit ${join(root, 'README.md')}`]);
  const undone = await store.undo(checkpointSession(), 3);
  t.deepEqual([undone.changed, undone.recreated, undone.removed], [['README.md'], ['src/a.ts'], ['notes.txt']]);
  t.deepEqual(readFileSync(join(root, 'src/a.ts')), before);
  t.is(git(root, 'status', '--porcelain'), '');
});

test('a read-only step takes no checkpoint: plan mode bash, read', async (t) => {
  const root = gitRepo({ 'a.txt': 'a\n' });
  t.is((await call(root, 'bash', { command: 'ls' }, { mode: 'plan' })).meta?.checkpoint, undefined);
  t.is((await call(root, 'read', { path: 'a.txt' })).meta?.checkpoint, undefined);
  t.deepEqual(await CheckpointStore.for(root).list(checkpointSession()), []);
});

test('headless: a run that deletes src is undone by `reika undo`', async (t) => {
  const root = gitRepo({ 'src/index.js': 'console.log(1);\n', 'package.json': '{}\n' });
  const server = await startScriptedServer([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf src && echo gone' } }] }, { content: 'Deleted src.' }]);
  t.teardown(() => server.close());
  const run = await runReika(['-p', 'delete src'], { cwd: root, env: { REIKA_BASE_URL: server.url, REIKA_MODEL: 'scripted-model', REIKA_AUTO_APPROVE: 'bypass' } });
  t.is(run.code, 0, run.stderr);
  t.false(existsSync(join(root, 'src')));
  const undo = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [reikaBin, 'undo'], { cwd: root }, (_error, stdout, stderr) => resolve({ stdout, stderr })),
  );
  t.is(undo.stdout, 'undid 1 step: files are as they were before step 1 (bash: rm -rf src && echo gone)\n  back      src/index.js  (deleted since)\n', undo.stderr);
  t.is(readFileSync(join(root, 'src/index.js'), 'utf8'), 'console.log(1);\n');
});

test.serial('REIKA_SANDBOX=off runs commands unconfined', async (t) => {
  const { root, out } = folders();
  process.env.REIKA_SANDBOX = 'off';
  t.teardown(() => delete process.env.REIKA_SANDBOX);
  writeFileSync(join(root, 'escape.js'), `require('fs').writeFileSync(${JSON.stringify(join(out, 'x.txt'))}, 'x')`);
  const result = await call(root, 'bash', { command: 'node escape.js' });
  t.is(result.meta?.exitCode, 0, result.payload);
  t.is(readFileSync(join(out, 'x.txt'), 'utf8'), 'x');
});
