// The run's first SIGINT or SIGTERM, from the first module `reika` evaluates (cli/main.ts imports
// this one first). A command that handles signals itself (headless, interactive) adds its own
// listener and winds down; a signal before any has — or after it removed its own — ends the process
// at once with 130: at that point nothing has started that needs winding down (no actor, no
// request, no write). Before Node has loaded this module a signal ends the process by the default
// action, which a shell reports as 130 too.

const controller = new AbortController();

/** Aborted (its reason the signal's name) by the first SIGINT or SIGTERM of the run. */
export const interruption: AbortSignal = controller.signal;

/** The exit code of an interrupted run. */
export const INTERRUPTED_EXIT = 130;

function onSignal(signal: NodeJS.Signals): void {
  if (!controller.signal.aborted) controller.abort(signal);
  if (process.listenerCount(signal) > 1) return;
  process.exit(INTERRUPTED_EXIT);
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
