import { EventEmitter } from 'node:events';
import { nanoid } from 'nanoid';
import type { ActorAddress, ActorDefinition, AnyProtocol, DeltaOf, ReplyOf } from './actor.js';
import { CallTable, type RequestOptions, type Router } from './calls.js';
import { systemClock, type Clock } from './clock.js';
import type { Envelope, RequestEnvelope } from './envelope.js';
import { cancelledError, ReikaError } from './errors.js';
import { LocalTransport } from './local-transport.js';
import { ProcessTransport } from './process-transport.js';
import { RecentSet } from './recent-set.js';
import { ThreadTransport } from './thread-transport.js';
import type { ActorSpec, ExitInfo, Transport } from './transport.js';

/** The supervisor's own address, used as `from` of its requests. */
export const SUPERVISOR = 'supervisor';

/** Crash-loop rule: this many deaths within the window stop the restarts. */
export const CRASH_LOOP_DEATHS = 5;
export const CRASH_LOOP_WINDOW_MS = 10_000;
const BACKOFF_BASE_MS = 25;
const BACKOFF_MAX_MS = 2_000;
/**
 * After an abort, how long the scope's requests may take to end with their own (cancelled)
 * reply. Past it, every request of the scope still open fails as cancelled to its caller, at any
 * depth, and a late reply is dropped. The one grace timer of an abort; a callee that keeps
 * working past it is a bug (a hung one is the heartbeat's).
 */
export const ABORT_GRACE_MS = 5_000;

type SlotState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

interface Slot {
  spec: ActorSpec | { name: string; kind: 'local'; definition: ActorDefinition; options?: unknown; restart?: boolean };
  state: SlotState;
  transport?: Transport;
  queue: Envelope[];
  deaths: number[];
  ready?: { promise: Promise<void>; resolve(): void; reject(error: unknown): void };
  /** Stops the heartbeat of the current incarnation. */
  heartbeat?: () => void;
  restartTimer?: NodeJS.Timeout;
  /** Set when the heartbeat killed the current incarnation: how long it had been silent. */
  hungFor?: number;
}

interface Route {
  caller: string;
  callee: string;
  scope: string | undefined;
}

export interface ActorExitEvent {
  name: string;
  info: ExitInfo;
  /** What the supervisor does next. */
  next: 'restart' | 'stop' | 'crash-loop';
}

/**
 * Routes envelopes between actors by name, supervises their threads and processes, and fans
 * one abort per scope out to every actor holding work for it.
 *
 * Events: `exit` (ActorExitEvent), `crash-loop` (name, message), `log` (name, text).
 */
export interface SupervisorOptions {
  /** Tests pass a clock they advance by hand (crash-loop window, heartbeat ticks, abort grace). */
  clock?: Clock;
  /** Sees every envelope the supervisor hands to an actor (tests count abort and cancel messages). */
  onDeliver?: (to: string, message: Envelope) => void;
}

export class Supervisor extends EventEmitter implements Router {
  private readonly clock: Clock;
  private readonly onDeliver: SupervisorOptions['onDeliver'];
  private readonly slots = new Map<string, Slot>();
  private readonly routes = new Map<string, Route>();
  private readonly calls = new CallTable();
  private readonly abortedScopes = new RecentSet<string>(4096);
  private closed = false;
  /** Pending abort graces, cleared on close. */
  private readonly graces = new Set<() => void>();

  constructor(options: SupervisorOptions = {}) {
    super();
    this.clock = options.clock ?? systemClock;
    this.onDeliver = options.onDeliver;
  }

  /** Starts an actor in a worker thread or a child process; resolves when it is ready. */
  spawn(spec: ActorSpec): Promise<void> {
    return this.add({ spec, state: 'starting', queue: [], deaths: [] });
  }

  /** Runs an actor definition in the main thread under the same protocol. */
  register<P extends AnyProtocol, Options>(name: ActorAddress<P>, definition: ActorDefinition<P, Options>, options?: Options): Promise<void> {
    return this.add({ spec: { name, kind: 'local', definition, options, restart: true }, state: 'starting', queue: [], deaths: [] });
  }

  has(name: string): boolean {
    const slot = this.slots.get(name);
    return slot !== undefined && slot.state !== 'stopped';
  }

