import { Worker } from 'node:worker_threads';

// A worker thread started before the runtime that will own it: `reika` starts the model-io
// thread as its first statement (`cli/main.ts`), so the thread boots while the main thread is
// still loading the CLI, the config and the runtime, and the supervisor's `spawn` of that actor
// adopts it (`ThreadTransport`) instead of starting another.
//
// Until it is adopted the thread does not keep the process alive (a run that stops early, on a
// usage error, just exits), and what it says — messages, an error, its exit — is held for the
// transport that adopts it.

/** The thread's file (the host of every worker-thread actor). */
export const THREAD_ENTRY = new URL('./thread-entry.js', import.meta.url);

/** What a worker-thread actor's host is given (`thread-entry.ts`). */
export interface ThreadWorkerData {
  module: string;
  name: string;
  options: unknown;
}

type Held = { type: 'message'; value: unknown } | { type: 'error'; value: unknown } | { type: 'exit'; value: number };

/** A started thread and what it said before it was adopted. */
export interface PrespawnedThread {
  worker: Worker;
  /** Replays what was held to the new owner's listeners, then stops holding. */
  handOver(listeners: { message(value: unknown): void; error(value: unknown): void; exit(code: number): void }): void;
}

const waiting = new Map<string, { thread: PrespawnedThread; data: ThreadWorkerData }>();

/**
 * Starts the host thread of actor `name` (its `module`, no options) unless it is started already;
 * returns its thread id. `entry`: a file that hosts that very actor the way `thread-entry.ts` hosts
 * `module` (model-io's ships as one CommonJS file, `cli/model-io-entry.ts`); default the generic host.
 */
export function prespawnThread(name: string, module: URL | string, entry: URL = THREAD_ENTRY): number {
  const started = waiting.get(name);
  if (started) return started.thread.worker.threadId;
  const data: ThreadWorkerData = { module: String(module), name, options: undefined };
  const worker = new Worker(entry, { workerData: data, stdout: false, stderr: false });
  const held: Held[] = [];
  const hold = {
    message: (value: unknown) => held.push({ type: 'message', value }),
    error: (value: unknown) => held.push({ type: 'error', value }),
    exit: (value: number) => held.push({ type: 'exit', value }),
  };
  worker.on('message', hold.message).on('error', hold.error).on('exit', hold.exit);
  // After the listeners: a 'message' listener refs the thread again.
  worker.unref();
  const thread: PrespawnedThread = {
    worker,
    handOver(listeners) {
      worker.off('message', hold.message).off('error', hold.error).off('exit', hold.exit);
      worker.ref();
      for (const event of held) {
        if (event.type === 'message') listeners.message(event.value);
        else if (event.type === 'error') listeners.error(event.value);
        else listeners.exit(event.value);
      }
      held.length = 0;
    },
  };
  waiting.set(name, { thread, data });
  return worker.threadId;
}

/**
 * The thread started for this very actor (same name, module and options), handed over once;
 * undefined when there is none (the transport starts its own).
 */
export function adoptThread(data: ThreadWorkerData): PrespawnedThread | undefined {
  const found = waiting.get(data.name);
  if (!found || found.data.module !== data.module || data.options !== undefined) return undefined;
  waiting.delete(data.name);
  return found.thread;
}

/** Ends the threads nobody adopted. */
export async function discardPrespawned(): Promise<void> {
  const threads = [...waiting.values()];
  waiting.clear();
  await Promise.all(threads.map(({ thread }) => thread.worker.terminate()));
}
