import { readFile, stat } from 'node:fs/promises';
import { displayPath, resolveToolPath } from './paths.js';
import { decodeText } from './text-file.js';

/** Larger files are not read to say what became of them. */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * What is on disk now for an `edit` or `write` whose call died with the tool executor: the model
 * cannot know whether the change happened (edits and writes replace the file at once, so it is
 * one or the other), and must not repeat an edit that was made nor assume one that was not. Read
 * in the agent's process; undefined for other tools or when nothing can be said.
 */
export async function diskAfterCrash(tool: string, args: Record<string, unknown>, root: string): Promise<string | undefined> {
  if ((tool !== 'edit' && tool !== 'write') || typeof args.path !== 'string') return undefined;
  const path = resolveToolPath(root, args.path);
  const shown = displayPath(root, path);
  const info = await stat(path).catch(() => undefined);
  if (!info) return tool === 'write' ? `On disk now: ${shown} does not exist: the write was not done.` : `On disk now: ${shown} does not exist.`;
  if (!info.isFile() || info.size > MAX_BYTES) return undefined;
  const text = await readFile(path).then((bytes) => decodeText(bytes).text, () => undefined);
  if (text === undefined) return undefined;
  if (tool === 'write') {
    if (typeof args.content !== 'string') return undefined;
    return text === args.content || text === args.content.replace(/\n/g, '\r\n')
      ? `On disk now: ${shown} holds exactly the content given: the write was done.`
      : `On disk now: ${shown} exists with other content (${info.size} bytes): read it before writing again.`;
  }
  if (typeof args.old_string !== 'string' || typeof args.new_string !== 'string') return undefined;
  const lf = text.replace(/\r\n/g, '\n');
  const olds = occurrences(lf, args.old_string.replace(/\r\n/g, '\n'));
  const news = args.new_string === '' ? 0 : occurrences(lf, args.new_string.replace(/\r\n/g, '\n'));
  if (olds === 1 && news === 0) return `On disk now: ${shown} still has old_string (once) and not new_string: the edit was not applied.`;
  if (olds === 0 && news > 0) return `On disk now: ${shown} has new_string and no old_string: the edit was applied; do not apply it again.`;
  return `On disk now: ${shown} has old_string ${times(olds)} and new_string ${times(news)}: read it before editing again.`;
}

function occurrences(text: string, part: string): number {
  if (part === '') return 0;
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}
