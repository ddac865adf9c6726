import type { ExecutionContext } from 'ava';
import { InteractiveApp, type AppOptions } from '../../../cli/tui/app.js';
import { SessionApprovals } from '../../../cli/tui/approver.js';
import { createStyle } from '../../../cli/tui/style.js';
import { FakeSession, type ScriptedTurn } from './fake-session.js';
import { VirtualTerminal } from './vt.js';

/** The interactive app on a virtual terminal, driven by a scripted session (as app.test.ts drives it). */
export async function appHarness(t: ExecutionContext, turns: ScriptedTurn[], setup: (session: FakeSession) => void = () => {}, extra: Partial<AppOptions> = {}) {
  const vt = new VirtualTerminal(100, 30);
  const session = new FakeSession(turns);
  setup(session);
  const app = new InteractiveApp({
    output: { write: (data: string) => vt.write(data), columns: 100, rows: 30 },
    style: createStyle(false),
    session: Promise.resolve(session),
    initialFacts: session.state,
    onExit: () => {},
    ...extra,
  });
  const approvals = new SessionApprovals((request, signal) => app.ask(request, signal));
  session.askPerson = approvals.approve;
  app.start([]);
  t.teardown(() => app.exit());
  await new Promise((resolve) => setImmediate(resolve));
  /** Waits until the screen (scrollback included) shows `text`; polls, gives up after 3 s. */
  const until = async (text: string | RegExp) => {
    for (const deadline = Date.now() + 3000; Date.now() < deadline; ) {
      app.screen.render();
      const all = vt.all();
      if (typeof text === 'string' ? all.includes(text) : text.test(all)) return all;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`screen never showed ${String(text)}:\n${vt.all()}`);
  };
  return { vt, app, session, until, type: (keys: string) => app.input(keys) };
}
