import type { Clock } from '../../runtime/clock.js';

interface Timer {
  /** 0 for a one-shot timer. */
  ms: number;
  next: number;
  fn: () => void;
}

/**
 * A clock that moves only when the test says so: `advance(ms)` runs every tick and timer that
 * falls due, in order, synchronously. With it a heartbeat, a crash-loop window or an abort grace
 * is decided by the test's steps, not by how fast a loaded machine fires its timers.
 */
export class ManualClock implements Clock {
  private time = 0;
  private readonly timers = new Set<Timer>();

  now(): number {
    return this.time;
  }

  every(ms: number, tick: () => void): () => void {
    return this.add({ ms, next: this.time + ms, fn: tick });
  }

  after(ms: number, fn: () => void): () => void {
    return this.add({ ms: 0, next: this.time + ms, fn });
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      let due: Timer | undefined;
      for (const timer of this.timers) if (timer.next <= until && (!due || timer.next < due.next)) due = timer;
      if (!due) break;
      this.time = due.next;
      if (due.ms > 0) due.next += due.ms;
      else this.timers.delete(due);
      due.fn();
    }
    this.time = until;
  }

  private add(timer: Timer): () => void {
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  }
}
