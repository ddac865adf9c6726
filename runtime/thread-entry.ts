import { parentPort, workerData } from 'node:worker_threads';
import type { Envelope } from './envelope.js';
import { loadDefinition, runHost } from './host.js';

/** Entry point of a worker-thread actor. */
const { module, name, options } = workerData as { module: string; name: string; options: unknown };
const port = parentPort!;

const definition = await loadDefinition(module);
await runHost(
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
