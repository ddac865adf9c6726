import { rmSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startScriptedServer, type ScriptedReply, type ScriptedRequest } from '../test/helpers/scripted-server.js';
import { tempDir } from '../test/helpers/temp.js';
import { BREAK, typescriptProject } from './fixtures/ts-project.js';
import { fmt, row, summarize } from './stats.js';
import { BARE_ECHO, Pty } from './tui.bench.js';

// Key echo while a language server starts: an interactive reika session in a
// pseudo-terminal (util-linux `script`, 80×24, as in tui.bench.ts) on the generated 200-file
// TypeScript project (fixtures/ts-project.ts), against the scripted model. Each run is a new
// session, so the server's start is cold (its first in that session); in it, three turns:
//
// 1. `hello`, answered at once (the session's first-turn work, index and repo map, is then done);
// 2. `wait`: the model answers after REFERENCE_MS, and keys are typed all along (reference 2: the
//    same session before any edit, a turn running, no language server);
// 3. `edit`: the model edits src/file100.ts (adding a type error), so typescript-language-server
//    starts (it and tsserver load the project) while the edit's result waits for its errors, and
//    keys are typed all along. REIKA_DIAGNOSTICS_MS is BUDGET_MS, longer than a cold start, so the
//    wait ends when the server answers: the window holds the whole start.
//
// During the edit's window the server's process group is alternately left running and stopped
// (SIGSTOP / SIGCONT, SLICE_MS each): keys sent and echoed while it runs are the figure, keys sent
// and echoed while it is stopped are reference 1 — the same session, the same turn, the same
// moments of the machine's load (a shared machine's load moves more between two windows a minute
// apart than the figure does), only the server's work taken away. A key whose echo crosses a
// switch counts for neither.
//
// A key's echo latency is the time from writing it to the pty until the redrawn prompt line holding
// everything typed comes back (each key waits for the previous echo, then KEY_GAP_MS). Between
// reika's keys the same key goes to the bare echo program of tui.bench.ts in a pty of its own: what
// the machine does to any program's echo at that moment (its own row, running against stopped: a
// start that slows it as much as reika is the machine's doing, not reika's).
//
// That the typing really overlaps the start is checked, not assumed: a sampler reads /proc every
// SAMPLE_MS (in every window, so its cost is the same in each) for processes whose working folder
// is the project and whose program is typescript-language-server, tsserver or its typings
// installer (the first two words of the command line: reika's language-server actor names the
// server further on, and must not be taken for it). Keys count only when sent after the server's
// process was first seen and before the model got the edit's result (the chat request carrying it
// reached the scripted server); the bench prints in how many samples of that span its processes
// were there, and in how many runs the result named the error the edit made (the server answered
// within the window: it had started). Keys typed before its process appeared (the model's reply,
// the edit itself) are counted and left out.

const mainJs = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const RUNS = Number(process.env.REIKA_BENCH_RUNS) || 3;
const FILES = 200;
const REFERENCE_MS = 5_000;
/** Long: the server is stopped half the time, and a shared machine's load stretches a cold start. */
const BUDGET_MS = 180_000;
const SLICE_MS = 500;
const KEY_GAP_MS = 8;
/** The prompt is cleared (Ctrl+U) after this many characters, before it wraps. */
const LINE_KEYS = 60;
const SAMPLE_MS = 50;
const EDITED = 'src/file100.ts';

const LANGUAGE_SERVER = /typescript-language-server(\/lib\/cli\.mjs)?$/;
const SERVER_PROGRAM = /(typescript-language-server(\/lib\/cli\.mjs)?|tsserver(\.js)?|typingsInstaller\.js)$/;

interface Seen {
  /** Every process of the server (typescript-language-server, tsserver…). */
  pids: string[];
  /** typescript-language-server's own process group (it runs detached: the group is its pid). */
  group?: number;
}

/** The language server's processes in /proc: working folder the project, program or script the server's. */
async function serverProcesses(root: string): Promise<Seen> {
  const seen: Seen = { pids: [] };
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if ((await readlink(`/proc/${pid}/cwd`)) !== root) continue;
      // The program and its script (`node …/tsserver.js`), not the rest: reika's language-server
      // actor names the server in its arguments, and it is in reika's own process group.
      const program = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, 2);
      if (!program.some((part) => SERVER_PROGRAM.test(part))) continue;
      seen.pids.push(pid);
      if (program.some((part) => LANGUAGE_SERVER.test(part))) {
        // Only a group it leads (it runs detached) is ever stopped: never reika's.
        const group = Number((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[2]);
        if (group === Number(pid)) seen.group = group;
      }
    } catch {
      // another user's process, or one that just ended
    }
  }
  return seen;
}

type Phase = 'none' | 'running' | 'stopped';

/**
 * Samples {@link serverProcesses} until stopped; once the server is seen, switches its group
 * between running and stopped every {@link SLICE_MS} when `alternate` is on.
 */
class ServerWatch {
  firstSeen: number | undefined;
  phase: Phase = 'none';
  /** Samples that saw a server process, and all samples taken since the first such. */
  aliveSamples = 0;
  samples = 0;
  alternate = false;
  private group: number | undefined;
  private switchedAt = 0;
  private stopped = false;
  readonly done: Promise<void>;

