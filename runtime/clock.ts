/**
 * Time as the supervisor reads it: the crash-loop window and the heartbeat ticks. Production uses
 * {@link systemClock}; tests inject a clock they advance by hand, so no test waits on a timer
 * firing at the right moment on a busy machine.
 */
export interface Clock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. Never keeps the process alive. */
  every(ms: number, tick: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
