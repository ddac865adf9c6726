import type { RequestOptions, Router } from './calls.js';

/**
 * An actor's message contract: the request union it accepts, the reply it ends with and the
 * deltas it may stream before that. Each actor's `protocol.ts` exports one of these.
 */
export interface Protocol {
  request: unknown;
  reply: unknown;
  delta?: unknown;
}

/** What a handler gets for one request. */
export interface RequestContext<Delta = unknown> extends Router {
  /** Correlation id of the request being handled. */
  readonly id: string;
  /** The caller's address. */
  readonly from: string;
  readonly scope: string | undefined;
  /** Aborted when the scope is aborted or the caller cancels this request. */
  readonly signal: AbortSignal;
  /** Streams one delta to the caller before the final reply. */
  emit(delta: Delta): void;
}

/** What `setup` gets once per incarnation. */
export interface SetupContext<Options = unknown> {
  readonly name: string;
  readonly options: Options;
  readonly router: Router;
}

/**
 * An actor's code: a module whose default export is one of these. The same definition runs in a
 * worker thread, a child process or the main thread; it never knows which.
 */
export interface ActorDefinition<P extends Protocol = Protocol, Options = unknown> {
  setup?(context: SetupContext<Options>): void | Promise<void>;
  handle(request: P['request'], context: RequestContext<P['delta']>): P['reply'] | Promise<P['reply']>;
  /** Runs at shutdown: release children, files, sockets. */
  dispose?(): void | Promise<void>;
}

export function defineActor<P extends Protocol, Options = unknown>(definition: ActorDefinition<P, Options>): ActorDefinition<P, Options> {
  return definition;
}

/** A typed façade for requests to one actor. */
export interface Client<P extends Protocol> {
  request(body: P['request'], options?: RequestOptions & { onDelta?: (delta: P['delta']) => void }): Promise<P['reply']>;
}

export function client<P extends Protocol>(router: Router, to: string): Client<P> {
  return { request: (body, options) => router.request<P['reply']>(to, body, options) };
}
