import { workerData } from 'node:worker_threads';
import modelIo from '../actors/model-io/actor.js';
import type { ThreadWorkerData } from '../runtime/prespawn.js';
import { hostOnParentPort } from '../runtime/thread-host.js';

// The model-io thread as `reika` starts it first thing (`cli/main.ts`, `runtime/prespawn.ts`): the
// worker-thread host (`runtime/thread-entry.ts`) with the model-io actor imported statically, so
// that the build can ship it as one CommonJS file (`scripts/bundle.mjs`: `cli/model-io-entry.cjs`).
// A CommonJS worker boots without Node's ES module loader and reads one file, not a dozen chunks:
// the model-io thread is what the first request waits for. Its `workerData` is the host's; the
// `module` it names is this actor's.

const { name, options } = workerData as ThreadWorkerData;

void hostOnParentPort(name, modelIo, options);
