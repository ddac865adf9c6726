import { closeSync, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tryLock } from '../lock-file.js';
import { newSessionId, projectDir, sessionFiles, type SessionFiles } from './store-paths.js';
import { TRANSCRIPT_VERSION, type SessionHeader, type SessionMeta, type TranscriptEvent } from './transcript-event.js';

export interface WriterOptions {
  /** Strings never to write (API keys): replaced by `[redacted]`. Short ones (< 8) are ignored. */
  secrets?: readonly string[];
  /** Told once when recording stops because of a write error. */
  onProblem?(message: string): void;
  env?: NodeJS.ProcessEnv;
  /**
   * The id of the first transcript created with these options, when it is free (an editor names
   * an ACP session before its first turn, and loads it by that name later); others draw one.
   */
  id?: string;
  /** This run's checkpoint session (REIKA_SESSION_ID), noted in the meta so `reika undo --list` can name the session. */
  checkpoints?: string;
}

/**
 * Appends one session's events to its transcript, one JSON line per event, each written to the
 * file at once (`write(2)` per event, no buffer in the process: a crash or SIGKILL loses at most
 * the line being written). Files are created `0600` in a `0700` folder; every line is scrubbed of
 * the configured API keys. A write that fails (disk full) stops the recording with one problem
 * report and never stops the session.
 */
export class TranscriptWriter {
  private fd: number | undefined;
  private readonly secrets: string[];
  private stopped = false;

  private constructor(
    readonly id: string,
    readonly files: SessionFiles,
    fd: number,
    private meta: SessionMeta,
    private readonly release: () => void,
    private readonly options: WriterOptions,
  ) {
    this.fd = fd;
    this.secrets = [...new Set(options.secrets ?? [])].filter((secret) => secret.length >= 8);
  }

  /**
   * A new transcript for `root`, locked by this process. `copy` (the lines of another session
   * after its header) makes it a fork of `forkedFrom`: the same conversation, a file of its own.
   */
  static create(root: string, reika: string, options: WriterOptions & { forkedFrom?: string; copy?: string; meta?: Partial<SessionMeta> } = {}): TranscriptWriter {
    const dir = projectDir(root, options.env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    let wanted = options.id;
    for (;;) {
      const id = wanted ?? newSessionId();
      wanted = undefined;
      const files = sessionFiles(dir, id);
      const lock = tryLock(files.lock);
      if (!lock.held) continue; // an id taken this very moment: draw another
      let fd: number;
      try {
        fd = openSync(files.transcript, 'wx', 0o600);
      } catch (error) {
        lock.release();
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      const created = new Date().toISOString();
      const meta: SessionMeta = { id, root, created, updated: created, turns: 0, firstPrompt: '', promptTokens: 0, cachedTokens: 0, completionTokens: 0, v: TRANSCRIPT_VERSION, ...options.meta };
      meta.id = id;
      meta.root = root;
      meta.checkpoints = withRun(meta.checkpoints, options.checkpoints);
      const writer = new TranscriptWriter(id, files, fd, meta, lock.release, options);
      const header: SessionHeader = { type: 'session', v: TRANSCRIPT_VERSION, id, root, created, reika, ...(options.forkedFrom ? { forkedFrom: options.forkedFrom } : {}) };
      writer.append(header);
      if (options.copy) writer.write(options.copy);
      writer.saveMeta();
      return writer;
    }
  }

  /**
   * Appends to an existing transcript (a resume), when no other process holds it: everything
   * after `validBytes` (a torn last line) is cut first. Returns the pid holding it otherwise.
   */
  static attach(files: SessionFiles, id: string, validBytes: number, meta: SessionMeta, options: WriterOptions = {}): TranscriptWriter | { heldBy: number } {
    const lock = tryLock(files.lock);
    if (!lock.held) return { heldBy: lock.pid };
    let fd: number;
    try {
      fd = openSync(files.transcript, 'r+');
      ftruncateSync(fd, validBytes);
      closeSync(fd);
      fd = openSync(files.transcript, 'a', 0o600);
    } catch (error) {
      lock.release();
      throw error;
    }
    const writer = new TranscriptWriter(id, files, fd, meta, lock.release, options);
    if (options.checkpoints && !meta.checkpoints?.includes(options.checkpoints)) writer.updateMeta({ checkpoints: withRun(meta.checkpoints, options.checkpoints) });
    return writer;
  }

  get metaSnapshot(): SessionMeta {
    return { ...this.meta };
  }

  append(event: TranscriptEvent): void {
    if (this.fd === undefined) return;
    this.write(`${JSON.stringify(event)}\n`);
  }

  /** Changes the listing's figures; written at once (a small file, replaced atomically). */
  updateMeta(patch: Partial<SessionMeta>): void {
    this.meta = { ...this.meta, ...patch, updated: new Date().toISOString() };
    this.saveMeta();
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
    this.release();
  }

  /** Closes the transcript and removes it with its meta: a conversation the model never answered (a run with no server). */
  discard(): void {
    for (const path of [this.files.transcript, this.files.meta]) rmSync(path, { force: true });
    this.close();
  }

  private write(text: string): void {
    if (this.fd === undefined) return;
    for (const secret of this.secrets) if (text.includes(secret)) text = text.split(secret).join('[redacted]');
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
    } catch (error) {
      this.fail(error);
    }
  }

  private saveMeta(): void {
    if (this.stopped) return;
    let text = `${JSON.stringify(this.meta)}\n`;
    for (const secret of this.secrets) if (text.includes(secret)) text = text.split(secret).join('[redacted]');
    const temp = `${this.files.meta}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, text, { mode: 0o600 });
      renameSync(temp, this.files.meta);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.close();
    this.options.onProblem?.(`the session transcript stopped recording: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The runs' checkpoint sessions with this run's added (the last few: a session resumed a hundred times lists its latest runs). */
function withRun(runs: readonly string[] | undefined, run: string | undefined): string[] | undefined {
  if (!run) return runs ? [...runs] : undefined;
  return [...(runs ?? []).filter((r) => r !== run), run].slice(-20);
}
