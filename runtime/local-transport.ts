import type { ActorDefinition } from './actor.js';
import type { Envelope } from './envelope.js';
import { runHost } from './host.js';
import type { ExitInfo, Transport } from './transport.js';

/**
 * An actor in the main thread (the indexer pool's front, the approval prompt). Same host, same
 * envelopes; delivery is deferred to a microtask so callers never re-enter a handler.
 */
export class LocalTransport implements Transport {
  readonly kind = 'local' as const;
  private toActor: ((message: Envelope) => void) | undefined;
  private toSupervisor: ((message: Envelope) => void) | undefined;
  private exitListener: ((info: ExitInfo) => void) | undefined;
  private disconnect: (() => void) | undefined;
  private exited = false;
  private resolveExit!: () => void;
  private readonly exitPromise = new Promise<void>((resolve) => (this.resolveExit = resolve));

  constructor(name: string, definition: ActorDefinition, options: unknown) {
    runHost(
      {
        post: (message) => queueMicrotask(() => this.toSupervisor?.(message)),
        onMessage: (listener) => (this.toActor = listener),
        onDisconnect: (listener) => (this.disconnect = listener),
      },
      name,
      definition,
      options,
      () => this.finish({ code: 0, signal: null }),
    ).catch((error: unknown) => this.finish({ code: 1, signal: null, detail: error instanceof Error ? error.message : String(error) }));
  }

  send(message: Envelope): void {
    if (!this.exited) queueMicrotask(() => this.toActor?.(message));
  }

  onMessage(listener: (message: Envelope) => void): void {
    this.toSupervisor = listener;
  }

  onExit(listener: (info: ExitInfo) => void): void {
    this.exitListener = listener;
  }

  async terminate(): Promise<void> {
    if (!this.exited) this.disconnect?.();
    await this.exitPromise;
  }

  private finish(info: ExitInfo): void {
    if (this.exited) return;
    this.exited = true;
    this.resolveExit();
    this.exitListener?.(info);
  }
}
