import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Keeps the terminal ahead of background work on a busy machine (Linux only; a no-op elsewhere).
 * The indexer's and model-io's worker threads live in this process, and on a two-core laptop a
 * breadth-first scan of a huge tree would otherwise take CPU time from the thread that echoes
 * keys. Linux keeps a nice value per thread, so threads that appear after {@link snapshot} —
 * the worker threads the runtime starts — are lowered to `nice`; the UI thread and the threads
 * that existed before (libuv's pool, V8's helpers) keep theirs. Throughput is unchanged on an idle
 * machine: nice only matters when threads compete for a core.
 */
export class BackgroundPriority {
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly nice = 10) {}

  /** Remembers the threads that exist now; they are never reniced. */
  snapshot(): this {
    for (const tid of threads()) this.seen.add(tid);
    return this;
  }

  /** Renices every thread that appeared since the last look; returns how many. */
  lowerNewThreads(): number {
    let lowered = 0;
    for (const tid of threads()) {
      if (this.seen.has(tid)) continue;
      this.seen.add(tid);
      try {
        setPriority(Number(tid), this.nice);
        lowered++;
      } catch {
        // The thread ended meanwhile, or the platform refuses: either way nothing to do.
      }
    }
    return lowered;
  }

  /** Looks every `fastMs` for `fastForMs` (start-up), then every `slowMs` (pools grow and shrink). */
  watch(fastMs = 25, fastForMs = 3_000, slowMs = 1_000): void {
    const started = Date.now();
    const tick = () => {
      this.lowerNewThreads();
      this.timer = setTimeout(tick, Date.now() - started < fastForMs ? fastMs : slowMs);
      this.timer.unref();
    };
    tick();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function threads(): string[] {
  if (process.platform !== 'linux') return [];
  try {
    return readdirSync('/proc/self/task');
  } catch {
    return [];
  }
}
