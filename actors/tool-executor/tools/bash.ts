import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { onAbort } from '../../../runtime/abort.js';
import { defineTool } from './define-tool.js';
import { lazy } from '../lazy.js';
import { integer, string, type ArgsOf } from './params.js';
import { displayPath } from '../files/paths.js';
import type { PreparedCall, RunGrant } from '../prepared.js';
import type { SandboxRequest } from '../safety/sandbox-policy.js';
import { ToolError } from './tool-error.js';
import { formatBytes, plural, type ToolEnv, type ToolOutcome } from './tool-env.js';

/** Output kept inline as the payload; the rest goes to a spill file (SPEC §3). */
export const BASH_HEAD_BYTES = 64 * 1024;
/** Output streamed live to the caller at most; the rest only goes to the spill file. */
export const STREAM_LIMIT_BYTES = 1024 * 1024;
/** After the command exits, how long its output pipes may stay open before leftovers are stopped. */
const DRAIN_MS = 200;
/**
 * Once nothing of the command runs, its pipes end as soon as their last bytes are read; only a
 * process that left its group and dropped the marker could hold them open longer: let go after this.
 */
const ESCAPED_PIPE_MS = 5_000;

// The shell parser, git and process-group helpers are loaded on the first call (see lazy.ts).
const danger = lazy(() => import('../shell/danger.js'));
const readOnly = lazy(() => import('../shell/read-only-commands.js'));
const gitStatus = lazy(() => import('../files/git-status.js'));
const processGroups = lazy(() => import('../process/process-groups.js'));
const sandbox = lazy(async () => ({ ...(await import('../safety/sandbox.js')), ...(await import('../safety/sandbox-policy.js')), ...(await import('../safety/secret-env.js')), ...(await import('../safety/protected-paths.js')) }));

const params = {
  command: string('The command line.', { required: true, nonEmpty: true }),
  timeout_ms: integer('Kill the command after this many milliseconds (default 30 minutes).', { min: 1, max: 24 * 3_600_000 }),
};

type BashArgs = ArgsOf<typeof params>;

/**
 * `bash{command, timeout_ms?}`: `/bin/bash -c` in its own process group with stdin from
 * /dev/null; output streams to the caller as deltas. On abort, timeout (30 min) or silence
 * (5 min) the whole group is killed; processes the command leaves behind are stopped when it
 * exits. In a git repository the result lists the files the command changed. Plan mode offers
 * it for read-only commands only.
 */
export const bashTool = defineTool({
  name: 'bash',
  description: 'Run a shell command with /bin/bash in the project root; stdin is empty. Returns the output (first 64 KB; the rest is saved to a file), the exit code and the files it changed. Background processes are stopped when the command ends.',
  params,
  modes: {
    agent: {},
    plan: {
      description: 'Run a read-only shell command (ls, cat, git status/log/diff/show, grep, find without -delete/-exec, wc, …) in the project root. Commands that change files are refused in this mode.',
      refuse: async (args, root) => {
        const why = (await readOnly()).readOnlyViolation(args.command, root);
        return why && `plan mode runs read-only commands only, and this one is not: ${why}`;
      },
    },
  },
  approval: 'flagged',
  prepare: prepareBash,
});

async function prepareBash(args: BashArgs, env: ToolEnv): Promise<PreparedCall> {
  const { commandDangers } = await danger();
  return {
    action: { tool: 'bash', command: args.command, reasons: commandDangers(args.command, env.root, undefined, env.settings.checkpoints) },
    run: (grant) => runBash(args, env, grant),
  };
}

