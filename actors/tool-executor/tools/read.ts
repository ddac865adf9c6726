import { stat } from 'node:fs/promises';
import { defineTool, EVERY_MODE } from './define-tool.js';
import { integer, path, type ArgsOf } from './params.js';
import { displayPath, resolveToolPath } from '../files/paths.js';
import { credentialAction } from '../safety/credential-paths.js';
import { decodeText, forEachLine, forEachTextLine, sniffBinary, stripCr } from '../files/text-file.js';
import { fsError, ToolError } from './tool-error.js';
import { formatBytes, plural, type ToolEnv, type ToolOutcome } from './tool-env.js';

/** Lines shown when the model gives no limit (SPEC §3). */
export const READ_DEFAULT_LIMIT = 300;
/** A longer line is clipped (minified files would otherwise fill the context). */
export const READ_MAX_LINE_BYTES = 2000;

/** A larger file is read from the disk even when an editor offers its text (the protocol carries it whole). */
const EDITOR_READ_MAX_BYTES = 4 * 1024 * 1024;

const params = {
  path: path('File path, relative to the project root or absolute.', { required: true }),
  offset: integer('1-based line to start at (default 1).', { min: 1 }),
  limit: integer('How many lines to return (default 300).', { min: 1, max: 5_000 }),
};

/**
 * `read{path, offset?, limit?}`: numbered lines from a 1-indexed offset. The file is streamed, so
 * a 50 MB log pages in bounded memory; the summary says how many lines remain and where to go on.
 */
export const readTool = defineTool({
  name: 'read',
  description: 'Read a text file. Returns numbered lines (default 300 from offset 1) and says how many lines remain and which offset continues. Refuses binary files.',
  params,
  modes: EVERY_MODE,
  approval: 'never',
  guard: (args, env) => credentialAction('read', 'reads', resolveToolPath(env.root, args.path)),
  run: read,
});

async function read(args: ArgsOf<typeof params>, env: ToolEnv): Promise<ToolOutcome> {
  const path = resolveToolPath(env.root, args.path);
  const shown = displayPath(env.root, path);
  const info = await stat(path).catch((error: unknown) => {
    throw fsError(error, shown);
  });
  if (info.isDirectory()) throw new ToolError('NOT_A_FILE', `${shown} is a directory (use list to see inside)`);
  if (!info.isFile()) throw new ToolError('NOT_A_FILE', `${shown} is not a regular file`);
  const binary = info.size > 0 && (await sniffBinary(path).catch((error: unknown) => {
    throw fsError(error, shown);
  }));
  if (binary) throw new ToolError('BINARY_FILE', `${shown} is a binary file (${formatBytes(info.size)}); read shows text files only`);
  // An editor hosting the session has the file's text as the user sees it, unsaved changes and all.
  const edited = info.size <= EDITOR_READ_MAX_BYTES ? await env.files?.read(path) : undefined;
  if (edited === '' || (edited === undefined && info.size === 0)) return { summary: `${shown} is empty (0 lines)`, payload: '', meta: { path } };

  const offset = args.offset ?? 1;
  const last = offset + (args.limit ?? READ_DEFAULT_LIMIT) - 1;
  const picked: { number: number; bytes: Buffer; full: number }[] = [];
  const visit = (bytes: Buffer, number: number, full: number) => {
    if (number >= offset && number <= last) picked.push({ number, bytes: Buffer.from(bytes), full });
  };
  const scan =
    edited !== undefined
      ? forEachTextLine(edited, visit, { maxLineBytes: READ_MAX_LINE_BYTES })
      : await forEachLine(path, visit, { signal: env.signal, maxLineBytes: READ_MAX_LINE_BYTES }).catch((error: unknown) => {
          throw fsError(error, shown);
        });

  let latin1 = false;
  let clipped = 0;
  const width = String(picked.at(-1)?.number ?? offset).length;
  const lines = picked.map(({ number, bytes, full }) => {
    let text: string;
    if (full > bytes.length) {
      clipped++;
      text = `${bytes.toString('utf8')} … [line clipped: ${formatBytes(full)}]`;
    } else {
      const decoded = decodeText(bytes);
      latin1 ||= decoded.encoding === 'latin1';
      text = stripCr(decoded.text);
    }
    return `${String(number).padStart(width)}\t${text}`;
  });
  const clipNote = clipped === 0 ? '' : `; ${picked.length === 1 ? 'the line was' : clipped === 1 ? 'one line was' : `${clipped.toLocaleString('en-US')} lines were`} clipped to ${clipped === 1 ? 'its' : 'their'} first ${formatBytes(READ_MAX_LINE_BYTES)}: grep the file for what you need`;
  const note = (latin1 ? ' (not valid UTF-8: shown as Latin-1)' : '') + clipNote;

  if (scan.aborted) {
    return {
      status: 'cancelled',
      summary: `read ${shown} was cancelled after ${plural(scan.lines, 'line')}`,
      payload: lines.join('\n'),
      meta: { path },
    };
  }
  const total = scan.lines;
  if (offset > total) {
    throw new ToolError('OFFSET_PAST_END', `${shown} has ${plural(total, 'line')}; offset ${offset} is past the end`);
  }
  const end = picked.at(-1)!.number;
  const remaining = total - end;
  const range = offset === 1 && remaining === 0 && clipped === 0 ? `all ${plural(total, 'line')}` : offset === 1 && remaining === 0 ? plural(total, 'line') : `lines ${offset}–${end} of ${total.toLocaleString('en-US')}`;
  const more = remaining > 0 ? `; ${plural(remaining, 'more line')}, continue with offset ${end + 1}` : '';
  const trailer = remaining > 0 ? `\n… ${plural(remaining, 'more line')}; read with offset ${end + 1} to continue` : '';
  return { summary: `read ${shown}: ${range}${more}${note}`, payload: lines.join('\n') + trailer, meta: { path } };
}
