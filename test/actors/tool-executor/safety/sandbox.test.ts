import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { listProcesses, processesWithMarker } from '../../../../actors/tool-executor/process/procfs.js';
import { MARKER_VARIABLE, ProcessGroups } from '../../../../actors/tool-executor/process/process-groups.js';
import { sandboxedCommand, sandboxNotes, seatbeltProfile, type SandboxRequest } from '../../../../actors/tool-executor/safety/sandbox-policy.js';
import { sandboxSetting, sandboxState } from '../../../../actors/tool-executor/safety/sandbox.js';

// Real bubblewrap. The project and the "outside" folder live under /var/tmp: /tmp is writable
// inside the sandbox by design, so a folder there would not be outside.
const state = await sandboxState('bwrap');
const refused = state.kind !== 'bwrap' && state.program !== undefined;
const sandboxed = refused ? test.skip : test;
const because = refused ? ` (skipped: ${state.note})` : '';

const base = mkdtempSync('/var/tmp/reika-sandbox-');
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
let folders = 0;
function project(): { root: string; out: string } {
  const dir = join(base, String(++folders));
  const root = join(dir, 'project');
  const out = join(dir, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(out);
  writeFileSync(join(out, 'keep.txt'), 'untouched\n');
  return { root, out };
}
const groups = new ProcessGroups();

interface Ran {
  code: number | null;
  output: string;
}

/** Spawns a command the way the bash tool does: detached (its own group), marked, stdin closed. */
function runSandboxed(request: SandboxRequest, onStart?: (pgid: number, marker: string) => void): Promise<Ran> {
  const { file, args } = sandboxedCommand(state, request);
  const marker = groups.nextMarker();
  const child = spawn(file, args, { cwd: request.root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...(request.env ?? process.env), [MARKER_VARIABLE]: marker } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
    if (output.includes('started\n')) onStart?.(child.pid!, marker);
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

function tree(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort().map((name) => `${name}:${safeRead(join(dir, name))}`).join('\n');
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '<dir>';
  }
}

test('bubblewrap is found and can create namespaces on this machine' + because, (t) => {
  t.truthy(state.program, `bwrap must be installed (apt-get install bubblewrap): ${state.note}`);
  if (!refused) t.is(state.kind, 'bwrap');
});

for (const [how, command] of [
  ['an absolute path', 'echo x > OUT/abs.txt'],
  ['..', 'echo x > ../outside/dots.txt'],
  ['a symlink', 'echo x > linked/through-link.txt'],
  ['a subshell cd', '(cd OUT && touch from-subshell)'],
  ['python3 -c', `python3 -c "open('OUT/from-python.txt', 'w').write('x')"`],
  ['rm', 'rm -f OUT/keep.txt'],
] as const) {
  sandboxed(`a write outside the project through ${how} fails and changes nothing outside${because}`, async (t) => {
    const { root, out } = project();
    symlinkSync(out, join(root, 'linked'));
    const before = tree(out);
    const ran = await runSandboxed({ command: command.replaceAll('OUT', out), root, network: false });
    t.not(ran.code, 0, ran.output);
    t.regex(ran.output, /Read-only file system/);
    t.deepEqual(sandboxNotes(ran.output, false), ['outside the project: read-only in the sandbox (the project, the temp folder and package caches are writable)']);
    t.is(tree(out), before);
  });
}

sandboxed(`writes in the project, the temp folder and ~/.npm work${because}`, async (t) => {
  const { root } = project();
  const home = join(base, `home-${++folders}`);
  mkdirSync(join(home, '.npm'), { recursive: true });
  const tmpName = `/tmp/reika-sandbox-${process.pid}-${folders}`;
  t.teardown(() => rmSync(tmpName, { force: true }));
  const ran = await runSandboxed({ command: `mkdir -p src && echo a > src/a.txt && echo t > ${tmpName} && echo n > ~/.npm/x`, root, network: false, home, env: { ...process.env, HOME: home } });
  t.is(ran.code, 0, ran.output);
  t.is(readFileSync(join(root, 'src/a.txt'), 'utf8'), 'a\n');
  t.is(readFileSync(tmpName, 'utf8'), 't\n');
  t.is(readFileSync(join(home, '.npm/x'), 'utf8'), 'n\n');
});

sandboxed(`a command without approval has no network; an approved one reaches a loopback server${because}`, async (t) => {
  const { root } = project();
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end('pong');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /ping HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
  const blocked = await runSandboxed({ command, root, network: false });
  t.not(blocked.code, 0);
  t.regex(blocked.output, /Connection refused|Network is unreachable/);
  t.deepEqual(hits, []);
  const allowed = await runSandboxed({ command, root, network: true });
  t.is(allowed.code, 0, allowed.output);
  t.regex(allowed.output, /pong/);
  t.deepEqual(hits, ['/ping']);
});

sandboxed(`killing the group ends a TERM-ignoring child inside the sandbox${because}`, async (t) => {
  const { root } = project();
  let marker = '';
  const ran = runSandboxed({ command: `bash -c "trap '' TERM; echo started; sleep 300; echo survived"`, root, network: false }, (pgid, mark) => {
    marker = mark;
    void groups.kill(pgid, mark);
  });
  const result = await ran;
  t.false(result.output.includes('survived'));
  t.deepEqual(processesWithMarker(MARKER_VARIABLE, marker, listProcesses()).filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/stat`, 'latin1').includes(') Z');
    } catch {
      return false;
    }
  }), []);
});

sandboxed(`git, npm test and node run normally inside${because}`, async (t) => {
  const { root } = project();
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node -e "console.log(\'tests ok\')"' } }));
  const ran = await runSandboxed({
    command: 'git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git log --oneline | wc -l && npm test --silent && node -e "console.log(process.version)"',
    root,
    network: false,
  });
  t.is(ran.code, 0, ran.output);
  t.regex(ran.output, /^1\ntests ok\nv\d+\./m);
});

test('REIKA_SANDBOX understands auto, bwrap and off, and says so for anything else', (t) => {
  t.deepEqual(sandboxSetting(undefined), { setting: 'auto' });
  t.deepEqual(sandboxSetting(' BWRAP '), { setting: 'bwrap' });
  t.deepEqual(sandboxSetting('off'), { setting: 'off' });
  t.deepEqual(sandboxSetting('firejail'), { setting: 'auto', note: 'REIKA_SANDBOX=firejail is not auto, bwrap or off; using auto' });
});

test('off runs commands unconfined and says so; an unknown platform has no sandbox', async (t) => {
  t.deepEqual(await sandboxState('off'), { setting: 'off', kind: 'none', note: 'REIKA_SANDBOX=off: commands run unconfined' });
  t.is((await sandboxState('auto', 'aix')).note, 'no sandbox on aix: commands run unconfined');
  t.deepEqual(sandboxedCommand({ setting: 'off', kind: 'none' }, { command: 'ls', root: '/', network: false }), { file: '/bin/bash', args: ['-c', 'ls'] });
});

test('the macOS profile denies writes outside the writable folders and the network unless approved', (t) => {
  const { root } = project();
  const profile = seatbeltProfile({ command: 'ls', root, network: false });
  t.regex(profile, /\(deny file-write\*\)/);
  t.true(profile.includes(`(subpath "${root}")`));
  t.regex(profile, /\(deny network\*\)/);
  t.notRegex(seatbeltProfile({ command: 'ls', root, network: true }), /deny network/);
});

test('a refused connection is explained only when the command had no network', (t) => {
  t.deepEqual(sandboxNotes('curl: (6) Could not resolve host: x', false), ['no network in the sandbox: only a command the user approved may use it']);
  t.deepEqual(sandboxNotes('curl: (6) Could not resolve host: x', true), []);
  t.deepEqual(sandboxNotes('all good', false), []);
  const refused = "cp: cannot create regular file '.git/hooks/pre-commit': Read-only file system\nbash: .mcp.json: Is a directory\nbash: /etc/x: Read-only file system\nls: x: Is a directory";
  t.deepEqual(sandboxNotes(refused, false, ['.git/hooks', '.git/config', '.mcp.json']), [
    'protected, read-only in the sandbox: .git/hooks, .mcp.json (what they hold runs later outside it; the write tool asks the user)',
    'outside the project: read-only in the sandbox (the project, the temp folder and package caches are writable)',
  ]);
});
