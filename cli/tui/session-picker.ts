import type { StoredSession } from '../../actors/transcript/session-catalog.js';
import { sessionLine } from '../describe-sessions.js';
import { KeyDecoder, type KeyEvent } from './keys.js';
import type { Style } from './style.js';
import { enterRawMode, type TerminalInput } from './terminal.js';

// `reika --resume` without an id: the folder's sessions, newest first (date, turns, tokens, first
// prompt), ↑/↓ to choose, Enter to resume, Esc or q to leave. Drawn below the cursor and erased
// afterwards, before the interactive session takes the terminal.

/** Rows of the list shown at once. */
const ROWS = 12;

export function pickSession(sessions: readonly StoredSession[], io: { input: TerminalInput; output: NodeJS.WriteStream }, style: Style): Promise<StoredSession | undefined> {
  return new Promise((resolve) => {
    let chosen = 0;
    let drawn = 0;
    const width = () => Math.max(40, (io.output.columns ?? 80) - 3);
    const draw = () => {
      const top = Math.max(0, Math.min(chosen - ROWS + 1, sessions.length - ROWS));
      const shown = sessions.slice(top, top + ROWS);
      const lines = [
        style.bold(`Resume a session of ${sessions[0]?.meta.root ?? ''} (↑/↓, Enter; Esc leaves)`),
        ...shown.map((session, i) => (top + i === chosen ? `${style.bold('›')} ${style.bold(sessionLine(session, width()))}` : `  ${sessionLine(session, width())}`)),
        ...(sessions.length > ROWS ? [style.dim(`  ${chosen + 1}/${sessions.length}`)] : []),
      ];
      // Back to the list's first row, redraw, clear what is below.
      io.output.write(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ''}\r\x1b[J${lines.join('\r\n')}`);
      drawn = lines.length;
    };
    const finish = (session: StoredSession | undefined) => {
      decoder.dispose();
      io.output.write(`${drawn > 1 ? `\x1b[${drawn - 1}A` : ''}\r\x1b[J`);
      terminal.restore();
      resolve(session);
    };
    const onKey = (event: KeyEvent) => {
      if (event.type === 'text' && (event.text === 'q' || event.text === 'Q')) return finish(undefined);
      if (event.type === 'text' && event.text === 'k') chosen = Math.max(0, chosen - 1);
      else if (event.type === 'text' && event.text === 'j') chosen = Math.min(sessions.length - 1, chosen + 1);
      else if (event.type !== 'key') return;
      else if (event.name === 'up') chosen = Math.max(0, chosen - 1);
      else if (event.name === 'down') chosen = Math.min(sessions.length - 1, chosen + 1);
      else if (event.name === 'enter') return finish(sessions[chosen]);
      else if (event.name === 'escape' || event.name === 'ctrl-c' || event.name === 'ctrl-d') return finish(undefined);
      draw();
    };
    const decoder = new KeyDecoder(onKey);
    const terminal = enterRawMode(io.input, io.output, (chunk) => decoder.feed(chunk));
    draw();
  });
}
