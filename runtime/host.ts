import { setMaxListeners } from 'node:events';
import { nanoid } from 'nanoid';
import type { ActorDefinition, RequestContext } from './actor.js';
import { CallTable, type RequestOptions, type Router } from './calls.js';
import type { Envelope, RequestEnvelope } from './envelope.js';
import { cancelledError, ReikaError, toErrorRecord } from './errors.js';
import type { HostPort } from './transport.js';
import { RecentSet } from './recent-set.js';

interface InFlight {
  controller: AbortController;
  scope: string | undefined;
  /** Requests this handler made that wait for their reply. */
  children: Set<string>;
}

/**
 * Runs an actor definition behind a port: dispatches requests to the handler with an
 * AbortSignal each, streams deltas, routes the actor's own requests through the supervisor, and
 * turns `abort`/`cancel` messages into aborted signals.
 *
 * A handler's requests inherit its scope, so the scope's one abort reaches them through the
 * supervisor: the host never sends a second cancel for them. Only when the handler itself is
 * cancelled alone (its caller timed out or died, a `cancel` message) does the host cancel the
 * requests it made, which no scope abort would reach.
 */
export async function runHost(
  port: HostPort,
  name: string,
  definition: ActorDefinition,
  options: unknown,
  exit: () => void,
): Promise<void> {
  const inFlight = new Map<string, InFlight>();
  const calls = new CallTable();
  const abortedScopes = new RecentSet<string>(1024);
  let closing = false;

  const cancel = (id: string) => port.post({ type: 'cancel', id });
  const send = <R>(to: string, body: unknown, requestOptions: RequestOptions<never> = {}, parent?: InFlight): Promise<R> => {
    const id = nanoid();
    const scope = requestOptions.scope;
    if (scope !== undefined && abortedScopes.has(scope)) return Promise.reject(cancelledError('its turn was aborted already'));
    const promise = calls.start<R>(id, requestOptions, cancel);
    port.post({ type: 'request', id, from: name, to, scope, body });
    if (!parent) return promise;
    parent.children.add(id);
    const done = () => parent.children.delete(id);
    promise.then(done, done);
    return promise;
  };
  const router: Router = { request: (to, body, requestOptions) => send(to, body, requestOptions) };

  const shutdown = async () => {
    if (closing) return;
    closing = true;
    for (const work of inFlight.values()) work.controller.abort('shutting down');
    calls.failAll(new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down'));
    try {
      await definition.dispose?.();
    } finally {
      exit();
    }
  };

  const handle = async (message: RequestEnvelope) => {
    const controller = new AbortController();
    // A handler may have many requests in flight, each listening to this signal.
    setMaxListeners(0, controller.signal);
    if (message.scope !== undefined && abortedScopes.has(message.scope)) controller.abort('its turn was aborted already');
    const work: InFlight = { controller, scope: message.scope, children: new Set() };
    inFlight.set(message.id, work);
    const context: RequestContext = {
      id: message.id,
      from: message.from,
      scope: message.scope,
      signal: controller.signal,
      emit: (delta) => {
        if (inFlight.has(message.id)) port.post({ type: 'delta', id: message.id, body: delta });
      },
      request: (to, body, requestOptions = {}) => send(to, body, { scope: message.scope, ...requestOptions }, work),
    };
    try {
      // The body was checked against this actor's protocol by the caller's client.
      const reply = await definition.handle(message.body as { type: string }, context);
      if (inFlight.delete(message.id)) port.post({ type: 'end', id: message.id, body: reply });
    } catch (error) {
      if (!inFlight.delete(message.id)) return;
      const record = controller.signal.aborted ? cancelledError(String(controller.signal.reason ?? 'cancelled')).toRecord() : toErrorRecord(error);
      port.post({ type: 'fail', id: message.id, error: record });
    }
  };

  port.onMessage((message: Envelope) => {
    switch (message.type) {
      case 'request':
        if (!closing) void handle(message);
        return;
      case 'delta':
      case 'end':
      case 'fail':
        calls.deliver(message);
        return;
      case 'cancel': {
        const work = inFlight.get(message.id);
        if (!work) return;
        work.controller.abort('cancelled by the caller');
        for (const child of work.children) cancel(child);
        return;
      }
      case 'abort':
        abortedScopes.add(message.scope);
        for (const work of inFlight.values()) if (work.scope === message.scope) work.controller.abort(message.reason);
        return;
      case 'ping':
        port.post({ type: 'pong', seq: message.seq });
        return;
      case 'shutdown':
        void shutdown();
        return;
    }
  });
  port.onDisconnect(() => void shutdown());

  await definition.setup?.({ name, options, router, leaving: () => port.post({ type: 'going' }) });
  port.post({ type: 'ready' });
}

/** Loads an actor module and returns its default export. */
export async function loadDefinition(module: string): Promise<ActorDefinition> {
  const loaded = (await import(module)) as { default?: ActorDefinition };
  if (!loaded.default || typeof loaded.default.handle !== 'function') {
    throw new Error(`${module} does not export an actor definition as its default export`);
  }
  return loaded.default;
}
