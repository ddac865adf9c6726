import { ContextManager } from '../context/context-manager.js';
import type { ContextOp } from '../context/context-op.js';
import { traceStartup } from '../indexer/startup-trace.js';
import type { ResumedSession } from '../transcript/resumed-session.js';
import type { SessionRecorder } from '../transcript/session-recorder.js';
import type { EngineFacts } from './engine-facts.js';
import type { Frozen, FrozenPrompt } from './frozen-prompt.js';

export interface SessionConversationOptions {
  /** Where the session's transcript goes; without one nothing is recorded. */
  recorder: SessionRecorder | undefined;
  /** Makes the transcript's record of a freeze. */
  prompt: Pick<FrozenPrompt, 'record'>;
  facts: Pick<EngineFacts, 'forConversation' | 'contextOptions' | 'conversationStarted'>;
  /** The window's owner (the session's `ModelLink`), asked each time. */
  window: () => number | undefined;
  /** REIKA_MAX_TOKENS. */
  maxTokens?: number;
}

/**
 * The one owner of a session's current conversation: its context manager (created by the first
 * turn, or replayed from a stored session), where it begins and ends in the transcript, and the
 * new freezes (`/mode`, `/mcp reload`, late MCP tools) it goes on with.
 */
export class SessionConversation {
  private context: ContextManager | undefined;
  /** A stored session whose conversation the next turn replays (then it is let go). */
  private resume: ResumedSession | undefined;
  /** The stored conversation replayed once for its figures (the status line's `ctx` before the first turn). */
  private preview: ContextManager | undefined;

  constructor(private readonly options: SessionConversationOptions) {}

  /** The conversation under way (undefined before the first turn, after `/new`, `/cd` or `/resume`). */
  get current(): ContextManager | undefined {
    return this.context;
  }

  /**
   * The conversation whose figures the status line and `/tokens` show: the one under way, or a
   * resumed one before its first turn (replayed once, without a journal, for its size only).
   */
  get shown(): ContextManager | undefined {
    if (this.context || !this.resume) return this.context;
    if (!this.preview) {
      try {
        this.preview = ContextManager.replay(this.resume.contextOps);
      } catch {
        return undefined; // the first turn's replay says what is wrong
      }
      this.preview.setWindow(this.options.window);
    }
    return this.preview;
  }

  /** The next turn goes on with a stored session's conversation. */
  resumeWith(resumed: ResumedSession): void {
    this.context = undefined;
    this.preview = undefined;
    this.resume = resumed;
  }

  /** `/new`, `/cd`: the next turn starts a new conversation, with a transcript of its own. */
  startOver(): void {
    this.context = undefined;
    this.preview = undefined;
    this.resume = undefined;
    this.options.recorder?.end();
  }

  /** Tools that became ready late join the conversation's requests (the journal notes the change). */
  joinLateTools(frozen: Frozen): void {
    this.context?.rebase(frozen.system, frozen.tools);
  }

  /** A new freeze (`/mode`, `/mcp reload`): the conversation goes on with its bytes, and the transcript records it. */
  refreeze(frozen: Frozen, root: string): void {
    if (!this.context) return;
    this.options.recorder?.frozen(this.options.prompt.record(frozen, root));
    this.context.rebase(frozen.system, frozen.tools);
  }

  /**
   * The conversation for the next turn: the current one, a stored one replayed (a resume), or a
   * new one — which begins a transcript of its own.
   */
  async forTurn(frozen: Frozen, model: string, root: string): Promise<ContextManager> {
    if (this.context) return this.context;
    const { recorder, facts, prompt } = this.options;
    const decision = await facts.forConversation();
    const journal = recorder ? (op: ContextOp) => recorder.context(op) : undefined;
    const resume = this.resume;
    this.resume = undefined;
    this.preview = undefined;
    if (!resume) {
      recorder?.begin(prompt.record(frozen, root));
      // Where the system prompt goes and whether reasoning goes back are fixed here for the
      // conversation, or once when the template probe ends after its first request (engine-facts.ts).
      const fresh = new ContextManager({ system: frozen.system, tools: frozen.tools, window: this.options.window, maxTokens: this.options.maxTokens, journal, ...facts.contextOptions(decision, model) });
      this.context = fresh;
      facts.conversationStarted(fresh, decision, model, () => this.context === fresh);
      return fresh;
    }
    const context = ContextManager.replay(resume.contextOps, journal);
    traceStartup(`session: ${resume.contextOps.length} context changes replayed`);
    // From now on the window is the link's (the journal notes it if it differs from the recorded one).
    context.setWindow(this.options.window);
    this.context = context;
    // A turn cut off (a crash, SIGKILL) is closed as an abort would have closed it.
    if (resume.openTurn) {
      context.endTurn('unanswered');
      recorder?.interrupted(resume.openTurn);
    }
    // Another mode than the recorded one was asked for: its prompt and tools (the cache starts over once).
    const last = [...resume.contextOps].reverse().find((op) => op.op === 'init' || op.op === 'rebase');
    if (last && (last.system !== frozen.system || JSON.stringify(last.tools) !== JSON.stringify(frozen.tools))) {
      recorder?.frozen(prompt.record(frozen, root));
      context.rebase(frozen.system, frozen.tools);
    }
    return context;
  }
}
