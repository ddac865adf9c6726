import { Worker } from 'node:worker_threads';
import type { Envelope } from './envelope.js';
import { adoptThread, THREAD_ENTRY, type ThreadWorkerData } from './prespawn.js';
import type { ActorSpec, ExitInfo, Transport } from './transport.js';

/** An actor in a worker thread; messages go by structured clone (measured faster than msgpackr buffers: see bench). */
export class ThreadTransport implements Transport {
  readonly kind = 'thread' as const;
  private readonly worker: Worker;
  private exitListener: ((info: ExitInfo) => void) | undefined;
  private lastError: string | undefined;
  private exited = false;
  /** How it ended, for a listener that comes after (a prestarted thread may end before it is adopted). */
  private exitInfo: ExitInfo | undefined;
  private readonly exitPromise: Promise<void>;

  /** Messages that came before anyone listened (from a prestarted thread). */
  private early: Envelope[] | undefined;
  private readonly messageListeners: ((message: Envelope) => void)[] = [];

  constructor(spec: ActorSpec) {
    const data: ThreadWorkerData = { module: String(spec.module), name: spec.name, options: spec.options };
    // The thread `reika` started for this actor before the runtime existed, if there is one (`prespawn.ts`).
    const prestarted = adoptThread(data);
    this.worker = prestarted?.worker ?? new Worker(THREAD_ENTRY, { workerData: data, stdout: false, stderr: false });
    const onError = (error: unknown) => {
      this.lastError = error instanceof Error ? (error.stack ?? error.message) : String(error);
    };
    let onExit!: (code: number) => void;
    this.exitPromise = new Promise((resolve) => {
      onExit = (code) => {
        if (this.exited) return;
        this.exited = true;
        this.exitInfo = { code, signal: null, detail: this.lastError };
        resolve();
        this.exitListener?.(this.exitInfo);
      };
    });
    const onMessage = (message: Envelope) => {
      if (this.messageListeners.length > 0) for (const listener of this.messageListeners) listener(message);
      else (this.early ??= []).push(message);
    };
    this.worker.on('error', onError).on('message', onMessage).once('exit', onExit);
    prestarted?.handOver({ message: (value) => onMessage(value as Envelope), error: onError, exit: onExit });
  }

  send(message: Envelope): void {
    if (!this.exited) this.worker.postMessage(message);
  }

  onMessage(listener: (message: Envelope) => void): void {
    this.messageListeners.push(listener);
    const early = this.early;
    this.early = undefined;
    for (const message of early ?? []) listener(message);
  }

  onExit(listener: (info: ExitInfo) => void): void {
    this.exitListener = listener;
    if (this.exitInfo) listener(this.exitInfo);
  }

  async terminate(): Promise<void> {
    if (!this.exited) await this.worker.terminate();
    await this.exitPromise;
  }
}