  /** The process id of a process actor's current incarnation. */
  pidOf(name: string): number | undefined {
    return this.slots.get(name)?.transport?.pid;
  }

  /** Stops one actor for good (e.g. a subagent whose wave ended). */
  async stop(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    slot.state = 'stopped';
    slot.heartbeat?.();
    clearTimeout(slot.restartTimer);
    slot.ready?.reject(new ReikaError('REIKA_ERR_CLOSED', `${titleOf(slot.spec)} was stopped`));
    await slot.transport?.terminate();
  }

  request<P extends AnyProtocol>(to: ActorAddress<P>, body: P['request'], options?: RequestOptions<DeltaOf<P>>): Promise<ReplyOf<P>>;
  request(to: string, body: unknown, options: RequestOptions<never> = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down'));
    if (options.scope !== undefined && this.abortedScopes.has(options.scope)) {
      return Promise.reject(cancelledError('its turn was aborted already'));
    }
    const id = nanoid();
    const promise = this.calls.start(id, options, (gone) => this.cancelRoute(gone));
    this.route({ type: 'request', id, from: SUPERVISOR, to, scope: options.scope, body }, SUPERVISOR);
    return promise;
  }

  /**
   * Aborts a scope: one `abort` message to each actor holding work for it (the supervisor's
   * requests and every request actors made on its behalf, to any depth). This is the only
   * cancel a turn's work gets. Requests of the scope made later are refused at once.
   */
  abort(scope: string, reason = 'aborted'): void {
    if (this.abortedScopes.has(scope)) return;
    this.abortedScopes.add(scope);
    // A request of the scope still queued for a starting actor never runs: it is answered here.
    for (const slot of this.slots.values()) {
      const dropped: string[] = [];
      slot.queue = slot.queue.filter((envelope) => envelope.type !== 'request' || envelope.scope !== scope || (dropped.push(envelope.id), false));
      for (const id of dropped) this.reply({ type: 'fail', id, error: cancelledError(reason).toRecord() });
    }
    const open: string[] = [];
    const callees = new Set<string>();
    for (const [id, route] of this.routes) {
      if (route.scope !== scope) continue;
      open.push(id);
      callees.add(route.callee);
    }
    for (const name of callees) this.deliver(name, { type: 'abort', scope, reason });
    if (open.length === 0) return;
    const stop = this.clock.after(ABORT_GRACE_MS, () => {
      this.graces.delete(stop);
      for (const id of open) if (this.routes.has(id)) this.reply({ type: 'fail', id, error: cancelledError(reason).toRecord() });
    });
    this.graces.add(stop);
  }

  /** Ends every actor; nothing keeps running afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.graces) stop();
    this.calls.failAll(new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down'));
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(
      slots.map(async (slot) => {
        slot.state = 'stopped';
        slot.heartbeat?.();
        clearTimeout(slot.restartTimer);
        slot.ready?.reject(new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down'));
        await slot.transport?.terminate();
      }),
    );
  }

  private add(slot: Slot): Promise<void> {
    const name = slot.spec.name;
    if (this.closed) return Promise.reject(new ReikaError('REIKA_ERR_CLOSED', 'reika is shutting down'));
    if (this.slots.has(name)) return Promise.reject(new Error(`an actor named ${name} already exists`));
    this.slots.set(name, slot);
    const ready = this.start(slot);
    ready.catch(() => {});
    return ready;
  }

  private start(slot: Slot): Promise<void> {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    slot.ready = { promise, resolve, reject };
    const spec = slot.spec;
    const transport: Transport =
      spec.kind === 'local'
        ? new LocalTransport(spec.name, spec.definition, spec.options)
        : spec.kind === 'thread'
          ? new ThreadTransport(spec)
          : new ProcessTransport(spec, (text) => this.emit('log', spec.name, text));
    slot.transport = transport;
    transport.onMessage((message) => this.onActorMessage(slot, transport, message));
    transport.onExit((info) => this.onActorExit(slot, transport, info));
    if ('heartbeatMs' in spec && spec.heartbeatMs) this.watch(slot, transport, spec.heartbeatMs, spec.hangAfterMs ?? spec.heartbeatMs * 3);
    return promise;
  }

  /**
   * The heartbeat of one incarnation: while it is ready, a ping per tick, the next one only once
   * the last was answered. A ping left unanswered for `hangAfterMs` worth of ticks means the
   * actor is hung: it is killed (and restarted like a crash). Ticks are counted, not wall time, so
   * a main thread that was itself stalled, or an actor slow to start, is never taken for a hang.
   */
  private watch(slot: Slot, transport: Transport, everyMs: number, hangAfterMs: number): void {
    const misses = Math.max(1, Math.ceil(hangAfterMs / everyMs));
    let seq = 0;
    let waiting: number | undefined;
    let silentTicks = 0;
    transport.onMessage((message) => {
      if (message.type === 'pong' && message.seq === waiting) waiting = undefined;
    });
    const stop = this.clock.every(everyMs, () => {
      if (slot.transport !== transport) return stop();
      if (slot.state !== 'ready') return;
      if (waiting === undefined) {
        waiting = ++seq;
        silentTicks = 0;
        transport.send({ type: 'ping', seq: waiting });
        return;
      }
      if (++silentTicks < misses) return;
      stop();
      slot.hungFor = silentTicks * everyMs;
      this.emit('log', slot.spec.name, `no answer to a heartbeat for ${slot.hungFor} ms: restarting\n`);
      void transport.terminate(true);
    });
    slot.heartbeat = stop;
  }

