import { actorAddress, type Protocol } from '../../runtime/actor.js';

// The editor's files (`reika acp` with an editor that offers ACP `fs`): the tool executor asks
// this actor, in the main process, for a project file's text or to write one, and it asks the
// editor, so the editor's unsaved buffers win.

/** Asked by the executor for a project file's text, or to write one, when the editor offers its files. */
export type EditorFilesRequest = { type: 'read'; path: string } | { type: 'write'; path: string; text: string };

export interface EditorFilesProtocol extends Protocol<EditorFilesRequest> {
  replies: {
    /** `text` undefined: the editor could not say (the disk is read instead). */
    read: { text?: string };
    write: { written: true };
  };
}

/** The editor's files (`reika acp`): an actor in the main process that asks the editor. */
export const EDITOR_FILES = actorAddress<EditorFilesProtocol>('editor-files');
