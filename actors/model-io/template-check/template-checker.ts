import { Worker } from 'node:worker_threads';
import type { ChatMessage, ToolSchema } from '../protocol.js';
import type { TemplateBreak } from './compare.js';
import type { TemplateProbe, TemplateSource } from './probe.js';

type CheckerCommand =
  | { type: 'template'; source: TemplateSource }
  | { type: 'probe' }
  | { type: 'render'; key: string; messages: ChatMessage[]; tools: ToolSchema[] }
  | { type: 'forget'; key: string };

export type CheckerRequest = CheckerCommand & { id: number };

export type CheckerReply =
  | { id: number; type: 'done' }
  | { id: number; type: 'probe'; probe: TemplateProbe }
  | { id: number; type: 'render'; chars: number; ms: number; break?: TemplateBreak }
  | { id: number; type: 'error'; message: string };

/** What rendering one request found. */
export interface RenderResult {
  /** Characters of the rendered prompt, and the worker's time to render and compare it. */
  chars: number;
  ms: number;
  break?: TemplateBreak;
}

type Pending = { resolve: (reply: CheckerReply) => void; reject: (error: Error) => void };

const workerModule = new URL('./render-worker.js', import.meta.url);

/**
 * The template check's main-thread side: one worker thread (render-worker.ts) that renders each
 * request of a sequence through the engine's chat template after it was sent, and says whether
 * the new prompt extends the previous one. Nothing waits for it: a request is sent first, then
 * its messages are posted here. An idle worker never holds the process open.
 */
export class TemplateChecker {
  private workerValue: Worker | undefined;
  private readonly source: TemplateSource;
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private closed = false;

  /** The worker thread starts at the first use, not with the checker. */
  constructor(source: TemplateSource) {
    this.source = source;
  }

  private get worker(): Worker {
    if (this.workerValue) return this.workerValue;
    const worker = new Worker(workerModule);
    this.workerValue = worker;
    worker.on('message', (reply: CheckerReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      // Idle, the worker never holds the process open; while a reply is awaited it does.
      if (this.pending.size === 0) worker.unref();
      waiting?.resolve(reply);
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => this.failAll(new Error('the template checker stopped')));
    // After the listeners: adding a 'message' listener refs the port again.
    worker.unref();
    const id = this.next++;
    this.pending.set(id, { resolve: () => {}, reject: () => {} });
    worker.ref();
    worker.postMessage({ type: 'template', source: this.source, id } satisfies CheckerRequest);
    return worker;
  }

  /** Where the template keeps the system prompt, and what it does to a recorded session. */
  async probe(): Promise<TemplateProbe> {
    const reply = await this.send({ type: 'probe' });
    if (reply.type !== 'probe') throw new Error(reply.type === 'error' ? reply.message : 'unexpected reply');
    return reply.probe;
  }

  /** Renders a sent request of sequence `key` and compares it with that sequence's previous one. */
  async render(key: string, messages: ChatMessage[], tools: ToolSchema[]): Promise<RenderResult> {
    const reply = await this.send({ type: 'render', key, messages, tools });
    if (reply.type === 'error') throw new Error(reply.message);
    if (reply.type !== 'render') throw new Error('unexpected reply');
    return { chars: reply.chars, ms: reply.ms, ...(reply.break ? { break: reply.break } : {}) };
  }

  /** A sequence that starts over (a new conversation, another system prompt). */
  forget(key: string): void {
    if (this.workerValue) void this.send({ type: 'forget', key }).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.workerValue?.terminate();
  }

  private send(request: CheckerCommand): Promise<CheckerReply> {
    if (this.closed) return Promise.reject(new Error('the template checker is closed'));
    const id = this.next++;
    return new Promise<CheckerReply>((resolve, reject) => {
      const worker = this.worker;
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
