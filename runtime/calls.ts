import type { ActorAddress, AnyProtocol, DeltaOf, ReplyOf } from './actor.js';
import type { Envelope } from './envelope.js';
import { cancelledError, fromErrorRecord, ReikaError } from './errors.js';

/** After a caller's signal aborts, how long it waits for the callee's own (cancelled) reply. */
export const CANCEL_GRACE_MS = 2_000;

/** Options for one request, the same whether the caller is the supervisor or an actor. */
export interface RequestOptions<Delta = unknown> {
  /** Abort scope; defaults to the scope of the request being handled (inside an actor). */
  scope?: string;
  /**
   * Cancels this one request: the callee is told at once and its own reply (usually a
   * `cancelled` result, as data) is still delivered; after CANCEL_GRACE_MS without one the call
   * rejects with REIKA_ERR_CANCELLED.
   */
  signal?: AbortSignal;
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
  scope?: string;
  cleanup(): void;
}

/**
 * Outgoing requests waiting for their reply: correlation, streamed deltas, timeouts and
 * cancellation. Used by the supervisor for its own requests and by every actor host.
 */
export class CallTable {
  private readonly calls = new Map<string, Call>();

  /**
   * Registers call `id`. `giveUp` is called when the caller stops waiting (timeout or signal), so
   * the transport can tell the callee to cancel.
   */
  start<R>(id: string, options: RequestOptions<any>, giveUp: (id: string) => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(cancelledError(abortReason(options.signal)));
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      let grace: NodeJS.Timeout | undefined;
      const onAbort = () => {
        giveUp(id);
        grace = setTimeout(() => this.settle(id, undefined, cancelledError(abortReason(options.signal!))), CANCEL_GRACE_MS);
        grace.unref();
      };
      if (options.timeoutMs && options.timeoutMs > 0) {
        timer = setTimeout(() => {
          this.settle(id, undefined, new ReikaError('REIKA_ERR_TIMEOUT', `no reply within ${options.timeoutMs} ms`, { retryable: true }));
          giveUp(id);
        }, options.timeoutMs);
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.calls.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        onDelta: options.onDelta,
        scope: options.scope,
        cleanup: () => {
          if (timer) clearTimeout(timer);
          if (grace) clearTimeout(grace);
          options.signal?.removeEventListener('abort', onAbort);
        },
      });
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
    call.cleanup();
    if (error !== undefined) call.reject(error);
    else call.resolve(value);
  }

  /** Ids of the calls in a scope. */
  inScope(scope: string): string[] {
    const ids: string[] = [];
    for (const [id, call] of this.calls) if (call.scope === scope) ids.push(id);
    return ids;
  }

  /** Fails every waiting call (the transport is gone). */
  failAll(error: ReikaError): void {
    for (const id of [...this.calls.keys()]) this.settle(id, undefined, error);
  }

  get size(): number {
    return this.calls.size;
  }
}

function abortReason(signal: AbortSignal): string {
  const reason = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return 'cancelled';
}
