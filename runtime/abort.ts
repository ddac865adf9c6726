/**
 * Runs `fn` once when `signal` aborts — at once if it already has — and returns the function
 * that removes the listener. Every abort listener in reika goes through here, so none is left
 * behind on a long-lived signal (test/runtime/abort-listeners.test.ts fails on one added by hand).
 */
export function onAbort(signal: AbortSignal, fn: (reason: unknown) => void): () => void {
  if (signal.aborted) {
    fn(signal.reason);
    return () => {};
  }
  const listener = () => fn(signal.reason);
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** Resolves with `promise`, or rejects with `reason()` as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const remove = onAbort(signal, () => reject(reason()));
    promise.then(resolve, reject).finally(remove);
  });
}
