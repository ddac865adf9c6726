import { readFile, stat } from 'node:fs/promises';
import { defineTool } from './define-tool.js';
import { invalidArgs, path, string, type ArgsOf } from './params.js';
import { editDiff } from '../files/diff.js';
import { displayPath, isInsideProject, realPathOfNearest, resolveToolPath } from '../files/paths.js';
import type { PreparedCall } from '../prepared.js';
import { replaceFile } from '../files/replace-file.js';
import { decodeText, looksBinary } from '../files/text-file.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv } from './tool-env.js';

const MAX_EDIT_BYTES = 32 * 1024 * 1024;

const params = {
  path: path('File to change.', { required: true }),
  old_string: string('Exact text to replace, copied from the file.', { required: true }),
  new_string: string('Replacement text.', { required: true }),
};

/**
 * `edit{path, old_string, new_string}`: replaces exactly one occurrence. Zero or several matches
 * fail with EDIT_NO_MATCH / EDIT_MANY_MATCHES saying how many and on which lines. CRLF files accept
 * an LF `old_string`; a file that is not UTF-8 is edited byte-exactly as Latin-1.
 */
export const editTool = defineTool({
  name: 'edit',
  description: 'Replace exactly one occurrence of old_string with new_string in a file. old_string must match the file exactly (whitespace included) and only once; add surrounding lines to make it unique.',
  params,
  check: (args) => {
    if (args.old_string === '') throw invalidArgs('edit', '"old_string" must not be empty (use write to create a file)');
    if (args.old_string === args.new_string) throw invalidArgs('edit', '"old_string" and "new_string" are the same: nothing would change');
  },
  modes: { agent: {} },
  approval: 'flagged',
  exclusive: (args, root) => realPathOfNearest(resolveToolPath(root, args.path)),
  prepare: prepareEdit,
});

async function prepareEdit(args: ArgsOf<typeof params>, env: ToolEnv): Promise<PreparedCall> {
  const path = resolveToolPath(env.root, args.path);
  const shown = displayPath(env.root, path);
  const info = await stat(path).catch((error: unknown) => {
    const failure = fsError(error, shown);
    if (failure.code === 'NOT_FOUND') throw new ToolError('NOT_FOUND', `${shown} does not exist (use write to create a file)`);
    throw failure;
  });
  if (!info.isFile()) throw new ToolError('NOT_A_FILE', `${shown} is not a regular file`);
  if (info.size > MAX_EDIT_BYTES) throw new ToolError('NOT_A_FILE', `${shown} is too large to edit (over 32 MB)`);
  const bytes = await readFile(path).catch((error: unknown) => {
    throw fsError(error, shown);
  });
  if (looksBinary(bytes)) throw new ToolError('BINARY_FILE', `${shown} is a binary file; edit changes text files only`);
  const { text: before, encoding } = decodeText(bytes);
  if (encoding === 'latin1' && /[^\u0000-\u00ff]/.test(args.old_string + args.new_string)) {
    throw new ToolError('EDIT_NOT_UTF8', `${shown} is not UTF-8 (read as Latin-1); old_string and new_string may only use Latin-1 characters`);
  }

  let oldString = args.old_string;
  let newString = args.new_string;
  if (before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\r?\n/g, '\r\n');
  }
  const starts = occurrences(before, oldString);
  if (starts.length === 0) throw noMatch(shown, before, args.old_string);
  if (starts.length > 1) {
    const lines = starts.map((at) => lineOf(before, at));
    throw new ToolError(
      'EDIT_MANY_MATCHES',
      `old_string occurs ${starts.length} times in ${shown} (lines ${listLines(lines)}); include more surrounding lines so it matches exactly once`,
    );
  }
  const at = starts[0]!;
  const after = before.slice(0, at) + newString + before.slice(at + oldString.length);
  const { text: diff, line, removed, added } = editDiff(shown, before, after);
  const reasons = isInsideProject(env.root, path) ? [] : [`writes outside the project: ${path}`];

  return {
    action: { tool: 'edit', path, diff, reasons },
    run: async () => {
      // Approval can take a while: never overwrite a file that changed meanwhile.
      const now = await readFile(path).catch((error: unknown) => {
        throw fsError(error, shown);
      });
      if (!now.equals(bytes)) throw new ToolError('IO_ERROR', `${shown} changed since the edit was prepared; read it again and retry`);
      await replaceFile(path, encoding === 'latin1' ? Buffer.from(after, 'latin1') : after).catch((error: unknown) => {
        throw fsError(error, shown);
      });
      return {
        summary: `edited ${shown}: replaced ${plural(removed, 'line')} with ${added} at line ${line}`,
        payload: diff,
        meta: { path, diff },
      };
    },
  };
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

function listLines(lines: number[]): string {
  return lines.length <= 10 ? lines.join(', ') : `${lines.slice(0, 10).join(', ')}, …`;
}

/** The no-match error, with hints: a whitespace-only difference, or where the first line occurs. */
function noMatch(shown: string, text: string, oldString: string): ToolError {
  const hints: string[] = [];
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const wanted = squash(oldString);
  const fileLines = text.split('\n');
  const firstLine = oldString.split('\n').find((line) => line.trim() !== '')?.trim();
  if (wanted !== '') {
    const span = oldString.split('\n').length;
    for (let i = 0; i < fileLines.length && hints.length === 0; i++) {
      if (squash(fileLines.slice(i, i + span).join('\n')) === wanted) hints.push(`a match that differs only in whitespace starts at line ${i + 1}`);
    }
  }
  if (hints.length === 0 && firstLine) {
    const lines = fileLines.flatMap((line, i) => (line.includes(firstLine) ? [i + 1] : []));
    if (lines.length > 0) hints.push(`its first line occurs at line${lines.length > 1 ? 's' : ''} ${listLines(lines)}, but the following lines differ`);
  }
  const hint = hints.length > 0 ? `; ${hints[0]}` : '';
  return new ToolError('EDIT_NO_MATCH', `old_string was not found in ${shown}${hint}; read the file and copy the text exactly`);
}
