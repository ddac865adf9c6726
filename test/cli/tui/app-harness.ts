import type { ExecutionContext } from 'ava';
import { InteractiveApp, type AppOptions } from '../../../cli/tui/app.js';
import { SessionApprovals } from '../../../cli/tui/approver.js';
import { createStyle } from '../../../cli/tui/style.js';
import { FakeSession, type ScriptedTurn } from './fake-session.js';
import { VirtualTerminal } from './vt.js';

export interface HarnessOptions {
  columns?: number;
  rows?: number;
  /** Called with the scripted session before the app starts. */
  setup?: (session: FakeSession) => void;
  extra?: Partial<AppOptions>;
}

/** The interactive app on a virtual terminal, driven by a scripted session. */
export async function tuiHarness(t: ExecutionContext, turns: ScriptedTurn[], { columns = 80, rows = 24, setup, extra = {} }: HarnessOptions = {}) {
  const vt = new VirtualTerminal(columns, rows);
  const session = new FakeSession(turns);
  setup?.(session);
  let exitCode: number | undefined;
  let exited!: () => void;
  const exitedPromise = new Promise<void>((resolve) => (exited = resolve));
  const app = new InteractiveApp({
    output: { write: (data: string) => vt.write(data), columns, rows },
    style: createStyle(false),
    session: Promise.resolve(session),
    initialFacts: session.state,
    onExit: (code) => {
      exitCode = code;
      exited();
    },
    ...extra,
  });
  const approvals = new SessionApprovals((request, signal) => app.ask(request, signal));
  session.askPerson = approvals.approve;
  app.start([]);
  t.teardown(() => app.exit());
  await new Promise((resolve) => setImmediate(resolve));
  /** Waits until the screen (scrollback included) shows `text`; polls (not a timing assumption), gives up after 3 s. */
  const until = async (text: string | RegExp) => {
    for (const deadline = Date.now() + 3000; Date.now() < deadline; ) {
      app.screen.render();
      const all = vt.all();
      if (typeof text === 'string' ? all.includes(text) : text.test(all)) return all;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`screen never showed ${String(text)}:\n${vt.all()}`);
  };
  return { vt, app, session, until, exited: exitedPromise, exitCode: () => exitCode, type: (keys: string) => app.input(keys) };
}

/** The same at 100×30, with a setup hook (the MCP-approval and custom-command tests). */
export function appHarness(t: ExecutionContext, turns: ScriptedTurn[], setup: (session: FakeSession) => void = () => {}, extra: Partial<AppOptions> = {}) {
  return tuiHarness(t, turns, { columns: 100, rows: 30, setup, extra });
}
