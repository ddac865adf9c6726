import type { ProcessGroups } from '../process/process-groups.js';
import type { ToolDelta, ToolResult, ToolResultCode, ToolSettings } from '../protocol.js';
import type { SpillStore } from '../files/spill.js';
import type { TextFiles } from '../files/editor-files.js';

/** What every tool gets: the project root, the call's abort signal and the executor's services. */
export interface ToolEnv {
  /** Absolute project root; relative paths resolve against it. */
  root: string;
  /** The session's settings for the tools (sandbox, checkpoints, bash limits). */
  settings: ToolSettings;
  signal: AbortSignal;
  emit(delta: ToolDelta): void;
  spill: SpillStore;
  groups: ProcessGroups;
  /**
   * Asked right before a call that changes something runs (the actor: the main thread's clearance,
   * runtime/clearance.ts); false: the call is not run and ends cancelled. Absent: always run.
   */
  clear?(): Promise<boolean>;
  /** The editor's view of project files, when it offers one (files/editor-files.ts); absent: the disk. */
  files?: TextFiles;
}

/** A tool's own answer; the wrapper adds the call id and the tool name. */
export interface ToolOutcome {
  status?: 'done' | 'cancelled' | 'error';
  /** With status `error`: a stable code (the output gathered so far stays in `payload`). */
  errorCode?: ToolResultCode;
  summary: string;
  payload: string;
  meta?: ToolResult['meta'];
  /**
   * `bash`: the command failed in the sandbox for lack of the network it is not given unapproved
   * (SPEC §12): the wrapper asks whether to run it again with the network.
   */
  withoutNetwork?: true;
}

/** "1 line" / "3 lines". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? word : many}`;
}

/** "812 B", "4.1 KB", "50.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
