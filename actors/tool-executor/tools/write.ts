import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { defineTool } from './define-tool.js';
import { path, string, type ArgsOf } from './params.js';
import { creationDiff } from '../files/diff.js';
import { displayPath, isInsideProject, realPathOfNearest, resolveToolPath } from '../files/paths.js';
import type { PreparedCall } from '../prepared.js';
import { credentialAction } from '../safety/credential-paths.js';
import { protectedReason } from '../safety/protected-paths.js';
import { fsError, ToolError } from './tool-error.js';
import { formatBytes, plural, type ToolEnv } from './tool-env.js';

const params = {
  path: path('Path of the new file.', { required: true }),
  content: string('The whole file content.', { required: true }),
};

/** `write{path, content}`: creates a new file (and its folders); refuses to overwrite. */
export const writeTool = defineTool({
  name: 'write',
  description: 'Create a new file with the given content (folders are created). Refuses to overwrite an existing file: use edit for that.',
  params,
  modes: { agent: {} },
  approval: 'flagged',
  exclusive: (args, root) => realPathOfNearest(resolveToolPath(root, args.path)),
  prepare: prepareWrite,
});

async function prepareWrite(args: ArgsOf<typeof params>, env: ToolEnv): Promise<PreparedCall> {
  const path = resolveToolPath(env.root, args.path);
  const shown = displayPath(env.root, path);
  const existing = await lstat(path).catch(() => undefined);
  if (existing) {
    throw new ToolError(
      'WRITE_EXISTS',
      existing.isDirectory() ? `${shown} is an existing directory` : `${shown} already exists; write only creates new files (use edit to change it)`,
    );
  }
  const reasons = isInsideProject(env.root, path) ? [] : [`writes outside the project: ${path}`];
  const credential = credentialAction('write', 'writes', path);
  if (credential) reasons.push(...credential.reasons);
  const guarded = protectedReason(env.root, path);
  if (guarded) reasons.push(guarded);
  const diff = creationDiff(shown, args.content);
  return {
    action: { tool: 'write', path, diff, reasons },
    run: async () => {
      try {
        await mkdir(dirname(path), { recursive: true });
        // An editor hosting the session creates it (and opens it); else the disk, never over a file.
        if (!(await written(path, shown, args.content, env))) await writeFile(path, args.content, { flag: 'wx' });
      } catch (error) {
        if (ToolError.isInstance(error)) throw error;
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ToolError('WRITE_EXISTS', `${shown} already exists; write only creates new files (use edit to change it)`);
        throw fsError(error, shown);
      }
      const lines = args.content === '' ? 0 : args.content.split('\n').length - (args.content.endsWith('\n') ? 1 : 0);
      return {
        summary: `created ${shown} (${plural(lines, 'line')}, ${formatBytes(Buffer.byteLength(args.content))})`,
        payload: '',
        meta: { path, diff },
      };
    },
  };
}

/** Written through the editor when it offers its files: false when it does not take this one. */
async function written(path: string, shown: string, content: string, env: ToolEnv): Promise<boolean> {
  if (!env.files) return false;
  // Made a moment ago by someone else: the editor would overwrite it, the disk would refuse.
  if (await lstat(path).then(() => true, () => false)) throw new ToolError('WRITE_EXISTS', `${shown} already exists; write only creates new files (use edit to change it)`);
  try {
    return await env.files.write(path, content);
  } catch (error) {
    throw new ToolError('IO_ERROR', `the editor did not write ${shown}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
