import { existsSync } from 'node:fs';

/**
 * The modules of the actors `reika` runs in threads and processes of their own, in one place: the
 * runtime spawns them (`start-runtime.ts`), and `main.ts` starts the model-io thread before the
 * runtime is even loaded (`runtime/prespawn.ts`), which only works if both name the same file.
 */
export const MODEL_IO_MODULE = new URL('../actors/model-io/actor.js', import.meta.url);
export const TOOL_EXECUTOR_MODULE = new URL('../actors/tool-executor/actor.js', import.meta.url);
export const INDEXER_MODULE = new URL('../actors/indexer/actor.js', import.meta.url);

/**
 * The file the model-io thread starts from: in what ships, one CommonJS file bundled from
 * `model-io-entry.ts` (scripts/bundle.mjs), beside this module; in tsc's output (none there) the
 * generic host, `runtime/thread-entry.js`, loading MODEL_IO_MODULE.
 */
export function modelIoEntry(): URL | undefined {
  const bundled = new URL('./model-io-entry.cjs', import.meta.url);
  return existsSync(bundled) ? bundled : undefined;
}
