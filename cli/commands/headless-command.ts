import type { Config } from '../../actors/config/load-config.js';
import { ConfigError } from '../../actors/settings/parse.js';
import type { TurnResult } from '../../actors/agent/events.js';
import type { Session } from '../../actors/session/session.js';
import { valueWithin } from '../../runtime/clock.js';
import type { CacheTotals } from '../../actors/agent/cache-ledger.js';
import { discardPrestartedIndexer, prestartIndexer } from '../../actors/indexer/prestart.js';
import { traceStartup } from '../../actors/indexer/startup-trace.js';
import { declineHeadless } from '../headless/approver.js';
import { INTERRUPTED_EXIT, interruption } from '../early-interrupt.js';
import { parseHeadlessArgs, UsageError } from '../headless/args.js';
import { AnswerStream } from '../headless/answer-stream.js';
import { declinedLine, progressLine, toHeadlessResult } from '../headless/output.js';
import { sessionSummary, summaryFigures } from '../session-summary.js';
import { binaryProblem, cutNote, readPipedStdin, withPipedInput } from '../headless/stdin.js';
import { resumeLine, SessionChoiceError, type OpenedSession } from '../open-session.js';
import { beginSession } from '../begin-session.js';
import { exitLater, EXIT_GRACE_MS } from '../exit-later.js';

// `reika -p "PROMPT"` (or the prompt on stdin): one task, no questions asked. The answer goes to
// stdout, progress to stderr; `--json` prints one result object, `--stream` JSON lines of events
// (docs/headless.md). Exit 0 answered, 1 error, 130 interrupted (SIGINT/SIGTERM abort the turn
// through the runtime's one abort message, then every actor is closed).
//
// Startup order (bench/startup.bench.ts, REIKA_TRACE_STARTUP=1): once the arguments and the config
// are read, a thread starts scanning the folder and ranking its repo map (`prestartIndexer`), even
// before a prompt on stdin has arrived; then the runtime loads and starts (the model-io thread
// boots meanwhile), then the session. The indexer actor adopts the prestarted scan.

/** After an interrupt, how long the turn may take to wind down before the runtime is closed anyway. */
const WIND_DOWN_MS = 800;

