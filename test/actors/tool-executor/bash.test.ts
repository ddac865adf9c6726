import test from 'ava';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolDelta } from '../../../actors/tool-executor/protocol.js';
import { findProgram } from '../../../actors/find-program.js';
import { sandboxState } from '../../../actors/tool-executor/safety/sandbox.js';
import { processesRunning } from '../../helpers/processes.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { call } from './harness.js';

// Checked before any test is declared (ava wants them all declared at once).
const pidNamespace = (await sandboxState(process.env.REIKA_SANDBOX)).pidNamespace === true;
const canEnter = pidNamespace && process.getuid?.() === 0 && findProgram('nsenter') !== undefined;

test.serial('a command that prints nothing for the idle limit is killed', async (t) => {
  process.env.REIKA_BASH_IDLE_MS = '300';
  t.teardown(() => delete process.env.REIKA_BASH_IDLE_MS);
  const result = await call(tempDir(), 'bash', { command: 'echo start; sleep 30; echo never' });
  t.is(result.status, 'error');
  t.is(result.errorCode, 'BASH_IDLE_TIMEOUT');
  t.regex(result.summary, /produced no output for 0\.3 s; it and its processes were killed/);
  t.is(result.payload, 'start\n');
});

test('bash streams stdout and stderr as deltas and reports the exit code', async (t) => {
  const deltas: ToolDelta[] = [];
  const result = await call(tempDir(), 'bash', { command: 'echo out; echo err >&2; exit 3' }, { deltas });
  t.is(result.status, 'done');
  t.is(result.meta?.exitCode, 3);
  t.regex(result.summary, /^exit code 3 after \d+\.\d s$/);
  t.true(deltas.some((d) => d.stream === 'stdout' && d.text.includes('out')));
  t.true(deltas.some((d) => d.stream === 'stderr' && d.text.includes('err')));
  t.true(result.payload.includes('out\n') && result.payload.includes('err\n'));
});

test('bash runs in the project root with stdin at /dev/null', async (t) => {
  const root = tempDir();
  const result = await call(root, 'bash', { command: 'pwd; cat; readlink /proc/self/fd/0 || true' });
  t.is(result.payload.split('\n')[0], root);
  t.true(result.payload.includes('/dev/null'));
  t.is((await call(root, 'bash', { command: 'true' })).payload, '(no output)');
});

test('bash keeps the first 64 KB and spills the whole output to a file named in the summary', async (t) => {
  const result = await call(tempDir(), 'bash', { command: 'seq 1 100000' });
  t.regex(result.summary, /output 575\.1 KB, first 64 KB shown, all of it in (\/\S+bash-\d+\.txt)/);
  const spillPath = result.meta!.spillPath!;
  t.is(readFileSync(spillPath, 'utf8'), Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join(''));
  const [head, note] = result.payload.split('\n… ');
  t.is(Buffer.byteLength(head!), 64 * 1024);
  t.true(note!.includes(spillPath));
});

test('timeout_ms kills the command and says so, keeping its output', async (t) => {
  const result = await call(tempDir(), 'bash', { command: 'echo begun; sleep 30.5; echo finished', timeout_ms: 1_000 });
  t.is(result.status, 'error');
  t.is(result.errorCode, 'BASH_TIMEOUT');
  // Killed, not waited for: it never got past the sleep, and the sleep is gone.
  t.is(result.payload, 'begun\n');
  t.deepEqual(processesRunning('sleep', '30.5'), []);
});

test('an aborted command ends cancelled with the output it had', async (t) => {
  const controller = new AbortController();
  const pending = call(tempDir(), 'bash', { command: 'echo first; sleep 30' }, { signal: controller.signal, onDelta: () => controller.abort('user pressed Esc') });
  const result = await pending;
  t.is(result.status, 'cancelled');
  t.is(result.payload, 'first\n');
  t.regex(result.summary, /^cancelled after .*; the command and its processes were killed/);
});

test('bash reports the files a command changed in a git repository', async (t) => {
  const root = gitRepo({ 'README.md': 'hi\n', 'dirty.txt': 'a\n', 'same.txt': 'x\n' });
  await call(root, 'bash', { command: 'echo b >> dirty.txt' });
  const result = await call(root, 'bash', { command: 'echo new > new.txt && echo more >> README.md && echo c >> dirty.txt && cat same.txt' });
  t.deepEqual(result.meta?.changedFiles, [join(root, 'README.md'), join(root, 'dirty.txt'), join(root, 'new.txt')]);
  t.regex(result.summary, /changed 3 files: README\.md, dirty\.txt, new\.txt/);
  // Against the checkpoint taken before the command, plain folders get the report too.
  const plain = tempDir();
  const outside = await call(plain, 'bash', { command: 'echo x > a.txt' });
  t.deepEqual(outside.meta?.changedFiles, [join(plain, 'a.txt')]);
});

test('background processes a command leaves behind are stopped when it exits', async (t) => {
  const result = await call(tempDir(), 'bash', { command: 'sleep 307 & echo $!' });
  t.true(Number(result.payload.trim()) > 0);
  // Found by command line: in the sandbox's PID namespace `$!` is not the pid seen out here.
  t.deepEqual(processesRunning('sleep', '307'), []);
  // There the namespace ends with the command and takes its processes along, counted in there
  // before it does; without one reika stops them. Either way the model is told.
  t.regex(result.summary, /background processes it left running were stopped/);
});

