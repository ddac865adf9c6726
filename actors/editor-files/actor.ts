import { defineActor, type ActorDefinition, type ReplyOf } from '../../runtime/actor.js';
import type { EditorFilesProtocol } from './protocol.js';

/** Answers one request through the editor (`cli/acp/`), with the request's signal. */
export type EditorFilesFn = (request: EditorFilesProtocol['request'], signal: AbortSignal) => Promise<ReplyOf<EditorFilesProtocol>>;

/** The editor's files as an actor the executor asks (`reika acp`). */
export function editorFilesActor(answer: EditorFilesFn): ActorDefinition<EditorFilesProtocol> {
  return defineActor<EditorFilesProtocol>({
    handle: (request, context) => answer(request, context.signal),
  });
}