export async function run(argv: string[]): Promise<number> {
  const started = Date.now();
  let args;
  let config: Config;
  let opened: OpenedSession;
  let notes: string[];
  try {
    args = parseHeadlessArgs(argv);
    const start = await beginSession(args.flags, {
      onProblem: (message) => process.stderr.write(`reika: ${message}\n`),
      chooseSession: () => {
        throw new UsageError('-p --resume needs a session id (reika sessions lists them; --continue takes the newest)');
      },
    });
    // Nobody is asked to choose headless: a start is always made or refused.
    ({ config, opened, notes } = start!);
    if (opened.resume && opened.writer) {
      traceStartup('headless: session transcript read');
      notes.push(resumeLine(opened.writer.id, opened.resume));
    }
  } catch (error) {
    if (UsageError.isInstance(error) || ConfigError.isInstance(error) || SessionChoiceError.isInstance(error)) return fail(error.message);
    throw error;
  }
  process.stdout.on('error', () => {});
  for (const note of notes) process.stderr.write(`reika: ${note}\n`);
  traceStartup('headless: arguments read');
  // A resumed session keeps its recorded index and repo map: nothing to scan.
  if (!opened.resume) prestartIndexer(process.cwd());
  const loadingRuntime = import('../start-runtime.js');
  loadingRuntime.catch(() => {});

  // The signal may come at any await below: each is followed by a look at `interrupted`, and
  // nothing that starts after the signal (runtime, session, turn) goes on past the next one.
  let interrupted = false;
  let session: Session | undefined;
  let wakeInterrupt: () => void = () => {};
  const interruptedPromise = new Promise<void>((resolve) => (wakeInterrupt = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    traceStartup(`headless: interrupted (${signal})`);
    if (args.output === 'text') process.stderr.write(`\nreika: interrupted (${signal})\n`);
    session?.close(`interrupted by ${signal}`);
    wakeInterrupt();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A signal that came before these listeners (the early handler had it) counts as well.
  if (interruption.aborted) onSignal(interruption.reason as NodeJS.Signals);

  try {
    let prompt = args.prompt ?? (await Promise.race([readStdin(), interruptedPromise.then(() => '')]));
    if (interrupted) return exitSoon();
    if (prompt.trim() === '') return fail('no prompt: pass -p "PROMPT" or pipe the prompt on stdin');
    // `@path` in the prompt attaches the file, as in the terminal (not mentions in piped stdin).
    const attached = prompt.includes('@') ? await (await import('../tui/attachments.js')).attachFiles(prompt, process.cwd()) : undefined;
    for (const problem of attached?.problems ?? []) process.stderr.write(`reika: ${problem}\n`);
    if (attached && attached.attached.length > 0 && args.output === 'text') process.stderr.write(`reika: attached ${attached.attached.join(', ')}\n`);
    // `git diff | reika -p "review this"`: what is piped in goes after the prompt as attached context.
    const piped = args.prompt === undefined ? undefined : await Promise.race([readPipedStdin(), interruptedPromise.then(() => undefined)]);
    if (interrupted) return exitSoon();
    if (piped && piped.total > 0) {
      const problem = binaryProblem(piped.bytes);
      if (problem) return fail(problem);
      const note = cutNote(piped);
      if (note) process.stderr.write(`reika: ${note}\n`);
      prompt = withPipedInput(prompt, piped);
    }

    const cwd = process.cwd();
    // Plain output: the answer streams to stdout as it arrives.
    const answer = new AnswerStream((text) => process.stdout.write(text));
    // The runtime starts as soon as its module is in (the model-io thread boots meanwhile), then
    // the session's modules finish loading. A module still loading is not waited for once
    // interrupted: nothing of it has run yet.
    const untilInterrupted = <T>(promise: Promise<T>) => Promise.race([promise, interruptedPromise.then(() => undefined)]);
    const runtimeModule = await untilInterrupted(loadingRuntime);
    if (interrupted || !runtimeModule) return exitSoon();
    const runtime = runtimeModule.startRuntime({ approve: declineHeadless, cwd, headless: true, signal: interruption });
    traceStartup('headless: runtime started');
    // Loaded beside the session's modules: a prompt may name a custom command (`reika -p "/review src"`).
    const loadingCommands = import('../slash/custom-commands.js');
    loadingCommands.catch(() => {});
    const sessionModule = await untilInterrupted(import('../../actors/session/session.js'));
    if (interrupted || !sessionModule) {
      await runtime.close();
      traceStartup('headless: runtime closed');
      return exitSoon();
    }
    traceStartup('headless: session loaded');
    const { Session } = sessionModule;
    // The settings' permission rules and hooks; what an untrusted project may not use is one line.
    const { book, notes: settingsNotes } = (await import('../session-permissions.js')).sessionPermissions(config);
    for (const note of settingsNotes) process.stderr.write(`reika: ${note}\n`);
    session = new Session({ runtime, config, cwd, headless: true, waitForMcp: true, permissions: book, ...(args.flags.mode ? { mode: args.flags.mode } : {}), transcript: opened.recorder, ...(opened.resume ? { resume: opened.resume } : {}) });
    session.subscribe((event) => {
      if (event.type === 'bootstrap' || event.type === 'request') traceStartup(`session: ${event.type}`);
      if (args.output === 'stream') writeLine(JSON.stringify(event));
      else if (args.output === 'text') {
        answer.handle(event);
        const line = progressLine(event);
        if (line !== undefined) process.stderr.write(`${line}\n`);
      }
    });

    // An MCP server that failed or was declined is one line on stderr (JSON modes stay clean).
    if (args.output === 'text') void tellMcp(runtime);
    // Said once, on stderr, while the first request is under way.
    void import('../../actors/tool-executor/safety/sandbox.js')
      .then(({ sandboxNotice }) => (interrupted ? undefined : sandboxNotice(config.tools)))
      .then((line) => line && process.stderr.write(`reika: ${line}\n`));
    // `reika -p "/review src"`: a custom command (.reika/commands/review.md) sends its prompt.
    const commands = await untilInterrupted(loadingCommands);
    if (interrupted || !commands) {
      await runtime.close();
      traceStartup('headless: runtime closed');
      return exitSoon();
    }
    const command = commands.expandTypedCommand(prompt, cwd, config.userFolder);
    if (command && 'error' in command) {
      await runtime.close();
      return fail(command.error);
    }
    if (command) prompt = command.prompt;
    if (attached?.files) prompt = `${prompt}\n\n${attached.files}`;
    const turn = session.run(prompt);
    // Interrupted, the turn winds down first (its abort stops the stream, an embedded model's
    // generation and the commands): ending the model-io thread while llama.cpp generates in it
    // aborts the whole process.
    const result = await Promise.race([turn, interruptedPromise.then(() => valueWithin(turn, WIND_DOWN_MS))]);
    traceStartup('headless: turn ended');
    // The run's one turn is over: no tool call can come, the executor's process is not needed.
    const executorDone = runtime.toolsDone();
    // After a warm start the server is asked once the first reply came; its answers renew what the next start knows.
    if (!interrupted) await valueWithin(session.settled(), WIND_DOWN_MS);
    const info = session.info();
    // A session the model never answered in is not kept (session-recorder.ts): nothing to name.
    const id = session.resumableId;
    // SessionEnd hooks run before the actors go (each within its own timeout).
    await session.end(interrupted ? 'interrupted' : 'exit');
    await executorDone;
    await runtime.close();
    opened.recorder.close();
    traceStartup('headless: runtime closed');
    const code = report(result, args.output, info.model, Date.now() - started, interrupted, answer, id, info.cache, opened.resume?.turns ?? 0);
    // What was written goes out first: a pipe takes a large answer (a 10 MB `--json` result) in
    // pieces as its reader reads, and an exit before then cut it off. Then a stray handle gets the
    // grace (none once interrupted).
    void drained().then(() => exitLater(undefined, interrupted ? 0 : EXIT_GRACE_MS));
    return code;
  } finally {
    opened.recorder.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // A run that stopped before the runtime adopted the prestarted indexer ends it here.
    discardPrestartedIndexer();
  }
}

/**
 * Interrupted before the session existed: what started is closed (or never ran), stderr is written
 * synchronously; the process ends at the next turn of the event loop rather than waiting for a
 * module that is still loading or the prestarted indexer thread to wind down.
 */
function exitSoon(): number {
  exitLater(INTERRUPTED_EXIT, 0);
  return INTERRUPTED_EXIT;
}

function report(result: TurnResult | undefined, output: 'text' | 'json' | 'stream', model: string | undefined, durationMs: number, interrupted: boolean, answer: AnswerStream, session: string | undefined, cache?: CacheTotals, earlierTurns = 0): number {
  if (!result) {
    // The turn did not wind down in time after an interrupt; the runtime is closed regardless.
    if (output !== 'text') writeLine(JSON.stringify({ type: 'result', status: 'aborted', answer: '', durationMs }));
    else answer.finish({ answered: false, partial: true });
    return 130;
  }
  const code = interrupted || result.status === 'aborted' ? 130 : result.status === 'answered' ? 0 : 1;
  const summary = { ...toHeadlessResult(result, model, durationMs, cache, earlierTurns), ...(session ? { session } : {}) };
  if (output === 'json') writeLine(JSON.stringify(summary));
  else if (output === 'stream') writeLine(JSON.stringify({ type: 'result', ...summary }));
  else {
    // What streamed is the answer; an answer that came from an earlier reply is printed whole.
    const wrote = answer.finish({ answered: result.status === 'answered', partial: code === 130 });
    if (!wrote && result.status === 'answered') writeLine(result.answer.trimEnd());
  }
  const declined = declinedLine(result);
  if (declined) process.stderr.write(`reika: ${declined}\n`);
  if (result.error) process.stderr.write(`reika: ${result.error.message}\n`);
  else if (code === 130 && output === 'text' && !interrupted) process.stderr.write('reika: the turn was aborted\n');
  // stderr is the progress channel in plain mode: the session's figures close it.
  if (output === 'text' && !result.error && result.requests > 0) process.stderr.write(`reika: ${sessionSummary(summaryFigures(result, durationMs))}\n`);
  return code;
}

async function tellMcp(runtime: { mcp(): Promise<import('../../actors/mcp/hub.js').McpHub> }): Promise<void> {
  const [hub, { describeChange }] = await Promise.all([runtime.mcp(), import('../../actors/mcp/describe-status.js')]);
  for (const problem of hub.configProblems()) process.stderr.write(`reika: MCP config ${problem}\n`);
  hub.onChange((change) => {
    if (change.state !== 'failed' && change.state !== 'declined' && !change.reason?.startsWith('not ready within')) return;
    const line = describeChange(change, false);
    if (line) process.stderr.write(`reika: ${line}\n`);
  });
}

/** Settles once everything written to stdout and stderr so far has left the process (or the reader is gone). */
function drained(): Promise<void> {
  const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => (stream.writableLength === 0 ? resolve() : stream.write('', () => resolve())));
  return Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => undefined);
}

function writeLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

function fail(message: string): number {
  process.stderr.write(`reika: ${message}\n`);
  return 1;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
