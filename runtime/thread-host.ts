import { parentPort } from 'node:worker_threads';
import type { ActorDefinition } from './actor.js';
import type { Envelope } from './envelope.js';
import { runHost } from './host.js';

/**
 * Hosts an actor in this worker thread: its envelopes go over the thread's parent port, and the
 * thread exits when the host is done. Shared by the generic thread entry (`thread-entry.ts`, which
 * loads the actor's module first) and the model-io entry (`cli/model-io-entry.ts`, which imports
 * its actor statically so the build ships it as one CommonJS file, where no top-level await is
 * allowed: the caller does not wait for the returned promise).
 */
export function hostOnParentPort(name: string, definition: ActorDefinition, options: unknown): Promise<void> {
  const port = parentPort!;
  return runHost(
    {
      post: (message: Envelope) => port.postMessage(message),
      onMessage: (listener) => port.on('message', listener),
      onDisconnect: (listener) => port.on('close', listener),
    },
    name,
    definition,
    options,
    () => process.exit(0),
  );
}
