import { actorAddress, defineActor, type Protocol } from './actor.js';
import { cancelledError } from './errors.js';
import { pollTurn } from './poll-turn.js';

/**
 * The main thread's go-ahead for a request another thread is about to send out on its own (engine
 * detection's next wave, a retry after a backoff). Only the main thread sees signals, and under
 * load it may be busy for tens of milliseconds after one came, while a worker thread goes on
 * sending; the abort it would send reaches that thread too late. Asked first, the clearance
 * answers only once the main thread has polled for what is pending — a SIGINT then has aborted the
 * scope, and the clearance fails as cancelled (a scope aborted before is refused by the supervisor
 * itself). A local actor: `supervisor.register(CLEARANCE, clearance)`.
 */

export interface ClearRequest {
  type: 'clear';
}

export interface ClearanceProtocol extends Protocol<ClearRequest> {
  replies: { clear: true };
}

export const CLEARANCE = actorAddress<ClearanceProtocol>('clearance');

export const clearance = defineActor<ClearanceProtocol>({
  async handle(_request, { signal }): Promise<true> {
    await pollTurn();
    if (signal.aborted) throw cancelledError(String(signal.reason ?? 'aborted'));
    return true;
  },
});
