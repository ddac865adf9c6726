import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temp files for output too big to inline (grep matches, glob lists, bash output). The model is
 * told their absolute path and opens them with `read`/`grep`. One folder per executor
 * incarnation, removed when the executor is disposed.
 */
export class SpillStore {
  private folder: string | undefined;
  private counter = 0;

  constructor(private readonly base = tmpdir()) {}

  /** A fresh path such as `/tmp/reika-spill-Ab12/bash-3.txt`; nothing is created yet. */
  nextPath(kind: string, extension = 'txt'): string {
    this.folder ??= mkdtempSync(join(this.base, 'reika-spill-'));
    return join(this.folder, `${kind}-${++this.counter}.${extension}`);
  }

  /** Writes text (or bytes: an MCP tool's image) to a fresh file and returns its path. */
  async write(kind: string, content: string | Uint8Array, extension?: string): Promise<string> {
    const path = this.nextPath(kind, extension);
    await writeFile(path, content);
    return path;
  }

  /** A stream for output that arrives over time. */
  stream(kind: string): { path: string; stream: WriteStream } {
    const path = this.nextPath(kind);
    return { path, stream: createWriteStream(path) };
  }

  /** Lines written to a fresh file as they come (buffered in chunks of 16 KB). */
  lines(kind: string): SpillLines {
    return new SpillLines(this.stream(kind));
  }

  dispose(): void {
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }
}

const CHUNK_CHARS = 16 * 1024;

/** A spill file filled line by line while a tool still runs (`SpillStore.lines`). */
export class SpillLines {
  readonly path: string;
  private readonly stream: WriteStream;
  private pending = '';

  constructor(opened: { path: string; stream: WriteStream }) {
    this.path = opened.path;
    this.stream = opened.stream;
  }

  line(text: string): void {
    this.pending += text + '\n';
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  /** Writes what is pending and closes the file; resolves once it is on disk. */
  close(): Promise<void> {
    this.flush();
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }

  private flush(): void {
    if (this.pending === '') return;
    this.stream.write(this.pending);
    this.pending = '';
  }
}
