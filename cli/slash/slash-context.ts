import type { SessionPort } from '../tui/session-port.js';
import type { Style } from '../tui/style.js';
import type { ToolView } from '../tui/tool-line.js';

/** What a slash command may do: talk to the session and print to the transcript. */
export interface SlashContext {
  session: SessionPort;
  style: Style;
  /** Prints lines into the transcript. */
  print(...lines: string[]): void;
  /** Prints one error line. */
  error(message: string): void;
  /** Ends the interactive session. */
  exit(): void;
  /** True while a turn runs (commands that change the conversation refuse then). */
  busy(): boolean;
  /** Forgets `always` approvals (a new folder or conversation starts over). */
  forgetApprovals(): void;
  /** Images pasted (Ctrl+V) and waiting for the next message. */
  pendingImages(): number;
  /** The finished tool call `back` calls ago (1 = the last), for `/last`. */
  finishedTool?(back: number): ToolView | undefined;
  /** The terminal's width. */
  columns?(): number;
  /** Sends a message to the model as if the user had typed it (`/init`). */
  send?(text: string): void;
}

export interface SlashCommand {
  name: string;
  /** Argument synopsis for /help, e.g. `[safe|off]`. */
  args?: string;
  help: string;
  /** Refused while a turn runs. */
  idleOnly?: boolean;
  run(context: SlashContext, arg: string): Promise<void> | void;
}
