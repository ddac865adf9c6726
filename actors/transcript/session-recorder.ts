import type { AgentEvent } from '../agent/events.js';
import type { ContextOp } from '../context/context-op.js';
import type { FrozenRecord, SessionSettings } from './transcript-event.js';
import { TranscriptWriter, type WriterOptions } from './transcript-writer.js';

/**
 * The session's side of the transcript: the session tells it when a conversation begins (a new
 * file, with the frozen bootstrap), every context change, and its events; it writes them. One
 * conversation, one file: `/new` and `/cd` end the file (it stays resumable) and the next turn
 * begins another. A resumed session starts attached to the file it resumed. A conversation the
 * model never answered (no server, a key refused, aborted before a reply) is not kept: its file
 * goes when it ends, so failed runs do not fill `reika sessions` and `/resume` (the prompt stays in
 * the ↑ history). So does a copy of a session open in another reika (open-session.ts) that the
 * model never answered in: it only repeats the session it was copied from.
 */
export class SessionRecorder {
  private writer: TranscriptWriter | undefined;
  private settings = '';
  private readonly started = new Map<string, string>();
  /** The open transcript holds a reply of the model (or was resumed): it is kept when it ends. */
  private replied = true;

  constructor(
    private readonly reika: string,
    private readonly options: WriterOptions = {},
    attached?: TranscriptWriter,
    /** `attached` is a fresh copy of another session: kept only once the model answers in it. */
    copy = false,
  ) {
    this.writer = attached;
    this.replied = !copy;
  }

  /** The id of the transcript being written, if one is open. */
  get id(): string | undefined {
    return this.writer?.id;
  }

  get transcriptPath(): string | undefined {
    return this.writer?.files.transcript;
  }

  /** Goes on writing a stored session's transcript (`/resume`), or a fresh `copy` of it; the current one is closed. */
  attach(writer: TranscriptWriter, copy = false): void {
    this.end();
    this.writer = writer;
    this.replied = !copy;
  }

  /** A conversation begins: a transcript of its own (the one before, if any, is closed). */
  begin(frozen: FrozenRecord): void {
    this.end();
    try {
      this.writer = TranscriptWriter.create(frozen.root, this.reika, this.options);
    } catch (error) {
      // An unwritable state folder costs the transcript, never the turn.
      this.options.onProblem?.(`the session is not recorded: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.writer.append(frozen);
    // An editor named the session before its first turn (ACP): that name stays loadable.
    this.replied = this.options.id !== undefined;
  }

  /** The frozen state changed within the conversation (a mode switch, `/mcp reload`). */
  frozen(record: FrozenRecord): void {
    this.writer?.append(record);
  }

  context(op: ContextOp): void {
    if (op.op === 'assistant') this.replied = true;
    this.writer?.append({ type: 'ctx', ...op });
  }

  /** The open transcript, when it will be kept (it holds a reply of the model). */
  get kept(): { id: string; path: string } | undefined {
    const writer = this.writer;
    return writer && this.replied ? { id: writer.id, path: writer.files.transcript } : undefined;
  }

  /** A turn cut off by a crash: closed as interrupted in the transcript it was resumed from. */
  interrupted(turn: string): void {
    this.writer?.append({ type: 'turn-end', turn, status: 'interrupted', requests: 0, at: new Date().toISOString() });
  }

  observe(event: AgentEvent, settings: () => SessionSettings): void {
    const writer = this.writer;
    if (!writer) return;
    switch (event.type) {
      case 'turn-start': {
        const now = settings();
        const key = JSON.stringify(now);
        if (key !== this.settings) {
          this.settings = key;
          writer.append({ type: 'settings', ...now });
        }
        const at = new Date().toISOString();
        this.started.set(event.turn, at);
        writer.append({ type: 'turn-start', turn: event.turn, prompt: event.prompt, at });
        const meta = writer.metaSnapshot;
        writer.updateMeta({ turns: meta.turns + 1, ...(meta.firstPrompt === '' ? { firstPrompt: event.prompt.slice(0, 500) } : {}), ...(now.model ? { model: now.model } : {}) });
        return;
      }
      case 'turn-end': {
        if (!this.started.delete(event.turn)) return; // a turn of a transcript closed meanwhile
        const { result } = event;
        writer.append({ type: 'turn-end', turn: event.turn, status: result.status, requests: result.requests, at: new Date().toISOString(), ...(result.error ? { error: result.error.message } : {}) });
        const meta = writer.metaSnapshot;
        writer.updateMeta({ promptTokens: meta.promptTokens + result.usage.promptTokens, cachedTokens: meta.cachedTokens + result.usage.cachedTokens, completionTokens: meta.completionTokens + result.usage.completionTokens });
        return;
      }
      case 'compaction':
        writer.append({ type: 'compaction', reason: event.reason, shed: event.shed, folded: event.folded, beforeTokens: event.beforeTokens, afterTokens: event.afterTokens });
        return;
      default:
        return;
    }
  }

  /** Ends the current transcript (it stays on disk, resumable); nothing is written until the next {@link begin}. */
  end(): void {
    if (this.replied) this.writer?.close();
    else this.writer?.discard();
    this.writer = undefined;
    this.replied = true;
    this.started.clear();
    this.settings = '';
  }

  close(): void {
    this.end();
  }
}
