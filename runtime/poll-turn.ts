/**
 * Resolves once this thread's event loop has polled for I/O again. Whatever arrived before the
 * call — a SIGINT (Node runs signal listeners from the poll phase), an `abort` message from the
 * supervisor — has been handled by then, so a signal checked right after it is up to date.
 *
 * Everything that leaves reika for good (a model request, a tool call that may write) waits for
 * one before it goes: a chain of promises that were already settled never returns to the event
 * loop, and a signal sent meanwhile would only be seen once the request or the write was out.
 * Two immediates because the first may run in the check phase of the very iteration whose poll
 * came before the signal did; the second always runs after a later poll. Idle, this costs tens of
 * microseconds.
 */
export function pollTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
