/** After a run has closed what it started, a process still held open by a stray handle is ended this much later. */
export const EXIT_GRACE_MS = 500;

/**
 * Ends the process `graceMs` from now unless it ends on its own first (the timer does not hold it
 * open), with `code`, or, without one, the exit code set by then.
 */
export function exitLater(code?: number, graceMs = EXIT_GRACE_MS): void {
  setTimeout(() => process.exit(code ?? process.exitCode ?? 0), graceMs).unref();
}