test('a command that leaves nothing running is not said to; its exit status and output are its own, and fd 3 is not open to it', async (t) => {
  const root = tempDir();
  const quiet = await call(root, 'bash', { command: '(sleep 0; echo sub) & wait; echo done; exit 3' });
  t.regex(quiet.summary, /^exit code 3 after \d+\.\d s$/);
  t.is(quiet.payload.trim(), 'sub\ndone');
  const fd3 = await call(root, 'bash', { command: 'echo x >&3' });
  t.is(fd3.meta?.exitCode, 1);
  t.regex(fd3.payload, /Bad file descriptor/);
  t.notRegex(fd3.summary, /background/);
  // A daemon that left its session and process group is still the command's.
  const daemon = await call(root, 'bash', { command: 'setsid sleep 313 > /dev/null 2>&1 < /dev/null & echo started' });
  t.regex(daemon.summary, /background processes it left running were stopped/);
  t.deepEqual(processesRunning('sleep', '313'), []);
});

test.serial('unconfined, background processes a command leaves behind are stopped and said to be', async (t) => {
  const before = process.env.REIKA_SANDBOX;
  process.env.REIKA_SANDBOX = 'off';
  t.teardown(() => (before === undefined ? delete process.env.REIKA_SANDBOX : (process.env.REIKA_SANDBOX = before)));
  const result = await call(tempDir(), 'bash', { command: 'sleep 309 & echo $!' });
  t.deepEqual(processesRunning('sleep', '309'), []);
  t.regex(result.summary, /^exit code 0 after \d+\.\d s; background processes it left running were stopped$/);
  // A command that starts none is not said to.
  t.regex((await call(tempDir(), 'bash', { command: 'for i in 1 2 3; do echo $i; done' })).summary, /^exit code 0 after \d+\.\d s$/);
});

// bubblewrap exits as soon as its pid 1 in the sandbox's PID namespace has reaped the command; that
// pid 1 ends after it, tearing the namespace down, which on a loaded machine can outlast the look
// for leftovers (a plain loop was once said to leave processes running). Held here without timing:
// a process entered into the namespace from out here, whose parent is stopped and cannot reap it,
// keeps that pid 1 in its teardown until the parent goes on.
(canEnter ? test : test.skip)('the sandbox ending after the command is not taken for processes the command left running', async (t) => {
  const root = tempDir();
  execFileSync('mkfifo', [join(root, 'go')]);
  const command = 'echo ready; read -r _ < go; for i in 1 2 3; do echo $i; done';
  let entered: ChildProcess | undefined;
  t.teardown(() => entered?.kill('SIGKILL'));
  const enter = async () => {
    try {
      const [shell] = processesRunning('/bin/bash', '-c', command);
      const stat = readFileSync(`/proc/${shell}/stat`, 'latin1');
      const init = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]!;
      entered = spawn('nsenter', ['--target', init, '--pid', '--', '/bin/sh', '-c', 'echo in; exec sleep 311'], { stdio: ['ignore', 'pipe', 'ignore'] });
      const inside = await new Promise<boolean>((resolve) => {
        entered!.stdout!.once('data', () => resolve(true));
        entered!.once('exit', () => resolve(false));
        entered!.once('error', () => resolve(false));
      });
      if (!inside) throw new Error('nsenter ended without entering the sandbox');
      entered.kill('SIGSTOP');
    } finally {
      // The command goes on either way (a failure above then fails the test, not hangs it).
      await writeFile(join(root, 'go'), 'go\n');
    }
  };
  let started: Promise<void> | undefined;
  const result = await call(root, 'bash', { command }, { onDelta: () => (started ??= enter()) });
  await started;
  t.is(result.payload, 'ready\n1\n2\n3\n');
  t.regex(result.summary, /^exit code 0 after \d+\.\d s$/);
  const gone = new Promise((resolve) => entered!.once('exit', resolve));
  entered!.kill('SIGCONT');
  await gone;
  t.deepEqual(processesRunning('sleep', '311'), []);
});

test('plan mode runs read-only commands and refuses the rest', async (t) => {
  const root = gitRepo({ 'a.txt': 'x\n' });
  const ok = await call(root, 'bash', { command: 'git status --short && ls | wc -l && cat a.txt 2>/dev/null' }, { mode: 'plan' });
  t.is(ok.status, 'done');
  for (const command of ['touch b.txt', 'echo x > b.txt', 'git commit -m x', 'sed -i s/x/y/ a.txt', 'find . -delete', 'npm install', 'node -e "1"']) {
    const refused = await call(root, 'bash', { command }, { mode: 'plan' });
    t.is(refused.errorCode, 'READ_ONLY_MODE', command);
  }
  t.is((await call(root, 'bash', { command: 'ls' }, { mode: 'subagent' })).errorCode, 'READ_ONLY_MODE');
});

test('live output stops after 1 MB with a note; the spill file still has everything', async (t) => {
  const deltas: ToolDelta[] = [];
  const result = await call(tempDir(), 'bash', { command: 'head -c 3000000 /dev/zero | tr "\\0" x' }, { deltas });
  const streamed = deltas.filter((d) => d.stream === 'stdout').reduce((sum, d) => sum + d.text.length, 0);
  t.true(streamed >= 1024 * 1024 && streamed < 1024 * 1024 + 128 * 1024, `streamed ${streamed}`);
  t.regex(deltas.at(-1)!.text, /more than 1\.0 MB of output; the rest is not shown live but saved to \/\S+bash-\d+\.txt/);
  t.is(readFileSync(result.meta!.spillPath!).length, 3_000_000);
});

test('the total timeout can come from the project .env file', async (t) => {
  const root = tempDir();
  writeFileSync(join(root, '.env'), 'REIKA_BASH_TIMEOUT_MS=300\n');
  const result = await call(root, 'bash', { command: 'sleep 30' });
  t.is(result.errorCode, 'BASH_TIMEOUT');
  t.regex(result.summary, /timed out after 0\.3 s/);
});
