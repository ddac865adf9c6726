import type { Clock } from '../../runtime/clock.js';

/**
 * A clock that moves only when the test says so: `advance(ms)` runs every tick that falls due,
 * in order, synchronously. With it a heartbeat or a crash-loop window is decided by the test's
 * steps, not by how fast a loaded machine fires its timers.
 */
export class ManualClock implements Clock {
  private time = 0;
  private readonly tickers = new Set<{ ms: number; next: number; tick: () => void }>();

  now(): number {
    return this.time;
  }

  every(ms: number, tick: () => void): () => void {
    const ticker = { ms, next: this.time + ms, tick };
    this.tickers.add(ticker);
    return () => void this.tickers.delete(ticker);
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      let due: { ms: number; next: number; tick: () => void } | undefined;
      for (const ticker of this.tickers) if (ticker.next <= until && (!due || ticker.next < due.next)) due = ticker;
      if (!due) break;
      this.time = due.next;
      due.next += due.ms;
      due.tick();
    }
    this.time = until;
  }
}
