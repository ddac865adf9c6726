import { open, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative } from 'node:path';
import { IMAGE_EXTENSIONS } from '../../actors/images/image.js';
import { findMentionedFile } from '../../actors/prompt/mentioned-file.js';
import { parseMentions } from '../../actors/prompt/mentions.js';

/** Largest file `@path` attaches whole; bigger files are cut with a note. */
export const ATTACH_MAX_BYTES = 100_000;

export interface Attached {
  /** The message as sent: the typed text, then each attached file in a fenced block. */
  message: string;
  /** The attached files' blocks alone (empty when none), for a message that adds other parts. */
  files: string;
  attached: string[];
  /** One line per `@path` that could not be attached, for the user. */
  problems: string[];
}

/** One file attached: the block sent with the message, or why it could not be. */
export type AttachedFile = { block: string; shown: string } | { problem: string } | undefined;

/**
 * Reads every `@path` that names a readable text file under or outside `root` and appends it.
 * A mention in quotes or with escapes always names a file, so a missing one is reported; a bare
 * word is only when it looks like a path (`@someone` is no attachment).
 */
export async function attachFiles(text: string, root: string): Promise<Attached> {
  const attached: string[] = [];
  const problems: string[] = [];
  const blocks: string[] = [];
  for (const mention of parseMentions(text)) {
    if (mention.unclosed) {
      problems.push(`${mention.raw.trimEnd()}: the quote is not closed; nothing attached`);
      continue;
    }
    const path = mention.path;
    // `@file.png` goes to the session's image recognition instead.
    if ((IMAGE_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase())) continue;
    const file = await attachFile(path, root, mention.raw, mention.quoted);
    if (!file) continue;
    if ('problem' in file) problems.push(file.problem);
    else {
      blocks.push(file.block);
      attached.push(file.shown);
    }
  }
  const files = blocks.join('\n\n');
  const message = blocks.length > 0 ? `${text}\n\n${files}` : text;
  return { message, files, attached, problems };
}

/**
 * Reads one text file (`path` relative to `root` or absolute) into a `<file path="…">` block, cut
 * at {@link ATTACH_MAX_BYTES}; `named` is how a problem names it. Undefined: a missing name that
 * does not look like a path (`@someone`) and was not `surely` meant as one, which is no attachment.
 * A name in the other Unicode normalisation than the file's is found (`findMentionedFile`).
 */
export async function attachFile(path: string, root: string, named = path, surely = false): Promise<AttachedFile> {
  const full = await findMentionedFile(path, root);
  const shown = isAbsolute(path) ? full : relative(root, full).split('\\').join('/');
  try {
    const info = await stat(full);
    if (!info.isFile()) return info.isDirectory() ? { problem: `${named} is a folder; only files are attached` } : undefined;
    const handle = await open(full, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(info.size, ATTACH_MAX_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const bytes = buffer.subarray(0, bytesRead);
      if (bytes.subarray(0, 8192).includes(0)) return { problem: `${named} is a binary file; not attached` };
      let content = bytes.toString('utf8');
      if (info.size > ATTACH_MAX_BYTES) content += `\n[cut: the file has ${info.size} bytes, the first ${ATTACH_MAX_BYTES} are attached; use read for the rest]`;
      return { block: fileBlock(shown, content), shown };
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return surely || /[./]/.test(path) ? { problem: `${named}: no such file` } : undefined;
    return { problem: `${named}: ${code === 'EACCES' ? 'permission denied' : (error as Error).message}` };
  }
}

/** How an attached file's text goes with a message. */
export function fileBlock(shown: string, content: string): string {
  return `<file path="${shown}">\n${content}${content.endsWith('\n') ? '' : '\n'}</file>`;
}
