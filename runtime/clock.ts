/**
 * Time as the supervisor reads it: the crash-loop window, the heartbeat ticks, the abort grace. Production uses
 * {@link systemClock}; tests inject a clock they advance by hand, so no test waits on a timer
 * firing at the right moment on a busy machine.
 */
export interface Clock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. Never keeps the process alive. */
  every(ms: number, tick: () => void): () => void;
  /** Calls `fn` once after `ms` unless the returned function is called first. Never keeps the process alive. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** What `promise` gives within `ms`, or undefined when it takes longer or fails. */
export function valueWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