async function runBash(args: BashArgs, env: ToolEnv, grant: RunGrant = { approved: false }): Promise<ToolOutcome> {
  const totalMs = args.timeout_ms ?? env.settings.bashTimeoutMs;
  const idleMs = env.settings.bashIdleMs;
  const startedAt = Date.now();
  if (env.signal.aborted) return { status: 'cancelled', summary: 'cancelled before the command started', payload: '' };
  const rootInfo = await stat(env.root).catch(() => undefined);
  if (!rootInfo?.isDirectory()) throw new ToolError('NOT_A_DIRECTORY', `the project folder ${env.root} does not exist any more`);
  const [{ changedFiles, gitSnapshot }, { MARKER_VARIABLE }, box] = await Promise.all([gitStatus(), processGroups(), sandbox()]);
  // SPEC §12: under the sandbox, with the network only for a command a person approved.
  const state = await box.sandboxState(env.settings.sandbox);
  if (state.required) throw new ToolError('SANDBOX_UNAVAILABLE', `REIKA_SANDBOX=bwrap, but ${state.note}; the command did not run`);
  const network = grant.approved;
  // With a checkpoint just taken, the changed files are what differs from it (any folder); else git's status.
  const before = grant.checkpoint ? undefined : await gitSnapshot(env.root);
  if (env.signal.aborted) return { status: 'cancelled', summary: 'cancelled before the command started', payload: '' };

  const marker = env.groups.nextMarker();
  // SPEC §16: what runs later outside the sandbox is read-only inside, unless a person approved this very command.
  const guarded = state.kind !== 'none' && !grant.approved ? box.sandboxProtected(env.root) : undefined;
  const request: SandboxRequest = { command: args.command, root: env.root, network, showCredentials: grant.approved, readOnly: guarded?.existing ?? [] };
  // The missing ones are blocked where bubblewrap can mount over them; the rest are swept after.
  const blocked = guarded && state.kind === 'bwrap' ? box.blockable(guarded.missing, box.writableFolders(request), guarded.existing) : [];
  request.blocked = blocked;
  const { file, args: argv } = box.sandboxedCommand(state, request);
  // SPEC §16: no secret variable and no REIKA_* setting (a reika started by the command is a
  // session of its own), unless REIKA_PASS_ENV names it.
  const { env: allowed } = box.commandEnvironment(process.env, new Set(env.settings.passEnv));
  const childEnv: NodeJS.ProcessEnv = { ...allowed, [MARKER_VARIABLE]: marker, GIT_TERMINAL_PROMPT: '0', PAGER: 'cat', GIT_PAGER: 'cat' };
  const counted = box.countsLeftovers(state);
  const child = spawn(file, argv, { cwd: env.root, detached: true, stdio: ['ignore', 'pipe', 'pipe', ...(counted ? (['pipe'] as const) : [])], env: childEnv });
  let leftoverCount = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => (leftoverCount += chunk.toString('latin1')));
  const spawnFailed = new Promise<Error>((resolve) => child.once('error', resolve));
  if (child.pid === undefined) throw new ToolError('BASH_SPAWN_FAILED', `could not start ${file}: ${(await spawnFailed).message}`);
  const pgid = child.pid;
  env.groups.add(pgid, marker);
  box.holdPlaceholders(blocked);

  const output = new OutputCollector(env);
  let stop: (reason: 'cancelled' | 'timeout' | 'idle') => void = () => {};
  let stopReason: 'cancelled' | 'timeout' | 'idle' | undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = (reason) => {
      stopReason ??= reason;
      resolve();
    };
  });
  const totalTimer = setTimeout(() => stop('timeout'), totalMs);
  let idleTimer = setTimeout(() => stop('idle'), idleMs);
  const removeAbort = onAbort(env.signal, () => stop('cancelled'));
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (chunk: Buffer) => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => stop('idle'), idleMs);
      output.add(stream, chunk);
    });
  }
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  let leftovers = false;
  try {
    await Promise.race([exited, stopped]);
    if (stopReason) {
      await env.groups.kill(pgid, marker);
    } else if (!counted) {
      // In a PID namespace of its own nothing the command started outlives it: bubblewrap exits
      // once its pid 1 there has reaped the command, that pid 1 is killed with it
      // (--die-with-parent), and its end kills the rest. What is seen then is the namespace's
      // teardown, with that pid 1 in it, not leftovers: those are counted in there (fd 3).
      await Promise.race([closed, delay(DRAIN_MS)]);
      if (env.groups.alive(pgid, marker)) {
        leftovers = true;
        await env.groups.kill(pgid, marker);
      }
    }
    // Wait for the end of the output, not for a timer: a loaded machine can take longer than
    // DRAIN_MS to read the last pipe-full, and what was not read by then was lost (528 of 575 KB once).
    await Promise.race([closed, delay(stopReason ? DRAIN_MS : ESCAPED_PIPE_MS)]);
    if (!stopReason && Number(leftoverCount) > 0) leftovers = true;
  } finally {
    clearTimeout(totalTimer);
    clearTimeout(idleTimer);
    removeAbort();
    env.groups.delete(pgid);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdio[3]?.destroy();
  }
  const exit = await exited;
  // Placeholders go before anything looks at what changed; a protected path that was missing
  // and that no mount covered is removed when the command made it (whatever way it ended).
  const removed = guarded ? await box.releaseProtected(guarded.missing, blocked, env.root) : [];
  const removedNote = removed.length > 0 ? `removed ${removed.join(', ')}, which the command created: protected paths run later outside the sandbox (write them with the write tool, which asks the user)` : undefined;
  const { payload, spillPath } = await output.finish();
  const took = formatDuration(Date.now() - startedAt);
  const meta: NonNullable<ToolOutcome['meta']> = { exitCode: exit.code, durationMs: Date.now() - startedAt, ...(spillPath ? { spillPath } : {}) };
  const size = spillPath ? `; output ${formatBytes(output.total)}, first 64 KB shown, all of it in ${spillPath}` : '';

  if (stopReason === 'cancelled') {
    return { status: 'cancelled', summary: `cancelled after ${took}; the command and its processes were killed${size}${removedNote ? `; ${removedNote}` : ''}`, payload, meta };
  }
  if (stopReason) {
    const what = stopReason === 'timeout' ? `timed out after ${formatDuration(totalMs)}` : `produced no output for ${formatDuration(idleMs)}`;
    return {
      status: 'error',
      errorCode: stopReason === 'timeout' ? 'BASH_TIMEOUT' : 'BASH_IDLE_TIMEOUT',
      summary: `the command ${what}; it and its processes were killed${size}${removedNote ? `; ${removedNote}` : ''}`,
      payload,
      meta,
    };
  }
  const after = before ? await gitSnapshot(env.root) : undefined;
  const changedNow = grant.checkpoint
    ? await grant.checkpoint.store.changedSince(grant.checkpoint.checkpoint).catch(() => undefined)
    : before && after
      ? changedFiles(before, after)
      : undefined;
  // Another running command's placeholder is nobody's change.
  const changed = changedNow?.filter((path) => !box.isHeldPlaceholder(resolvePath(env.root, path)));
  if (changed) meta.changedFiles = changed;
  const ended = exit.code !== null ? `exit code ${exit.code}` : `killed by ${exit.signal}`;
  const shownChanged = changed?.map((path) => displayPath(env.root, path));
  const changes = shownChanged && shownChanged.length > 0
    ? `; changed ${plural(shownChanged.length, 'file')}: ${shownChanged.slice(0, 5).join(', ')}${shownChanged.length > 5 ? ', …' : ''}`
    : '';
  const stray = leftovers ? '; background processes it left running were stopped' : '';
  // A write or a connection the sandbox refused, said in one line the model can act on.
  const notes = state.kind === 'none' ? [] : box.sandboxNotes(payload, network, guarded ? [...guarded.existing, ...blocked].map((path) => displayPath(env.root, path)) : []);
  if (removedNote) notes.push(removedNote);
  const refused = notes.map((note) => `; ${note}`).join('');
  const outcome: ToolOutcome = { summary: `${ended} after ${took}${size}${changes}${stray}${refused}`, payload: notes.length > 0 ? `${payload}\n[reika: ${notes.join('; ')}]` : payload, meta };
  // Failed, and the sandbox kept it off the network: the wrapper asks to run it again with it.
  if (exit.code !== 0 && notes.includes(box.NO_NETWORK_NOTE)) outcome.withoutNetwork = true;
  return outcome;
}

