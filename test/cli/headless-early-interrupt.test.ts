import test, { type ExecutionContext } from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { describeProcess, processesIn, runReika, type Run } from './headless-helpers.js';

/**
 * Issue 21 item 3: a SIGINT at any moment of `reika -p`, from the spawn on (before the runtime and
 * the session exist, while they start, during the first request), stops whatever starts. The
 * model would edit a file, write another and go on calling tools forever; after the signal no
 * request may be sent and nothing written, and the exit code is 130. Asserted on facts (what the
 * server received, what is on disk), not on timings: the delays only spread the signals over the
 * startup; on a loaded machine they land in other phases, and every phase must hold.
 *
 * The facts "before the signal" are taken with reika frozen: its whole process tree is stopped
 * (SIGSTOP, every thread seen stopped), the server takes in whatever had been sent until its
 * request count holds still, the project's files are read, and only then the SIGINT is sent and the
 * tree continued. Without the freeze a request reika had sent before the signal, still unread by
 * this (loaded) process when the signal went, counted as sent after it: the clean-clone CI run at
 * load ~10 saw /v1/models and the detection wave "after" the signal that way.
 */
const STEPS = 10;
/** model-io `detect` asks /props, /api/version, /get_server_info and /version at once. */
const DETECTION_WAVE = 4;
const LAST_MS = 300;

/** The reply's bytes go out in pieces of this size, `chunkDelayMs` apart (unsplit, it would be written at once). */
const STREAMED = { mode: 'fixed', size: 200 } as const;

/**
 * Every reply calls a tool that changes the project; the model never answers. Each streams for
 * about 8 s (a preamble in 4-character deltas, 200 bytes every 125 ms), so a stream under way at
 * the signal is still under way when the abort reaches it, however long the freeze and the
 * wind-down take on a loaded machine: it must end closed by the client.
 */
function reply(_request: unknown, index: number): ScriptedReply {
  const stream = { content: 'Let me change the files now. '.repeat(10), chunkDelayMs: 125, split: STREAMED };
  if (index % 2 === 0) return { ...stream, toolCalls: [{ name: 'edit', arguments: { path: 'a.txt', old_string: `v${index}`, new_string: `v${index + 2}` } }] };
  return { ...stream, toolCalls: [{ name: 'write', arguments: { path: `w${index}.txt`, content: 'written\n' } }] };
}

/** The process and every process under it. */
function treeOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const tree: number[] = [];
  for (let todo = [pid]; todo.length > 0; ) {
    const next = todo.pop()!;
    tree.push(next);
    todo.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** True once every thread of `pid` is stopped (or it is gone). */
function stopped(pid: number): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return true;
  }
  return tasks.every((task) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      return /^[TtZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
    } catch {
      return true;
    }
  });
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every file of the project but .git, with its content. */
function files(repo: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) found.set(relative(repo, full), readFileSync(full, 'utf8'));
    }
  };
  walk(repo);
  return found;
}

interface Signalled {
  requests: number;
  files: Map<string, string>;
}

/**
 * Freezes reika's tree, takes the facts before the signal, sends SIGINT and lets the tree go on.
 * Only event-loop turns are waited for (no timer): until every thread is stopped, then until the
 * server's request count held still for 20 turns (what was sent is in this process's sockets by
 * then; reading it takes a few turns).
 */
async function interrupt(child: { pid: number; kill(signal: NodeJS.Signals): void }, s: ScriptedServer, repo: string): Promise<Signalled> {
  const frozen: number[] = [];
  // Children may be spawned while the parent is being stopped: walk again until the tree is whole.
  for (let fresh = [child.pid]; fresh.length > 0; fresh = treeOf(child.pid).filter((pid) => !frozen.includes(pid))) {
    for (const pid of fresh) {
      try {
        process.kill(pid, 'SIGSTOP');
        frozen.push(pid);
      } catch {
        // gone already
      }
    }
    for (let turns = 0; !frozen.every(stopped) && turns < 1_000_000; turns++) await turn();
  }
  let still = 0;
  for (let seen = s.requests.length; still < 20; still = s.requests.length === seen ? still + 1 : 0, seen = s.requests.length) await turn();
  const signalled = { requests: s.requests.length, files: files(repo) };
  child.kill('SIGINT');
  for (const pid of frozen.reverse()) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // gone
    }
  }
  return signalled;
}

