import { threadId } from 'node:worker_threads';

/** Pool tasks for the pool tests: a synchronous task only ending its thread can stop, and an echo. */

/** Stores its thread id in slot 0 (and wakes the waiter), then spins forever. */
export function spin(shared: SharedArrayBuffer): never {
  const view = new Int32Array(shared);
  Atomics.store(view, 0, threadId);
  Atomics.notify(view, 0);
  for (;;) Atomics.add(view, 1, 1);
}

export function echo(value: unknown): unknown {
  return value;
}

export function fail(message: string): never {
  throw new Error(message);
}