  constructor(root: string) {
    this.done = (async () => {
      while (!this.stopped) {
        const at = performance.now();
        const seen = await serverProcesses(root);
        if (seen.pids.length > 0 && this.firstSeen === undefined) this.firstSeen = at;
        if (this.firstSeen !== undefined) {
          this.samples++;
          if (seen.pids.length > 0) this.aliveSamples++;
        }
        this.group ??= seen.group;
        if (this.alternate && this.group !== undefined) {
          if (this.phase === 'none') this.switchTo('running');
          else if (performance.now() - this.switchedAt >= SLICE_MS) this.switchTo(this.phase === 'running' ? 'stopped' : 'running');
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(SAMPLE_MS, SLICE_MS)));
      }
    })();
  }

  private switchTo(phase: Phase): void {
    try {
      process.kill(-this.group!, phase === 'stopped' ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      // the server is gone
    }
    this.phase = phase;
    this.switchedAt = performance.now();
  }

  /** Ends the sampling and leaves the server running. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    if (this.phase === 'stopped') this.switchTo('running');
    this.alternate = false;
    this.phase = 'none';
  }
}

interface Typed {
  sentAt: number;
  latency: number;
  /** The server's phase when the key was sent, or `mixed` when it changed before the echo. */
  phase: Phase | 'mixed';
  /** The bare echo program's latency for the key typed to it right after. */
  bare: number;
}

/** The prompt drawn empty: `› ` then the line's end (or the placeholder, once the turn is over). */
const emptyPrompt = (text: string) => /› (\r|type a message)/.test(text);

/** One key to a pty, resolved with its echo latency once `echoed` holds for the output since. */
async function key(pty: Pty, data: string, echoed: (text: string) => boolean): Promise<{ sentAt: number; latency: number }> {
  const offset = pty.length;
  const sentAt = performance.now();
  pty.write(data);
  return { sentAt, latency: (await pty.waitFor(echoed, offset)) - sentAt };
}

/**
 * Types keys until `stop()` says so, each after the previous one's echo, alternately to reika and
 * to the bare echo program (the machine's responsiveness at that moment); the lines are cleared
 * every {@link LINE_KEYS}.
 */
async function typeWhile(pty: Pty, bare: Pty, stop: () => boolean, watch: ServerWatch): Promise<Typed[]> {
  const typed: Typed[] = [];
  let line = '';
  const clear = async () => {
    await key(pty, '\x15', emptyPrompt);
    await key(bare, '\x15', (text) => text.endsWith('› '));
    line = '';
  };
  while (!stop()) {
    if (line.length === LINE_KEYS) await clear();
    line += String.fromCharCode(97 + (typed.length % 26));
    const phase = watch.phase;
    const { sentAt, latency } = await key(pty, line.at(-1)!, (text) => text.includes(`› ${line}\r`));
    const seenIn = watch.phase === phase ? phase : 'mixed';
    await new Promise((resolve) => setTimeout(resolve, KEY_GAP_MS));
    const reference = await key(bare, line.at(-1)!, (text) => text.endsWith(`› ${line}`));
    typed.push({ sentAt, latency, phase: seenIn, bare: reference.latency });
    await new Promise((resolve) => setTimeout(resolve, KEY_GAP_MS));
  }
  await clear();
  return typed;
}

