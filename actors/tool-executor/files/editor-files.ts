import { isInsideProject } from './paths.js';
import type { ToolContext } from '../protocol.js';
import type { EditorFilesRequest } from '../../editor-files/protocol.js';

/**
 * Project files through the editor that hosts the session (`reika acp` with an editor offering
 * ACP `fs`): read, edit and write take a file's text from it — an unsaved buffer wins over the
 * disk — and give it the new text, which it saves. Only files inside the project go this way;
 * approvals, protected paths and checkpoints are decided before, as for the disk.
 */
export interface TextFiles {
  /** The file's text as the editor has it, or undefined (not offered, outside the project, or the editor could not say): read the disk. */
  read(path: string): Promise<string | undefined>;
  /** Writes through the editor; false when it does not take this file (write the disk). */
  write(path: string, text: string): Promise<boolean>;
}

/** The editor's files for one call, or undefined when its context offers none. */
export function editorFiles(context: ToolContext, send: <R extends EditorFilesRequest>(request: R) => Promise<unknown>): TextFiles | undefined {
  const offered = context.editorFiles;
  if (!offered || (!offered.read && !offered.write)) return undefined;
  const inside = (path: string) => isInsideProject(context.root, path);
  return {
    async read(path) {
      if (!offered.read || !inside(path)) return undefined;
      const reply = (await send({ type: 'read', path }).catch(() => undefined)) as { text?: string } | undefined;
      return typeof reply?.text === 'string' ? reply.text : undefined;
    },
    async write(path, text) {
      if (!offered.write || !inside(path)) return false;
      await send({ type: 'write', path, text });
      return true;
    },
  };
}
