import { ConfigError, loadConfig, type Config } from '../../actors/config.js';
import { InteractiveApp } from '../tui/app.js';
import { SessionApprovals } from '../tui/approver.js';
import type { SessionFacts, SessionPort } from '../tui/session-port.js';
import { colorDisabled, createStyle } from '../tui/style.js';
import { enterRawMode } from '../tui/terminal.js';

/**
 * `reika` in a terminal: the interactive session. The prompt is drawn and accepts keys before
 * anything heavy loads — the actor runtime, the agent session and the bootstrap (index, repo map)
 * are imported and started after the first frame, so typing never waits for them; the first
 * message waits for the bootstrap if it has to. See docs/terminal.md.
 */

/** After the session closed, a process still held open by a stray handle is ended this much later. */
const EXIT_GRACE_MS = 500;

export async function run(_argv: string[]): Promise<number> {
  const cwd = process.cwd();
  let config: Config;
  try {
    config = loadConfig({ cwd });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`reika: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const style = createStyle(!colorDisabled());
  const initialFacts: SessionFacts = {
    root: cwd,
    model: config.active.model ?? '',
    profile: config.active.name,
    profiles: config.profiles.map((p) => p.name),
    mode: 'agent',
    approvals: config.approvals,
    contextWindow: config.active.contextWindow,
    contextTokens: 0,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    requests: 0,
  };

  let resolveSession!: (session: SessionPort) => void;
  let rejectSession!: (error: unknown) => void;
  const sessionPromise = new Promise<SessionPort>((resolve, reject) => ((resolveSession = resolve), (rejectSession = reject)));
  sessionPromise.catch(() => {});

  return new Promise<number>((resolveExit) => {
    let approvals: SessionApprovals | undefined;
    const app: InteractiveApp = new InteractiveApp({
      output: process.stdout,
      style,
      session: sessionPromise,
      initialFacts,
      onForgetApprovals: () => approvals?.forget(),
      onExit: (code) => {
        terminal.restore();
        for (const signal of SIGNALS) process.off(signal, onSignal);
        process.stdout.off('resize', onResize);
        setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
        resolveExit(code);
      },
    });
    approvals = new SessionApprovals((request, signal) => app.ask(request, signal));
    const terminal = enterRawMode(process.stdin, process.stdout, (chunk) => app.input(chunk));
    const onResize = () => app.screen.render();
    // A signal from outside (raw mode turns Ctrl-C into a key) closes the session like /exit.
    const onSignal = () => void app.exit(130);
    const SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
    for (const signal of SIGNALS) process.on(signal, onSignal);
    process.stdout.on('resize', onResize);
    app.start([style.dim(`reika · ${cwd} · /help for commands`)]);

    // Only now load and start the runtime: the prompt is already on screen and reading keys.
    setImmediate(() => {
      startSession(config, cwd, approvals!, app).then(resolveSession, (error: unknown) => {
        rejectSession(error);
      });
    });
  });
}

async function startSession(config: Config, cwd: string, approvals: SessionApprovals, app: InteractiveApp): Promise<SessionPort> {
  const [{ startRuntime }, { Session }, { SessionAdapter, describeBootstrap }] = await Promise.all([
    import('../start-runtime.js'),
    import('../../actors/agent/session.js'),
    import('../tui/session-adapter.js'),
  ]);
  const runtime = startRuntime({ approve: approvals.approve, cwd });
  const session = new Session({ runtime, config, cwd });
  const style = createStyle(!colorDisabled());
  // The first bootstrap is announced here; `/cd` prints its own.
  const unsubscribe = session.subscribe((event) => {
    if (event.type !== 'bootstrap' || !session.bootstrap) return;
    app.print(style.dim(describeBootstrap(session.bootstrap)));
    unsubscribe();
  });
  session.ready.catch((error: unknown) => app.print(style.red(`reika: ${error instanceof Error ? error.message : String(error)}`)));
  runtime.ready.catch((error: unknown) => app.print(style.red(`reika: ${error instanceof Error ? error.message : String(error)}`)));
  return new SessionAdapter(session, config, () => runtime.close());
}