/** Keeps the first 64 KB; once past it, everything goes to a spill file too. Streams deltas. */
class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  total = 0;
  private spill: ReturnType<ToolEnv['spill']['stream']> | undefined;
  private readonly decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };

  constructor(private readonly env: ToolEnv) {}

  add(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    this.total += chunk.length;
    const room = BASH_HEAD_BYTES - this.headBytes;
    if (room > 0) {
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.head.push(kept);
      this.headBytes += kept.length;
    }
    if (!this.spill && this.total > BASH_HEAD_BYTES) {
      this.spill = this.env.spill.stream('bash');
      this.spill.stream.on('error', () => {});
      this.spill.stream.write(Buffer.concat(this.head));
      if (chunk.length > room) this.spill.stream.write(chunk.subarray(Math.max(0, room)));
    } else if (this.spill) {
      this.spill.stream.write(chunk);
    }
    if (this.total - chunk.length >= STREAM_LIMIT_BYTES) return;
    const text = this.decoders[stream].write(chunk);
    if (text) this.env.emit({ type: 'output', stream, text });
    if (this.total >= STREAM_LIMIT_BYTES) {
      this.env.emit({ type: 'output', stream: 'stderr', text: `\n[reika: more than ${formatBytes(STREAM_LIMIT_BYTES)} of output; the rest is not shown live but saved to ${this.spill?.path}]\n` });
    }
  }

  async finish(): Promise<{ payload: string; spillPath?: string }> {
    for (const stream of ['stdout', 'stderr'] as const) {
      const text = this.decoders[stream].end();
      if (text) this.env.emit({ type: 'output', stream, text });
    }
    let payload = new StringDecoder('utf8').write(Buffer.concat(this.head));
    if (this.total === 0) payload = '(no output)';
    if (!this.spill) return { payload };
    const { path, stream } = this.spill;
    await new Promise<void>((resolve) => stream.end(() => resolve()));
    payload += `\n… ${formatBytes(this.total - BASH_HEAD_BYTES)} more output; the whole output is in ${path} (read it with an offset, or grep it)`;
    return { payload, spillPath: path };
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}
