import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import type { SessionPort, TurnOutcome } from '../tui/session-port.js';
import type { Style } from '../tui/style.js';
import type { ToolView } from '../tui/tool-line.js';
import type { RecentTurn } from '../../actors/transcript/recent-turns.js';

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
  /**
   * Sends `text` to the model as a message of its own (after the running turn, if any); the
   * transcript shows `shown`. `readOnly`: only plan mode's tools may act in that turn.
   */
  send?(text: string, options: { shown: string; readOnly?: boolean }): Promise<TurnOutcome>;
  /** Shows a resumed session's last turns as they were (`/resume`). */
  replay?(turns: readonly RecentTurn[]): void;
  /** Asks the person at the terminal (the approval menu). */
  ask?(request: ApprovalRequest): Promise<ApprovalReply>;
}

export interface SlashCommand {
  name: string;
  /** Other names it answers to (peers' names: `/clear` for `/new`, `/quit` for `/exit`). */
  aliases?: readonly string[];
  /** Argument synopsis for /help, e.g. `[safe|off]`. */
  args?: string;
  help: string;
  /** Refused while a turn runs. */
  idleOnly?: boolean;
  run(context: SlashContext, arg: string): Promise<void> | void;
}
