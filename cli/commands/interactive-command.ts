import { stat } from 'node:fs/promises';
import { loadConfig, type Config } from '../../actors/config/load-config.js';
import { ConfigError } from '../../actors/settings/parse.js';
import { applySessionFlags, parseInteractiveArgs, UsageError, type SessionFlags } from '../session-flags.js';
import { resumeHint, sessionSummary } from '../session-summary.js';
import { InteractiveApp } from '../tui/app.js';
import { SessionApprovals } from '../tui/approver.js';
import { BackgroundPriority } from '../tui/background-priority.js';
import type { SessionFacts, SessionPort } from '../tui/session-port.js';
import { colorDisabled, createStyle } from '../tui/style.js';
import { enterRawMode } from '../tui/terminal.js';
import { listSessions } from '../../actors/transcript/session-catalog.js';
import { resumeLine, secretsOf, SessionChoiceError, type OpenedSession } from '../open-session.js';
import { beginSession } from '../begin-session.js';
import { exitLater } from '../exit-later.js';
import { PromptHistory } from '../prompt-history.js';
import { sessionPermissions } from '../session-permissions.js';
import type { PermissionBook } from '../../actors/session/permission-book.js';
import { askProjectTrust, trustChanges } from '../trust-prompt.js';
import { projectTrust } from '../../actors/mcp/trust.js';

// `reika` in a terminal: the interactive session. The prompt is drawn and accepts keys before
// anything heavy loads — the actor runtime, the agent session and the bootstrap (index, repo map)
// are imported and started after the first frame, so typing never waits for them; the first
// message waits for the bootstrap if it has to. See docs/terminal.md.

