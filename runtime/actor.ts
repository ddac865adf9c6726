import type { RequestOptions, Router } from './calls.js';

/**
 * An actor's message contract: the request union it accepts (tagged by `type`), the reply of
 * each request type, and the deltas it may stream before a reply. Each actor's `protocol.ts`
 * exports one, e.g.
 *
 * ```ts
 * export interface ModelIoProtocol extends Protocol<ModelIoRequest> {
 *   replies: { chat: ChatReply; discover: DiscoverReply };
 *   delta: ModelEvent;
 * }
 * ```
 *
 * `replies` must name every request type (the `extends` fails to compile otherwise).
 */
export interface Protocol<Request extends { type: string } = { type: string }> {
  request: Request;
  replies: { [T in Request['type']]: unknown };
  delta?: unknown;
}

/** Any protocol, for constraints. */
export type AnyProtocol = Protocol;

/** The reply to request `R` (the union of replies when `R` is the whole request union). */
export type ReplyOf<P extends AnyProtocol, R extends P['request'] = P['request']> = P['replies'][R['type']];

/** What the actor streams before its reply (`never` when it streams nothing). */
export type DeltaOf<P extends AnyProtocol> = P extends { delta: infer D } ? D : never;

declare const protocolOf: unique symbol;

/**
 * An actor's name, typed with the protocol it speaks. Only an address reaches an actor: a bare
 * string does not compile as one, so a request is always checked against its callee's protocol.
 */
export type ActorAddress<P extends AnyProtocol> = string & { readonly [protocolOf]: P };

/** Names an actor that speaks `P`. Each actor's `protocol.ts` exports its address as a constant. */
export function actorAddress<P extends AnyProtocol>(name: string): ActorAddress<P> {
  return name as ActorAddress<P>;
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
  /**
   * Says this incarnation is about to end on its own (before it fails its last requests and exits):
   * the supervisor holds new requests for the next one, which gets them exactly once.
   */
  leaving(): void;
}

/**
 * An actor's code: a module whose default export is one of these. The same definition runs in a
 * worker thread, a child process or the main thread; it never knows which.
 */
export interface ActorDefinition<P extends AnyProtocol = AnyProtocol, Options = unknown> {
  setup?(context: SetupContext<Options>): void | Promise<void>;
  handle(request: P['request'], context: RequestContext<DeltaOf<P>>): ReplyOf<P> | Promise<ReplyOf<P>>;
  /** Runs at shutdown: release children, files, sockets. */
  dispose?(): void | Promise<void>;
}

export function defineActor<P extends AnyProtocol, Options = unknown>(definition: ActorDefinition<P, Options>): ActorDefinition<P, Options> {
  return definition;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * One call signature per request type, each answering its own reply, plus one for a body whose
 * type is only known as the union. Overloads (not a generic) so that an object literal gets
 * TypeScript's excess-property check: a misspelt field fails to compile.
 */
type Calls<P extends AnyProtocol> = UnionToIntersection<
  P['request'] extends infer R ? (R extends P['request'] ? (body: R, options?: RequestOptions<DeltaOf<P>>) => Promise<ReplyOf<P, R>> : never) : never
> &
  ((body: P['request'], options?: RequestOptions<DeltaOf<P>>) => Promise<ReplyOf<P>>);

/** The typed façade for requests to one actor: every call site goes through one of these. */
export interface Client<P extends AnyProtocol> {
  readonly address: ActorAddress<P>;
  readonly request: Calls<P>;
}

/** A client of the actor at `to`, sending through `router` (the supervisor, or a handler's context). */
export function client<P extends AnyProtocol>(router: Router, to: ActorAddress<P>): Client<P> {
  const request = (body: P['request'], options?: RequestOptions<DeltaOf<P>>) => router.request(to, body, options);
  return { address: to, request: request as Calls<P> };
}
