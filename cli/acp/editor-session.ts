import { nanoid } from 'nanoid';
import type { ContentBlock, PromptResponse, SessionModeState, SessionUpdate, StopReason, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { Config } from '../../actors/config/load-config.js';
import type { TurnResult } from '../../actors/agent/events.js';
import type { SessionMode } from '../../actors/session/frozen-prompt.js';
import { Session } from '../../actors/session/session.js';
import type { EditorFilesProtocol, EditorFilesRequest } from '../../actors/editor-files/protocol.js';
import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import type { ReplyOf } from '../../runtime/actor.js';
import { expandTypedCommand } from '../slash/custom-commands.js';
import { sessionPermissions } from '../session-permissions.js';
import { startRuntime, type Runtime } from '../start-runtime.js';
import type { OpenedSession } from '../open-session.js';
import type { McpServerConfig } from '../../actors/mcp/config.js';
import type { EditorLink } from './editor-link.js';
import { EditorApprovals } from './permission.js';
import { readPrompt } from './prompt-content.js';
import { replayUpdates } from './replay.js';
import { availableCommands, runBuiltIn } from './editor-commands.js';
import { engineNote } from './engine-note.js';
import { TurnUpdates } from './turn-updates.js';

export const MODES: SessionModeState['availableModes'] = [
  { id: 'agent', name: 'Agent', description: 'Reads, edits and runs commands; dangerous steps ask first' },
  { id: 'plan', name: 'Plan', description: 'Read-only: looks around and proposes a plan, changes nothing' },
];

/** How long the first prompt waits for the editor's MCP servers to be up. */
const EDITOR_MCP_WAIT_MS = 10_000;

export interface EditorSessionOptions {
  /** The ACP session id: the transcript's id, so `session/load` finds it again. */
  id: string;
  root: string;
  config: Config;
  opened: OpenedSession;
  mode?: SessionMode;
  editor: EditorLink;
  /** The MCP servers the editor passed (editor-mcp.ts). */
  mcpServers?: readonly McpServerConfig[];
  /** Where problems that are not the editor's business go (stderr). */
  log(line: string): void;
}

/**
 * One ACP session: reika's own {@link Session} (the same bootstrap, turns, transcript and abort as
 * the terminal's) on a runtime of its own, whose approver is the editor. The session's events go
 * to the editor as updates (turn-updates.ts); `session/cancel` is the turn's one abort.
 */
export class EditorSession {
  readonly id: string;
  private readonly runtime: Runtime;
  private readonly session: Session;
  private readonly updates: TurnUpdates;
  private readonly approvals: EditorApprovals;
  private readonly options: EditorSessionOptions;
  /** What is wrong with the engine, if anything, once the session knows it (engine-note.ts). */
  private readonly engineNote: Promise<string | undefined>;
  /** The engine note was given (or there was none): it is said once. */
  private engineTold = false;
  private waitedForServers = false;

  constructor(options: EditorSessionOptions) {
    this.options = options;
    this.id = options.id;
    const send = (update: SessionUpdate) => options.editor.update(this.id, update);
    // The settings' permission rules and hooks, as in the terminal (a project's loosening parts once it is trusted).
    const permissions = sessionPermissions(options.config);
    for (const note of permissions.notes) options.log(note);
    this.approvals = new EditorApprovals(this.id, (request, signal) => options.editor.requestPermission(request, signal), (effect, rules) => permissions.book.add('local', effect, rules), options.log);
    this.updates = new TurnUpdates(send, () => this.session.info().root);
    const fs = options.editor.capabilities.fs;
    const editorFiles = fs?.readTextFile || fs?.writeTextFile ? { read: fs.readTextFile === true, write: fs.writeTextFile === true } : undefined;
    this.runtime = startRuntime({
      approve: (request, signal) => this.approve(request, signal),
      cwd: options.root,
      ...(editorFiles ? { editorFiles: (request, signal) => this.editorFile(request, signal) } : {}),
      ...(options.mcpServers?.length ? { mcpServers: options.mcpServers } : {}),
    });
    this.session = new Session({
      runtime: this.runtime,
      config: options.config,
      cwd: options.root,
      ...(options.mode ? { mode: options.mode } : {}),
      transcript: options.opened.recorder,
      ...(options.opened.resume ? { resume: options.opened.resume } : {}),
      ...(editorFiles ? { editorFiles } : {}),
      permissions: permissions.book,
    });
    this.session.subscribe((event) => {
      this.updates.handle(event);
      if (event.type === 'notice' || event.type === 'retry') options.log(event.type === 'notice' ? event.message : `retrying (${event.reason})`);
    });
    this.engineNote = this.session.ready.then(
      () => engineNote(this.session, options.config),
      () => undefined,
    );
    this.engineNote.catch(() => {});
    // Said as soon as it is known, unless a turn streams then: it comes after that turn's answer.
    void this.engineNote.then(() => {
      if (!this.session.busy) void this.tellEngine();
    });
  }

  /**
   * After the session is announced: the commands a prompt may start with. (Sent once the
   * response to `session/new` or `session/load` is out: an editor routes updates by the id it got.)
   */
  announceCommands(): void {
    try {
      const commands = availableCommands(this.session.info().root, this.options.config.userFolder);
      this.options.editor.update(this.id, { sessionUpdate: 'available_commands_update', availableCommands: commands });
    } catch (error) {
      this.options.log(`the commands could not be listed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  get modes(): SessionModeState {
    return { currentModeId: this.session.info().mode, availableModes: MODES };
  }

  /** A loaded session's conversation, told to the editor as it happened (replay.ts). */
  replay(): void {
    const resume = this.options.opened.resume;
    if (!resume) return;
    const root = this.session.info().root;
    for (const update of replayUpdates(resume.contextOps, root)) this.options.editor.update(this.id, update);
  }

  /** Runs one prompt to its end; a cancel ends it `cancelled`. */
  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    await this.editorServersSettled();
    const root = this.session.info().root;
    const prompt = await readPrompt(blocks, root);
    for (const problem of prompt.problems) this.say(`reika: ${problem}\n\n`);
    let text = prompt.text;
    const said = runBuiltIn(text, this.session);
    if (said !== undefined) {
      this.say(said);
      return { stopReason: 'end_turn' };
    }
    // `/review src`: a custom command (.reika/commands/review.md) sends its prompt.
    const command = expandTypedCommand(text, root, this.options.config.userFolder);
    if (command && 'error' in command) {
      this.say(`reika: ${command.error}`);
      return { stopReason: 'end_turn' };
    }
    if (command) text = command.prompt;
    const result = await this.session.run(text, prompt.images.length > 0 ? { images: prompt.images } : {});
    if (result.error) this.say(`${result.answer === '' ? '' : '\n\n'}reika: ${result.error.message}`);
    await this.tellEngine();
    return { stopReason: stopReason(result) };
  }

  /** `session/cancel`: the running turn's one abort (commands killed, the stream closed). */
  cancel(): void {
    this.session.abort('cancelled in the editor');
  }

  async setMode(mode: SessionMode): Promise<void> {
    await this.session.setMode(mode);
  }

  /** The session ends (the editor went away): its turn is aborted, its actors and processes end. */
  async close(): Promise<void> {
    this.session.close('the editor closed the connection');
    await this.runtime.close();
    this.options.opened.recorder.close();
  }

  /**
   * Before the first prompt, the editor's MCP servers get up to {@link EDITOR_MCP_WAIT_MS} to
   * start, so their tools are in the first request (the user named them for this session).
   */
  private async editorServersSettled(): Promise<void> {
    if (this.waitedForServers || !this.options.mcpServers?.length) return;
    this.waitedForServers = true;
    await this.session.ready.catch(() => {});
    const hub = await this.runtime.mcp();
    await hub.settled(EDITOR_MCP_WAIT_MS);
  }

  /** The engine note, once: before any turn when it is known in time, else after the first turn's answer. */
  private async tellEngine(): Promise<void> {
    if (this.engineTold) return;
    const note = await this.engineNote;
    if (this.engineTold) return;
    this.engineTold = true;
    if (note) this.say(note);
  }

  /** A line of the agent's answer that reika itself says (a problem with the prompt or the turn). */
  private say(text: string): void {
    this.options.editor.update(this.id, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  /** The executor reads or writes a project file through the editor (its tool context said so). */
  private async editorFile(request: EditorFilesRequest, signal: AbortSignal): Promise<ReplyOf<EditorFilesProtocol>> {
    const { editor } = this.options;
    if (request.type === 'write') {
      await editor.writeTextFile(this.id, request.path, request.text, signal);
      return { written: true };
    }
    try {
      return { text: await editor.readTextFile(this.id, request.path, signal) };
    } catch (error) {
      // The disk is read instead: the editor may not know a file it never opened.
      this.options.log(`the editor did not read ${request.path} (${error instanceof Error ? error.message : String(error)}): read from the disk`);
      return {};
    }
  }

  /**
   * The executor (or the MCP hub) asks: the editor is asked beside the tool call that waits. A
   * question that belongs to no call (a project's MCP server) is shown as a call of its own.
   */
  private async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply> {
    const waiting = this.updates.awaitingApproval;
    const call: ToolCallUpdate = waiting ?? { toolCallId: `approval-${nanoid(9)}`, title: request.tool, kind: 'other' };
    if (!waiting) this.options.editor.update(this.id, { sessionUpdate: 'tool_call', toolCallId: call.toolCallId, title: request.tool, kind: 'other', status: 'pending' });
    let reply: ApprovalReply;
    try {
      reply = await this.approvals.approve(request, call, signal);
    } catch (error) {
      reply = { decision: 'decline', note: signal.aborted ? 'the turn was cancelled' : `asking the editor failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!waiting) this.options.editor.update(this.id, { sessionUpdate: 'tool_call_update', toolCallId: call.toolCallId, status: reply.decision === 'decline' ? 'failed' : 'completed' });
    return reply;
  }
}

/** How a turn's end reads to the editor. */
export function stopReason(result: TurnResult): StopReason {
  switch (result.status) {
    case 'aborted':
      return 'cancelled';
    case 'max-turns':
      return 'max_turn_requests';
    default:
      return 'end_turn';
  }
}