export default async function (): Promise<void> {
  if (!Pty.available()) {
    process.stdout.write('skipped: this bench needs util-linux `script` to get a pseudo-terminal\n');
    return;
  }
  /** When each turn's last request reached the model, by the prompt's first word (`result`: the edit's result). */
  const arrivals = new Map<string, number>();
  const reply = (request: ScriptedRequest): ScriptedReply => {
    const messages = request.json.messages as { role: string; content: string }[];
    const last = messages[messages.length - 1]!;
    const word = last.role === 'tool' ? 'result' : String(last.content).split(' ')[0]!;
    arrivals.set(word, performance.now());
    if (word === 'wait') return { content: 'waited.', latencyMs: REFERENCE_MS };
    if (word === 'edit') return { toolCalls: [{ name: 'edit', arguments: { path: EDITED, old_string: BREAK.from, new_string: BREAK.to } }] };
    if (word === 'result') return { content: 'edited.' };
    return { content: 'hello.' };
  };
  const server = await startScriptedServer(reply, { models: ['scripted-model'] });
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('REIKA_'))),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    REIKA_BASE_URL: server.url,
    REIKA_MODEL: 'scripted-model',
    REIKA_CONTEXT_WINDOW: '32000',
    REIKA_DIAGNOSTICS: 'on',
    REIKA_DIAGNOSTICS_MS: String(BUDGET_MS),
  };
  const running: number[] = [];
  const stopped: number[] = [];
  const beforeEdit: number[] = [];
  /** The bare echo program's keys, typed between reika's. */
  const bareRunning: number[] = [];
  const bareStopped: number[] = [];
  const bareBefore: number[] = [];
  const perRun: string[] = [];
  let early = 0;
  let mixed = 0;
  let aliveSamples = 0;
  let samples = 0;
  const starts: number[] = [];
  let answered = 0;
  const loads: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      loads.push(loadavg()[0]!);
      arrivals.clear();
      const root = typescriptProject(FILES);
      const pty = Pty.spawn([process.execPath, mainJs], root, { ...env, HOME: tempDir('reika-bench-home-') });
      const bare = Pty.spawn([process.execPath, '-e', BARE_ECHO], root, env);
      const watch = new ServerWatch(root);
      try {
        await pty.waitFor((text) => text.includes('› '));
        await bare.waitFor((text) => text.includes('› '));
        let offset = pty.length;
        pty.write('hello\r');
        await pty.waitFor((text) => text.includes('hello.'), offset, 60_000);

        offset = pty.length;
        pty.write('wait\r');
        while (!arrivals.has('wait')) await new Promise((resolve) => setTimeout(resolve, 5));
        const waitEnds = arrivals.get('wait')! + REFERENCE_MS;
        for (const typed of await typeWhile(pty, bare, () => performance.now() >= waitEnds, watch)) {
          beforeEdit.push(typed.latency);
          bareBefore.push(typed.bare);
        }
        await pty.waitFor((text) => text.includes('waited.'), offset, 60_000);
        if (watch.firstSeen !== undefined) throw new Error('a language server was running before the edit');

        offset = pty.length;
        watch.alternate = true;
        pty.write('edit\r');
        const keys = await typeWhile(pty, bare, () => arrivals.has('result'), watch);
        await watch.stop();
        await pty.waitFor((text) => text.includes('edited.'), offset, BUDGET_MS);
        const firstSeen = watch.firstSeen;
        const resultAt = arrivals.get('result')!;
        if (firstSeen === undefined) throw new Error('no language server process was seen during the edit');
        starts.push(resultAt - firstSeen);
        aliveSamples += watch.aliveSamples;
        samples += watch.samples;
        const told = (server.chatRequests().at(-1)!.json.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').at(-1)!.content;
        if (/Errors this change introduced[^]*TS2322/.test(told)) answered++;
        const runRunning: number[] = [];
        const runStopped: number[] = [];
        for (const key of keys) {
          if (key.sentAt < firstSeen || key.phase === 'none') early++;
          else if (key.phase === 'mixed') mixed++;
          else if (key.sentAt < resultAt) {
            (key.phase === 'running' ? runRunning : runStopped).push(key.latency);
            (key.phase === 'running' ? bareRunning : bareStopped).push(key.bare);
          }
        }
        running.push(...runRunning);
        stopped.push(...runStopped);
        perRun.push(`${fmt(summarize(runRunning).p99)}/${fmt(summarize(runStopped).p99)}`);
      } finally {
        await watch.stop();
        await pty.close();
        await bare.close();
        rmSync(root, { recursive: true, force: true });
      }
    }
  } finally {
    await server.close();
  }
  const ms = (value: number) => `${fmt(value)} ms`;
  const subject = summarize(running);
  const paused = summarize(stopped);
  const before = summarize(beforeEdit);
  row('key echo while typescript-language-server starts, p50', ms(subject.p50), ms(paused.p50), subject.p50 / paused.p50);
  row('  the same, p99 (ref 1: its group stopped)', ms(subject.p99), ms(paused.p99), subject.p99 / paused.p99, 'unchanged');
  row('  the same, max', ms(subject.max), ms(paused.max), subject.max / paused.max);
  row('  the same, p50 (ref 2: a turn before any edit)', ms(subject.p50), ms(before.p50), subject.p50 / before.p50);
  row('  the same, p99 (ref 2)', ms(subject.p99), ms(before.p99), subject.p99 / before.p99);
  // What the start does to any program's echo: the bare program's keys, typed between reika's.
  const bareSubject = summarize(bareRunning);
  const barePaused = summarize(bareStopped);
  row('bare echo program at the same moments, p99', ms(bareSubject.p99), ms(barePaused.p99), bareSubject.p99 / barePaused.p99);
  const startMean = starts.reduce((a, b) => a + b, 0) / (starts.length || 1);
  process.stdout.write(
    `(${running.length} keys while the server ran, ${stopped.length} while it was stopped, ${beforeEdit.length} before the edit; ${early} typed before its process appeared and ${mixed} across a switch, left out. ` +
      `p99 per run, running/stopped: ${perRun.join(', ')} ms. Its processes were seen in ${aliveSamples} of ${samples} samples from the first sight to the result. ` +
      `Server process seen → edit result ${fmt(startMean / 1000, 2)} s on average (stopped half of it); the result named the edit's error in ${answered} of ${RUNS} runs. ` +
      `The bare echo program, typed between reika's keys, p50/p99: ${[bareRunning, bareStopped, bareBefore].map((samples) => `${fmt(summarize(samples).p50)}/${fmt(summarize(samples).p99)}`).join(', ')} ms (server running, stopped, before the edit). ` +
      `Load average at the runs' starts ${loads.map((l) => fmt(l, 2)).join(', ')})\n`,
  );
}
