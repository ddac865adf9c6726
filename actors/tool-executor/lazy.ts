/**
 * A module loaded on first use, once. Tool files are imported wherever the tools array is built
 * (the main thread, every subagent thread), so at their top they import only what the declaration
 * needs; what only running needs (the crawler, the shell parser, process groups) they load with
 * `lazy`, which happens in the executor on the tool's first call.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
