import { workerData } from 'node:worker_threads';
import { loadDefinition } from './host.js';
import type { ThreadWorkerData } from './prespawn.js';
import { hostOnParentPort } from './thread-host.js';

/** Entry point of a worker-thread actor. */
const { module, name, options } = workerData as ThreadWorkerData;

await hostOnParentPort(name, await loadDefinition(module), options);
