import { readFile, stat } from 'node:fs/promises';
import { defineTool } from './define-tool.js';
import { boolean, invalidArgs, list, path, string, type ArgsOf } from './params.js';
import { ChangedSpans } from '../files/changed-spans.js';
import { editDiff, spansDiff, type EditDiff } from '../files/diff.js';
import { displayPath, isInsideProject, realPathOfNearest, resolveToolPath } from '../files/paths.js';
import type { PreparedCall } from '../prepared.js';
import { credentialAction } from '../safety/credential-paths.js';
import { protectedReason } from '../safety/protected-paths.js';
import { replaceFile } from '../files/replace-file.js';
import { decodeText, looksBinary } from '../files/text-file.js';
import { fsError, ToolError } from './tool-error.js';
import { plural, type ToolEnv } from './tool-env.js';

const MAX_EDIT_BYTES = 32 * 1024 * 1024;

const replacement = {
  old_string: string('Exact text to replace.', { required: true }),
  new_string: string('Replacement text.', { required: true }),
  replace_all: boolean('Replace every occurrence instead of exactly one.'),
};

const params = {
  path: path('File to change.', { required: true }),
  old_string: string('Exact text to replace, copied from the file.', { required: false }),
  new_string: string('Replacement text.', { required: false }),
  edits: list(
    'Several replacements in this one file instead of old_string/new_string, applied in order, each to the text as the previous ones left it; all are made or none.',
    replacement,
    { required: false, max: 100 },
  ),
};

type EditArgs = ArgsOf<typeof params>;

