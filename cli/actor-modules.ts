/**
 * The modules of the actors `reika` runs in threads and processes of their own, in one place: the
 * runtime spawns them (`start-runtime.ts`), and `main.ts` starts the model-io thread before the
 * runtime is even loaded (`runtime/prespawn.ts`), which only works if both name the same file.
 */
export const MODEL_IO_MODULE = new URL('../actors/model-io/actor.js', import.meta.url);
export const TOOL_EXECUTOR_MODULE = new URL('../actors/tool-executor/actor.js', import.meta.url);
export const INDEXER_MODULE = new URL('../actors/indexer/actor.js', import.meta.url);
