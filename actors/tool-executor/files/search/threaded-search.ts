import type { IndexerPool } from '../../../indexer/pool.js';
import type { UserRegex } from '../user-regex.js';
import { searchFile, type FileResult, type GrepFilesTask } from './search-file.js';

/** Files per task: enough to pay for the round trip, few enough to spread a small tree. */
const BATCH_FILES = 48;

interface Batch {
  files: string[];
  results?: Promise<FileResult[]>;
}

/**
 * grep's walk path read in parallel: the files arrive from the walk in its order, go to the
 * indexer threads in batches (`grepFiles` in `workers/pool-entry.ts`, the same `search-file.ts`
 * code the executor runs), and their results come back in that same order, so the matches, the
 * caps and the spill file are those of a search on one thread. At most two batches per thread
 * are out at a time; `close()` (the match cap reached) and the caller's abort take back the rest:
 * a batch still queued is dropped, a running one ends its thread (`IndexerPool.run`).
 */
export class ThreadedSearch {
  private readonly batches: (Batch | undefined)[] = [];
  private filling: string[] = [];
  /** The next batch to hand out, and the next to send to the pool. */
  private taken = 0;
  private sent = 0;
  private ended = false;
  private wake: (() => void) | undefined;
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private readonly maxOut: number;

  constructor(
    private readonly pool: IndexerPool,
    private readonly query: { pattern: string; ignoreCase: boolean; regex: UserRegex },
    signal: AbortSignal,
  ) {
    this.signal = AbortSignal.any([signal, this.stop.signal]);
    this.maxOut = pool.maxThreads * 2;
  }

  /** The walk's next file. */
  add(file: string): void {
    if (this.ended) return;
    this.filling.push(file);
    if (this.filling.length >= BATCH_FILES) this.seal();
  }

  /** The walk is over: no more files. */
  end(): void {
    if (this.ended) return;
    if (this.filling.length > 0) this.seal();
    this.ended = true;
    this.poke();
  }

  /** Nothing more is wanted: what is queued or running in the threads is taken back. */
  close(): void {
    this.ended = true;
    this.stop.abort();
    this.poke();
  }

  /** Each file with its result, in the order the files were added; throws when aborted. */
  async *results(): AsyncGenerator<[file: string, result: FileResult]> {
    for (;;) {
      if (this.stop.signal.aborted) return;
      const batch = this.batches[this.taken];
      if (batch === undefined) {
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      this.send();
      const results = await batch.results!;
      this.batches[this.taken++] = undefined;
      this.send();
      for (let i = 0; i < batch.files.length; i++) yield [batch.files[i]!, results[i]!];
    }
  }

  private seal(): void {
    this.batches.push({ files: this.filling });
    this.filling = [];
    this.send();
    this.poke();
  }

  private send(): void {
    while (this.sent < this.batches.length && this.sent - this.taken < this.maxOut) {
      const batch = this.batches[this.sent++]!;
      batch.results = this.search(batch.files);
      // Awaited in order by results(); one taken back after close() is never awaited.
      batch.results.catch(() => {});
    }
  }

  private async search(files: string[]): Promise<FileResult[]> {
    const task: GrepFilesTask = { files, pattern: this.query.pattern, ignoreCase: this.query.ignoreCase };
    try {
      return await this.pool.run<FileResult[]>('grepFiles', task, this.signal);
    } catch (error) {
      if (this.signal.aborted) throw error;
      // A thread that could not run the batch (it died, or the pool is gone): this thread reads it.
      const results: FileResult[] = [];
      for (const file of files) results.push(await searchFile(file, this.query.regex, this.signal));
      return results;
    }
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