/** One replacement: a lone edit, or one of `edits`. */
interface Replacement {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * `edit{path, old_string, new_string}`: replaces exactly one occurrence. Zero or several matches
 * fail with EDIT_NO_MATCH / EDIT_MANY_MATCHES saying how many and on which lines. CRLF files accept
 * an LF `old_string`; a file that is not UTF-8 is edited byte-exactly as Latin-1.
 *
 * `edit{path, edits: [{old_string, new_string, replace_all?}]}`: several replacements applied in
 * order, each to the text as the ones before it left it, then written at once (one checkpoint,
 * one diff). All or none: if one fails nothing is written, and the error names which one and why.
 */
export const editTool = defineTool({
  name: 'edit',
  description:
    'Replace exactly one occurrence of old_string with new_string in a file. old_string must match the file exactly (whitespace included) and only once; add surrounding lines to make it unique. For several changes to one file, pass edits: [{old_string, new_string, replace_all?}] instead (applied in order; all or none).',
  params,
  check: (args) => {
    if (args.edits !== undefined) {
      if (args.old_string !== undefined || args.new_string !== undefined) throw invalidArgs('edit', 'give either old_string and new_string or edits, not both');
      args.edits.forEach((step, i) => checkReplacement(step, `edit ${i + 1} of ${args.edits!.length}: `));
      return;
    }
    if (args.old_string === undefined) throw invalidArgs('edit', '"old_string" is required');
    if (args.new_string === undefined) throw invalidArgs('edit', '"new_string" is required');
    checkReplacement({ old_string: args.old_string, new_string: args.new_string }, '');
  },
  modes: { agent: {} },
  approval: 'flagged',
  exclusive: (args, root) => realPathOfNearest(resolveToolPath(root, args.path)),
  prepare: prepareEdit,
});

function checkReplacement(step: Replacement, which: string): void {
  if (step.old_string === '') throw invalidArgs('edit', `${which}"old_string" must not be empty (use write to create a file)`);
  if (step.old_string === step.new_string) throw invalidArgs('edit', `${which}"old_string" and "new_string" are the same: nothing would change`);
}

async function prepareEdit(args: EditArgs, env: ToolEnv): Promise<PreparedCall> {
  const path = resolveToolPath(env.root, args.path);
  // A credential file is not even read before a person says yes: a failed match would tell the model about it.
  const credential = credentialAction('edit', 'changes', path);
  if (credential) return { action: credential, run: async () => (await prepareFileEdit(args, env, path)).run() };
  return prepareFileEdit(args, env, path);
}

async function prepareFileEdit(args: EditArgs, env: ToolEnv, path: string): Promise<PreparedCall> {
  const shown = displayPath(env.root, path);
  const info = await stat(path).catch((error: unknown) => {
    const failure = fsError(error, shown);
    if (failure.code === 'NOT_FOUND') throw new ToolError('NOT_FOUND', `${shown} does not exist (use write to create a file)`);
    throw failure;
  });
  if (!info.isFile()) throw new ToolError('NOT_A_FILE', `${shown} is not a regular file`);
  if (info.size > MAX_EDIT_BYTES) throw new ToolError('NOT_A_FILE', `${shown} is too large to edit (over 32 MB)`);
  const bytes = await currentBytes(path, shown, env);
  if (looksBinary(bytes)) throw new ToolError('BINARY_FILE', `${shown} is a binary file; edit changes text files only`);
  const { text: before, encoding } = decodeText(bytes);
  const steps: Replacement[] = args.edits ?? [{ old_string: args.old_string!, new_string: args.new_string! }];
  if (encoding === 'latin1' && steps.some((step) => /[^\u0000-\u00ff]/.test(step.old_string + step.new_string))) {
    throw new ToolError('EDIT_NOT_UTF8', `${shown} is not UTF-8 (read as Latin-1); old_string and new_string may only use Latin-1 characters`);
  }

  let after: string;
  let diff: EditDiff;
  let summary: string;
  if (args.edits === undefined) {
    after = replaceOnce(before, steps[0]!, shown, '');
    diff = editDiff(shown, before, after);
    summary = `edited ${shown}: replaced ${plural(diff.removed, 'line')} with ${diff.added} at line ${diff.line}`;
  } else {
    const spans = new ChangedSpans();
    after = before;
    steps.forEach((step, i) => {
      const which = `edit ${i + 1} of ${steps.length}: `;
      try {
        after = replaceOnce(after, step, shown, which, spans);
      } catch (error) {
        if (!ToolError.isInstance(error)) throw error;
        const earlier = i > 0 && error.code === 'EDIT_NO_MATCH' && before.includes(step.old_string) ? ` (it is in the file as it was before edit${i > 1 ? `s 1–${i}` : ' 1'}, which changed it)` : '';
        throw new ToolError(error.code, `${error.message}${earlier}; nothing was written`, error.payload);
      }
    });
    if (after === before) throw new ToolError('EDIT_NO_MATCH', `the edits leave ${shown} as it was; nothing was written`);
    diff = spansDiff(shown, before, after, spans.list);
    const hunks = diff.text.split('\n').filter((line) => line.startsWith('@@ ')).length;
    summary = `edited ${shown}: ${steps.length} replacements, ${plural(diff.removed, 'line')} replaced with ${diff.added} in ${plural(hunks, 'place')} from line ${diff.line}`;
  }
  const reasons = isInsideProject(env.root, path) ? [] : [`writes outside the project: ${path}`];
  const guarded = protectedReason(env.root, path);
  if (guarded) reasons.push(guarded);

  return {
    action: { tool: 'edit', path, diff: diff.text, reasons },
    run: async () => {
      // Approval can take a while: never overwrite a file that changed meanwhile.
      const now = await currentBytes(path, shown, env);
      if (!now.equals(bytes)) throw new ToolError('IO_ERROR', `${shown} changed since the edit was prepared; read it again and retry`);
      // An editor hosting the session writes it (its buffer and the file); else the disk, at once.
      const written = encoding === 'utf-8' && (await env.files?.write(path, after).catch((error: unknown) => {
        throw new ToolError('IO_ERROR', `the editor did not write ${shown}: ${error instanceof Error ? error.message : String(error)}`);
      }));
      if (!written) {
        await replaceFile(path, encoding === 'latin1' ? Buffer.from(after, 'latin1') : after).catch((error: unknown) => {
          throw fsError(error, shown);
        });
      }
      return { summary, payload: diff.text, meta: { path, diff: diff.text } };
    },
  };
}

/** The file as the editor has it (unsaved changes and all) when it offers its files, else the disk's bytes. */
async function currentBytes(path: string, shown: string, env: ToolEnv): Promise<Buffer> {
  const edited = await env.files?.read(path);
  if (edited !== undefined) return Buffer.from(edited, 'utf8');
  return readFile(path).catch((error: unknown) => {
    throw fsError(error, shown);
  });
}

/**
 * `text` with one replacement made: exactly one occurrence, or every one with `replace_all`.
 * `which` starts each error of a multi-edit ("edit 3 of 4: "); `spans` records where it changed.
 */
function replaceOnce(text: string, step: Replacement, shown: string, which: string, spans?: ChangedSpans): string {
  let oldString = step.old_string;
  let newString = step.new_string;
  if (text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\r?\n/g, '\r\n');
  }
  const starts = occurrences(text, oldString);
  if (starts.length === 0) throw noMatch(shown, text, step.old_string, which);
  if (starts.length > 1 && !step.replace_all) {
    const lines = starts.map((at) => lineOf(text, at));
    throw new ToolError(
      'EDIT_MANY_MATCHES',
      `${which}old_string occurs ${starts.length} times in ${shown} (lines ${listLines(lines)}); include more surrounding lines so it matches exactly once${which ? ', or set replace_all' : ''}`,
    );
  }
  const parts: string[] = [];
  let from = 0;
  for (const at of starts) {
    parts.push(text.slice(from, at), newString);
    from = at + oldString.length;
  }
  parts.push(text.slice(from));
  if (spans) for (let k = starts.length - 1; k >= 0; k--) spans.replaced(starts[k]!, starts[k]! + oldString.length, newString.length);
  return parts.join('');
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
function noMatch(shown: string, text: string, oldString: string, which = ''): ToolError {
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
  return new ToolError('EDIT_NO_MATCH', `${which}old_string was not found in ${shown}${hint}; read the file and copy the text exactly`);
}