/** The facts after a run signalled once: the exit code, the requests after the signal, what changed on disk. */
async function checkFacts(t: ExecutionContext, run: Run, s: ScriptedServer, repo: string, signalled: Signalled | undefined, label: string): Promise<void> {
  if (!signalled) return t.fail(`${label}: never signalled`);
  // Before Node has run reika's first module, the default action ends it: a shell sees 130 as well.
  t.true(run.code === 130 || (run.code === null && run.signal === 'SIGINT'), `exit ${run.code} ${run.signal}: ${run.stderr}`);
  // Model requests: one may have been on its way when the signal came; a second needs the first's
  // reply, which came after it. The one in flight is closed, not read to its end.
  const chatsAfter = s.requests.slice(signalled.requests).filter((request) => request.index !== undefined);
  t.true(chatsAfter.length <= 1, `${chatsAfter.length} chat requests arrived after the signal`);
  for (const request of chatsAfter) t.not(await request.outcome, 'completed', 'a chat request in flight at the signal is closed, not read to its end');
  // The engine detection's GETs: at most its widest wave (4 asked at once) may have been on its way.
  const othersAfter = s.requests.slice(signalled.requests).filter((request) => request.index === undefined);
  t.true(othersAfter.length <= DETECTION_WAVE, `${othersAfter.length} other requests arrived after the signal: ${othersAfter.map((r) => r.path).join(', ')}`);
  // Nothing written after the signal: the project is as it was while reika was frozen.
  t.deepEqual(files(repo), signalled.files, 'the project changed after the signal');
  const changed = [...signalled.files].filter(([path, content]) => path !== 'a.txt' || content !== 'v0\n').length;
  t.log(`${label}: ${signalled.requests} request(s) before the signal (${s.chatRequests().length} chat in all), ${s.requests.length} in all, ${changed} file(s) changed before it, exit ${run.code ?? run.signal}`);
  t.deepEqual(processesIn(repo).map(describeProcess), [], 'no actor or command process is left');
}

const ENV = { REIKA_MODEL: 'scripted-model', REIKA_CONTEXT_WINDOW: '32768', REIKA_MAX_TURNS: '50' };

for (let step = 0; step < STEPS; step++) {
  const delay = Math.round((step * LAST_MS) / (STEPS - 1));
  test.serial(`SIGINT ${delay} ms after the spawn: no request and no write after it, exit 130`, async (t) => {
    const repo = gitRepo({ 'a.txt': 'v0\n' });
    const s = await startScriptedServer(reply);
    t.teardown(() => s.close());
    let signalling: Promise<Signalled> | undefined;
    const run = await runReika(['-p', 'change the files'], {
      cwd: repo,
      env: { REIKA_BASE_URL: s.url, ...ENV },
      onSpawn(child) {
        setTimeout(() => (signalling = interrupt(child, s, repo)), delay);
      },
    });
    await checkFacts(t, run, s, repo, await signalling, `${delay} ms`);
  });
}

/**
 * The same at each startup milestone (REIKA_TRACE_STARTUP=1 names them on stderr), so every phase
 * is hit whatever the machine's load: the child is frozen, then signalled, just after it passed
 * the milestone.
 */
const MILESTONES = ['headless: arguments read', 'runtime: tool executor starting', 'headless: runtime started', 'headless: session loaded', 'runtime: model-io ready', 'session: bootstrap', 'session: request'];

for (const milestone of MILESTONES) {
  test.serial(`SIGINT just after "${milestone}": no request and no write after it, exit 130`, async (t) => {
    const repo = gitRepo({ 'a.txt': 'v0\n' });
    const s = await startScriptedServer(reply);
    t.teardown(() => s.close());
    let signalling: Promise<Signalled> | undefined;
    const run = await runReika(['-p', 'change the files'], {
      cwd: repo,
      env: { REIKA_BASE_URL: s.url, ...ENV, REIKA_TRACE_STARTUP: '1' },
      onErrLine(line, child) {
        if (signalling || !line.endsWith(`] ${milestone}`)) return;
        signalling = interrupt(child, s, repo);
      },
    });
    await checkFacts(t, run, s, repo, await signalling, milestone);
  });
}
