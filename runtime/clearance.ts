import { actorAddress, client, defineActor, type Protocol } from './actor.js';
import type { Router } from './calls.js';
import { cancelledError, isCancelled } from './errors.js';
import { pollTurn } from './poll-turn.js';

export interface ClearRequest {
  type: 'clear';
}

export interface ClearanceProtocol extends Protocol<ClearRequest> {
  replies: { clear: true };
}

export const CLEARANCE = actorAddress<ClearanceProtocol>('clearance');

/**
 * The main thread's go-ahead for a request another thread is about to send out on its own (engine
 * detection's next wave, a retry after a backoff), or for a tool call about to change the project
 * (the tool executor, right before an edit, a write or a command runs). Only the main thread sees signals, and under
 * load it may be busy for tens of milliseconds after one came, while a worker thread goes on
 * sending; the abort it would send reaches that thread too late. Asked first, the clearance
 * answers only once the main thread has polled for what is pending — a SIGINT then has aborted the
 * scope, and the clearance fails as cancelled (a scope aborted before is refused by the supervisor
 * itself). A local actor: `supervisor.register(CLEARANCE, clearance)`.
 */
export const clearance = defineActor<ClearanceProtocol>({
  async handle(_request, { signal }): Promise<true> {
    await pollTurn();
    if (signal.aborted) throw cancelledError(String(signal.reason ?? 'aborted'));
    return true;
  },
});

/**
 * Asks the clearance through `router` (a handler's context, so the request carries its scope):
 * false once that scope was aborted, an interrupt the main thread had not handled yet included. A
 * runtime without the clearance actor (tests) lets everything go.
 */
export function askClearance(router: Router): Promise<boolean> {
  return client(router, CLEARANCE)
    .request({ type: 'clear' })
    .then(
      () => true,
      (error: unknown) => !isCancelled(error),
    );
}
