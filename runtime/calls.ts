import type { ActorAddress, AnyProtocol, DeltaOf, ReplyOf } from './actor.js';
import type { Envelope } from './envelope.js';
import { fromErrorRecord, ReikaError } from './errors.js';

/**
 * Options for one request, the same whether the caller is the supervisor or an actor.
 *
 * There is no per-request signal: work is stopped by the one abort of its scope (the turn),
 * which the supervisor sends to every actor holding work of that scope. The runtime itself
 * cancels a single request only when its caller stops waiting for it on its own: a timeout, or
 * the caller died (and then the requests the cancelled handler made are cancelled in turn).
 */
export interface RequestOptions<Delta = unknown> {
  /** Abort scope; defaults to the scope of the request being handled (inside an actor). */
  scope?: string;
  /** Fails the request with REIKA_ERR_TIMEOUT and cancels it at the callee. */
  timeoutMs?: number;
  /** Receives each streamed `delta` before the final reply. */
  onDelta?: (delta: Delta) => void;
}

/**
 * Anything that can send a request to an actor: the supervisor, or a handler's context. Call
 * sites use a {@link Client} (runtime/actor.ts), which also narrows the reply to the request.
 */
export interface Router {
  request<P extends AnyProtocol>(to: ActorAddress<P>, body: P['request'], options?: RequestOptions<DeltaOf<P>>): Promise<ReplyOf<P>>;
}

interface Call {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onDelta?: (delta: unknown) => void;
  timer?: NodeJS.Timeout;
}

/**
 * Outgoing requests waiting for their reply: correlation, streamed deltas and timeouts. Used by
 * the supervisor for its own requests and by every actor host.
 */
export class CallTable {
  private readonly calls = new Map<string, Call>();

  /**
   * Registers call `id`. `giveUp` is called when the caller stops waiting on its own (its
   * timeout), so the transport can tell the callee to cancel.
   */
  start<R>(id: string, options: RequestOptions<never>, giveUp: (id: string) => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const call: Call = { resolve: resolve as (value: unknown) => void, reject, onDelta: options.onDelta as ((delta: unknown) => void) | undefined };
      if (options.timeoutMs && options.timeoutMs > 0) {
        call.timer = setTimeout(() => {
          this.settle(id, undefined, new ReikaError('REIKA_ERR_TIMEOUT', `no reply within ${options.timeoutMs} ms`, { retryable: true }));
          giveUp(id);
        }, options.timeoutMs);
      }
      this.calls.set(id, call);
    });
  }

  /** Feeds a reply envelope; returns false when no call waits for it. */
  deliver(message: Envelope): boolean {
    if (message.type !== 'delta' && message.type !== 'end' && message.type !== 'fail') return false;
    const call = this.calls.get(message.id);
    if (!call) return false;
    if (message.type === 'delta') call.onDelta?.(message.body);
    else if (message.type === 'end') this.settle(message.id, message.body);
    else this.settle(message.id, undefined, fromErrorRecord(message.error));
    return true;
  }

  /** Settles a call with a value or an error; unknown ids are ignored. */
  settle(id: string, value: unknown, error?: unknown): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    clearTimeout(call.timer);
    if (error !== undefined) call.reject(error);
    else call.resolve(value);
  }

  has(id: string): boolean {
    return this.calls.has(id);
  }

  /** Fails every waiting call (the transport is gone). */
  failAll(error: ReikaError): void {
    for (const id of [...this.calls.keys()]) this.settle(id, undefined, error);
  }

  get size(): number {
    return this.calls.size;
  }
}