export async function run(argv: string[]): Promise<number> {
  let config: Config;
  let flags: SessionFlags;
  let opened: OpenedSession;
  const notes: string[] = [];
  const style = createStyle(!colorDisabled());
  // Told by the transcript when it stops recording; the app takes the lines once it is up.
  let notify: (message: string) => void = (message) => notes.push(message);
  try {
    flags = parseInteractiveArgs(argv);
    const start = await beginSession(flags, {
      onProblem: (message) => notify(message),
      chooseSession: async (cwd) => {
        const sessions = listSessions(cwd);
        if (sessions.length === 0) throw new SessionChoiceError(`no stored sessions of ${cwd} yet (reika sessions --all lists every folder's)`);
        const { pickSession } = await import('../tui/session-picker.js');
        return (await pickSession(sessions, { input: process.stdin, output: process.stdout }, style))?.id;
      },
      // A project whose settings would loosen safety or redirect code is asked about once (remembered).
      trustProject: async (loaded) => {
        if (!process.stdin.isTTY || trustChanges(loaded).length === 0 || !(await askProjectTrust(loaded))) return false;
        projectTrust().remember(loaded.projectRoot);
        return true;
      },
    });
    if (!start) return 0;
    ({ config, opened } = start);
    notes.push(...start.notes);
  } catch (error) {
    if (ConfigError.isInstance(error) || UsageError.isInstance(error) || SessionChoiceError.isInstance(error)) {
      process.stderr.write(`reika: ${error.message}\n`);
      return UsageError.isInstance(error) ? 2 : 1;
    }
    throw error;
  }
  const cwd = process.cwd();
  const resumed = opened.resume;
  const initialFacts: SessionFacts = {
    root: cwd,
    model: config.active.model ?? '',
    profile: config.active.name,
    profiles: config.profiles.map((p) => p.name),
    mode: flags.mode ?? resumed?.settings?.mode ?? resumed?.frozen.mode ?? 'agent',
    approvals: config.approvals,
    contextWindow: config.active.contextWindow,
    // A resumed session's figures as recorded until the session is up (its last prompt as the server counted it).
    contextTokens: resumed?.usage.last?.promptTokens ?? 0,
    promptTokens: resumed?.usage.totals.promptTokens ?? 0,
    cachedTokens: resumed?.usage.totals.cachedTokens ?? 0,
    completionTokens: resumed?.usage.totals.completionTokens ?? 0,
    requests: resumed?.usage.requests ?? 0,
  };

  let resolveSession!: (session: SessionPort) => void;
  let rejectSession!: (error: unknown) => void;
  const sessionPromise = new Promise<SessionPort>((resolve, reject) => ((resolveSession = resolve), (rejectSession = reject)));
  sessionPromise.catch(() => {});

  return new Promise<number>((resolveExit) => {
    let approvals: SessionApprovals | undefined;
    // The settings' permission rules and hooks; "Always" in the approval menu writes to their files.
    const permissions = sessionPermissions(config);
    notes.push(...permissions.notes);
    const app: InteractiveApp = new InteractiveApp({
      rememberRules: (scope, rules) => permissions.book.add(scope, 'allow', rules),
      output: process.stdout,
      style,
      session: sessionPromise,
      initialFacts,
      history: new PromptHistory(cwd, secretsOf(config)),
      onForgetApprovals: () => approvals?.forget(),
      onSuspend: (resumed) => {
        terminal.suspend();
        process.once('SIGCONT', () => {
          terminal.resume();
          resumed();
        });
        process.kill(process.pid, 'SIGTSTP');
      },
      onExit: (code) => {
        terminal.restore();
        // The session's figures, once, on stderr (the terminal is the user's again).
        const figures = app.summaryFigures();
        if (figures.turns! > 0) process.stderr.write(`reika: ${sessionSummary(figures)}\n`);
        const stored = app.resumableSession();
        if (stored) process.stderr.write(`reika: ${resumeHint(stored)}\n`);
        for (const signal of SIGNALS) process.off(signal, onSignal);
        process.stdout.off('resize', onResize);
        opened.recorder.close();
        exitLater(code);
        resolveExit(code);
      },
    });
    approvals = new SessionApprovals((request, signal) => app.ask(request, signal));
    const terminal = enterRawMode(process.stdin, process.stdout, (chunk) => app.input(chunk));
    const onResize = () => app.screen.resize();
    // A signal from outside (raw mode turns Ctrl-C into a key) closes the session like /exit.
    const onSignal = () => void app.exit(130);
    const SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
    for (const signal of SIGNALS) process.on(signal, onSignal);
    // A bug must not leave the shell in raw mode or print a stack trace at the user.
    const onCrash = (error: unknown) => {
      app.screen.dispose();
      terminal.restore();
      process.stderr.write(`reika: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    };
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    process.stdout.on('resize', onResize);
    app.start([style.dim(`reika · ${cwd} · /help for commands`)]);
    for (const note of notes) app.note(`reika: ${note}`, style.yellow);
    notify = (message) => app.note(`reika: ${message}`, style.yellow);
    if (resumed && opened.writer) {
      app.note(`${resumeLine(opened.writer.id, resumed)} — index and repo map as recorded (/cd . re-indexes)`, style.dim);
      app.replay(resumed.recent);
    }

    // Only now load and start the runtime: the prompt is already on screen and reading keys.
    setImmediate(() => {
      startSession(config, (root) => applySessionFlags(loadConfig({ cwd: root }), flags), cwd, approvals!, app, () => initialFacts.mode, opened, (message) => notify(message), permissions.book).then(resolveSession, (error: unknown) => {
        rejectSession(error);
      });
    });
  });
}

/** Lets pending keys be handled between two pieces of start-up work. */
const yieldToKeys = () => new Promise<void>((resolve) => setImmediate(resolve));

async function startSession(config: Config, configFor: (root: string) => Config, cwd: string, approvals: SessionApprovals, app: InteractiveApp, mode: () => SessionFacts['mode'], opened: OpenedSession, notify: (message: string) => void, permissions: PermissionBook): Promise<SessionPort> {
  // libuv's thread pool starts on first use: start it now so it counts as a UI-side thread.
  await stat(cwd).catch(() => undefined);
  new BackgroundPriority().snapshot().watch();
  // Loaded one at a time with a turn of the event loop between them, so a key typed meanwhile
  // waits for one module graph at most (the CommonJS ones load synchronously as a whole).
  await import('msgpackr/pack');
  await yieldToKeys();
  await import('piscina');
  await yieldToKeys();
  const { startRuntime } = await import('../start-runtime.js');
  await yieldToKeys();
  await import('../../actors/indexer/actor.js');
  await yieldToKeys();
  const { Session } = await import('../../actors/session/session.js');
  await yieldToKeys();
  const { SessionAdapter, describeBootstrap } = await import('../tui/session-adapter.js');
  await yieldToKeys();
  const runtime = startRuntime({ approve: approvals.approve, cwd });
  await yieldToKeys();
  // `--mode`, or what Shift+Tab chose while the runtime started.
  const session = new Session({ runtime, config, cwd, mode: mode(), configFor, permissions, transcript: opened.recorder, ...(opened.resume ? { resume: opened.resume } : {}) });
  const style = createStyle(!colorDisabled());
  // Said once, after the bootstrap so the probe does not compete with it.
  const tellSandbox = () =>
    void import('../../actors/tool-executor/safety/sandbox.js')
      .then(({ sandboxNotice }) => sandboxNotice(config.tools))
      .then((line) => line && app.note(`reika: ${line}`, style.yellow));
  // A resumed session has no bootstrap (its index and repo map are the recorded ones).
  if (opened.resume) void session.ready.then(tellSandbox, () => {});
  // The first bootstrap is announced here; `/cd` prints its own.
  const unsubscribe = session.subscribe((event) => {
    if (event.type !== 'bootstrap') return;
    app.note(describeBootstrap(event), style.dim);
    for (const problem of event.problems ?? []) app.note(`reika: skill ${problem}`, style.yellow);
    unsubscribe();
    tellSandbox();
  });
  // MCP servers are announced as they settle (their tools join at /mcp reload if they come late).
  void Promise.all([runtime.mcp(), import('../../actors/mcp/describe-status.js')]).then(([hub, { describeChange }]) => {
    hub.onChange((change) => {
      // Before the first message the tools array is not fixed yet: a server ready now joins with it.
      const joined = change.state === 'ready' && (!session.toolsFixed || session.toolNames().some((name) => hub.status().find((s) => s.name === change.server)?.tools.includes(name)));
      const line = describeChange(change, joined);
      if (line) app.note(`reika: ${line}`, change.state === 'ready' ? style.dim : style.yellow);
    });
  });
  session.ready.then(
    () => runtime.mcp().then((hub) => hub.configProblems().forEach((problem) => app.note(`reika: MCP config ${problem}`, style.yellow))),
    (error: unknown) => app.note(`reika: ${error instanceof Error ? error.message : String(error)}`, style.red),
  );
  runtime.ready.catch((error: unknown) => app.note(`reika: ${error instanceof Error ? error.message : String(error)}`, style.red));
  return new SessionAdapter(session, config, () => runtime.close(), runtime.mcp, notify);
}