  private onActorMessage(slot: Slot, transport: Transport, message: Envelope): void {
    if (slot.transport !== transport) return;
    switch (message.type) {
      case 'ready': {
        slot.state = 'ready';
        const queued = slot.queue;
        slot.queue = [];
        for (const envelope of queued) {
          // A request whose caller was answered meanwhile (cancelled, failed) never runs late.
          if (envelope.type === 'request' && this.routes.get(envelope.id)?.callee !== slot.spec.name) continue;
          transport.send(envelope);
        }
        slot.ready?.resolve();
        return;
      }
      case 'going':
        // Requests from now on are queued for the next incarnation (see onActorExit).
        if (slot.state === 'ready') slot.state = 'restarting';
        return;
      case 'request':
        this.route(message, slot.spec.name);
        return;
      case 'delta':
      case 'end':
      case 'fail':
        this.reply(message);
        return;
      case 'cancel':
        this.cancelRoute(message.id);
        return;
      default:
        return;
    }
  }

  private route(message: RequestEnvelope, caller: string): void {
    const fail = (error: ReikaError) => this.reply({ type: 'fail', id: message.id, error: error.toRecord() }, caller);
    if (message.scope !== undefined && this.abortedScopes.has(message.scope)) {
      return fail(cancelledError('its turn was aborted already'));
    }
    const slot = this.slots.get(message.to);
    if (!slot) return fail(new ReikaError('REIKA_ERR_NO_SUCH_ACTOR', `no actor is named ${message.to}`));
    if (slot.state === 'failed') return fail(crashLoopError(slot.spec));
    this.routes.set(message.id, { caller, callee: message.to, scope: message.scope });
    this.deliver(message.to, message);
  }

  /** Sends a reply to whoever made the request; `caller` is given when no route exists yet. */
  private reply(message: Envelope & { id: string }, caller?: string): void {
    const route = this.routes.get(message.id);
    const to = route?.caller ?? caller;
    if (to === undefined) return;
    if (message.type === 'end' || message.type === 'fail') this.routes.delete(message.id);
    if (to === SUPERVISOR) this.calls.deliver(message);
    else this.deliver(to, message);
  }

  /**
   * Cancels one request at its callee: its caller timed out, or was itself cancelled alone and
   * passes it on. The route stays, so the callee's own (cancelled) reply still reaches a caller
   * that waits for it. A request still queued for a starting callee never runs: it is taken out
   * and answered as cancelled here.
   */
  private cancelRoute(id: string): void {
    const route = this.routes.get(id);
    if (!route) return;
    const slot = this.slots.get(route.callee);
    const queued = slot?.queue.findIndex((envelope) => envelope.type === 'request' && envelope.id === id) ?? -1;
    if (queued < 0) return this.deliver(route.callee, { type: 'cancel', id });
    slot!.queue.splice(queued, 1);
    this.reply({ type: 'fail', id, error: cancelledError('cancelled by the caller').toRecord() });
  }

