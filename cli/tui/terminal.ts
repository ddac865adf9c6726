// Puts the terminal into the mode the UI needs and back: raw input (every key arrives at once,
// no echo, Ctrl-C as a byte rather than SIGINT), bracketed paste, and a restore that runs exactly
// once — on exit, on a signal, or on an uncaught error — so the shell is never left raw.

export interface TerminalInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export interface TerminalHandle {
  restore(): void;
  /** Hands the terminal back to the shell for a while (Ctrl+Z) … */
  suspend(): void;
  /** … and takes it again (SIGCONT). */
  resume(): void;
}

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/** The libuv handle behind a TTY stream: writes to a TTY are synchronous unless told otherwise. */
type WithHandle = { _handle?: { setBlocking?(blocking: boolean): unknown } };

export function enterRawMode(input: TerminalInput, output: { write(data: string): unknown }, onData: (chunk: string | Buffer) => void): TerminalHandle {
  // A synchronous write stalls the event loop whenever the terminal reads slowly (a busy tmux, a
  // slow SSH link); queued writes keep keys flowing, in order, while frames drain.
  (output as WithHandle)._handle?.setBlocking?.(false);
  const take = () => {
    (output as WithHandle)._handle?.setBlocking?.(false);
    input.setRawMode?.(true);
    output.write(BRACKETED_PASTE_ON);
  };
  const release = () => {
    output.write(`${BRACKETED_PASTE_OFF}\x1b[?25h`);
    (output as WithHandle)._handle?.setBlocking?.(true);
    input.setRawMode?.(false);
  };
  take();
  input.setEncoding('utf8');
  input.on('data', onData);
  input.resume();
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    input.off('data', onData);
    release();
    input.pause();
  };
  process.once('exit', restore);
  return {
    restore,
    suspend: () => {
      if (!restored) release();
    },
    resume: () => {
      if (!restored) take();
    },
  };
}
