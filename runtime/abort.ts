/**
 * Runs `fn` once when `signal` aborts — at once if it already has — and returns the function
 * that removes the listener. Every abort listener in reika goes through here, so none is left
 * behind on a long-lived signal.
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