  private deliver(name: string, message: Envelope): void {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.onDeliver?.(name, message);
    if (slot.state === 'ready') slot.transport!.send(message);
    else if (slot.state === 'starting' || slot.state === 'restarting') slot.queue.push(message);
  }

  private onActorExit(slot: Slot, transport: Transport, info: ExitInfo): void {
    if (slot.transport !== transport) return;
    slot.heartbeat?.();
    const name = slot.spec.name;
    // Every request the actor held fails now; every request it made is cancelled at its callee.
    // Requests still queued never reached it: they wait for the next incarnation (exactly once).
    const detail = slot.hungFor !== undefined ? `stopped answering for ${(slot.hungFor / 1000).toFixed(1)} s and was restarted` : describeExit(info);
    slot.hungFor = undefined;
    const queued = new Set(slot.queue.flatMap((envelope) => (envelope.type === 'request' ? [envelope.id] : [])));
    for (const [id, route] of [...this.routes]) {
      if (route.callee === name && !queued.has(id)) {
        const error = new ReikaError('REIKA_ERR_ACTOR_CRASHED', `${titleOf(slot.spec)} ${detail}`, { retryable: true });
        this.reply({ type: 'fail', id, error: error.toRecord() });
      } else if (route.caller === name) {
        this.routes.delete(id);
        this.deliver(route.callee, { type: 'cancel', id });
      }
    }
    if (this.closed || slot.state === 'stopped') return;
    if (slot.state === 'starting' && slot.deaths.length === 0 && info.code !== 0) {
      // It never came up: a broken module, not a crash to retry forever.
      slot.ready?.reject(new ReikaError('REIKA_ERR_ACTOR_FAILED', `${titleOf(slot.spec)} failed to start: ${info.detail ?? detail}`));
    }
    const now = this.clock.now();
    slot.deaths = slot.deaths.filter((t) => now - t < CRASH_LOOP_WINDOW_MS);
    slot.deaths.push(now);
    const restart = slot.spec.restart !== false;
    let next: ActorExitEvent['next'] = restart ? 'restart' : 'stop';
    if (restart && slot.deaths.length >= CRASH_LOOP_DEATHS) next = 'crash-loop';
    this.emit('exit', { name, info, next } satisfies ActorExitEvent);
    if (next !== 'restart') {
      slot.state = next === 'crash-loop' ? 'failed' : 'stopped';
      const error = next === 'crash-loop' ? crashLoopError(slot.spec) : new ReikaError('REIKA_ERR_ACTOR_CRASHED', `${titleOf(slot.spec)} ${detail}`);
      for (const queued of slot.queue) if (queued.type === 'request') this.reply({ type: 'fail', id: queued.id, error: error.toRecord() });
      slot.queue = [];
      if (next === 'crash-loop') this.emit('crash-loop', name, error.message);
      else this.slots.delete(name);
      return;
    }
    slot.state = 'restarting';
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (slot.deaths.length - 1));
    slot.restartTimer = setTimeout(() => {
      if (this.closed || slot.state !== 'restarting') return;
      this.start(slot).catch(() => {});
    }, delay);
  }
}

function describeExit(info: ExitInfo): string {
  if (info.signal) return `was killed by ${info.signal}`;
  if (info.detail) return `crashed (exit code ${info.code}): ${lastLine(info.detail)}`;
  return `exited with code ${info.code}`;
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  const first = lines.find((line) => /Error|error:/.test(line)) ?? lines[lines.length - 1] ?? '';
  return first.trim().slice(0, 300);
}

/** How errors name an actor: its title, or `the NAME actor`. */
function titleOf(spec: { name: string; title?: string }): string {
  return spec.title ?? `the ${spec.name} actor`;
}

function crashLoopError(spec: { name: string; title?: string }): ReikaError {
  return new ReikaError(
    'REIKA_ERR_ACTOR_FAILED',
    `${titleOf(spec)} crashed ${CRASH_LOOP_DEATHS} times within ${CRASH_LOOP_WINDOW_MS / 1000} s; it is not restarted again`,
  );
}
