import { isAbsolute, resolve } from 'node:path';
import { onAbort } from '../../runtime/abort.js';
import type { ToolCall } from '../model-io/protocol.js';
import type { ToolResult } from '../tool-executor/protocol.js';

/**
 * What the agent loop needs of the language servers (`actors/lsp/diagnostics.ts`, bound to the
 * session's root): told before an edit or write runs, asked after it for the errors it
 * introduced. Either may take no longer than the session's budget; neither throws.
 */
export interface EditDiagnostics {
  before(path: string): Promise<void>;
  /** The lines to add to the result, or undefined. `created`: the file is new (a write). */
  after(path: string, created: boolean): Promise<string | undefined>;
}

/** The absolute path an edit or write call changes, or undefined for any other call. */
export function editedPath(call: ToolCall, root: string): string | undefined {
  if (call.name !== 'edit' && call.name !== 'write') return undefined;
  const path = call.arguments.path;
  if (typeof path !== 'string' || path.trim() === '') return undefined;
  return isAbsolute(path) ? path : resolve(root, path);
}

/**
 * The result of a finished edit or write with the errors it introduced: the first one in the
 * summary (which stays in the context), all of them (at most a few) in the payload.
 */
export async function withDiagnostics(result: ToolResult, call: ToolCall, path: string, diagnostics: EditDiagnostics, signal: AbortSignal): Promise<ToolResult> {
  if (result.status !== 'done' || signal.aborted) return result;
  // An abort does not wait for the server.
  let remove = () => {};
  const aborted = new Promise<undefined>((resolve) => (remove = onAbort(signal, () => resolve(undefined))));
  const lines = await Promise.race([diagnostics.after(path, call.name === 'write').catch(() => undefined), aborted]).finally(remove);
  if (!lines) return result;
  const errors = lines.split('\n').slice(1);
  const count = errors.filter((line) => !line.startsWith('… ')).length + Number(/^… and (\d+) more$/.exec(errors.at(-1) ?? '')?.[1] ?? 0);
  return {
    ...result,
    summary: `${result.summary}; ${count === 1 ? 'it introduced an error' : `it introduced ${count} errors`}: ${errors[0]}`,
    payload: `${result.payload}${result.payload ? '\n\n' : ''}${lines}`,
  };
}
