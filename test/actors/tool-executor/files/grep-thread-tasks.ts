import { threadId } from 'node:worker_threads';
import { grepFiles as realGrepFiles } from '../../../../workers/pool-entry.js';
import type { GrepFilesTask } from '../../../../actors/tool-executor/files/search/search-file.js';

/**
 * The indexer pool's `grepFiles` task as the threaded-search tests see it: each batch says on the
 * `reika-grep-threads` channel which thread took it and how many files it holds, then runs the
 * real task — except a batch holding a file named `spin-here`, which spins until its thread is
 * ended (what an abort must do to a batch that is running).
 */
export async function grepFiles(task: GrepFilesTask): Promise<unknown> {
  const channel = new BroadcastChannel('reika-grep-threads');
  const spin = task.files.some((file) => file.endsWith('/spin-here'));
  channel.postMessage({ threadId, files: task.files.length, spin });
  channel.close();
  if (spin) for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  return realGrepFiles(task);
}
