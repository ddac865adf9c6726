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
  const lf = text.replace(/\r\n/g, '\n');
  if (Array.isArray(args.edits)) return afterEdits(lf, args.edits, shown);
  if (typeof args.old_string !== 'string' || typeof args.new_string !== 'string') return undefined;
  const state = replacementState(lf, args.old_string, args.new_string);
  if (state.applied === false) {
    const notNew = state.news === 0 ? 'not new_string' : 'new_string only inside it';
    return `On disk now: ${shown} still has old_string (once) and ${notNew}: the edit was not applied.`;
  }
  if (state.applied === true) {
    const notOld = state.olds === 0 ? 'no old_string' : 'old_string only inside it';
    return `On disk now: ${shown} has new_string and ${notOld}: the edit was applied; do not apply it again.`;
  }
  return `On disk now: ${shown} has old_string ${times(state.olds)} and new_string ${times(state.news)}: read it before editing again.`;
}

/**
 * A multi-edit is written at once, so it was made whole or not at all: said only when every
 * replacement reads the same way (a later one may have changed an earlier one's text, then it is
 * undecided and the model reads the file).
 */
function afterEdits(lf: string, edits: unknown[], shown: string): string | undefined {
  const states = edits.map((step) => {
    const { old_string: oldString, new_string: newString } = (step ?? {}) as Record<string, unknown>;
    return typeof oldString === 'string' && typeof newString === 'string' ? replacementState(lf, oldString, newString).applied : undefined;
  });
  if (states.length > 0 && states.every((applied) => applied === true)) return `On disk now: ${shown} has every new_string and no old_string apart from them: the edits were applied; do not apply them again.`;
  if (states.length > 0 && states.every((applied) => applied === false)) return `On disk now: ${shown} still has every old_string and no new_string apart from them: the edits were not applied.`;
  return `On disk now: ${shown} matches neither the state before the edits nor the state after: read it before editing again.`;
}

/** Whether one replacement reads as applied (true), not applied (false) or undecided. */
function replacementState(lf: string, oldString: string, newString: string): { applied: boolean | undefined; olds: number; news: number } {
  const oldText = oldString.replace(/\r\n/g, '\n');
  const newText = newString.replace(/\r\n/g, '\n');
  const olds = occurrences(lf, oldText);
  const news = occurrences(lf, newText);
  // One string may hold the other: an insertion's new_string keeps its old_string (a line and the
  // line added after it), a deletion's old_string holds its new_string. Such an occurrence inside
  // the other string is part of it, not a sign of the other state: after an insertion the file has
  // old_string once, inside new_string, and the edit was applied.
  const oldsApart = olds.filter((at) => !news.some((n) => within(at, oldText.length, n, newText.length)));
  const newsApart = news.filter((at) => !olds.some((o) => within(at, newText.length, o, oldText.length)));
  const applied = olds.length === 1 && newsApart.length === 0 ? false : oldsApart.length === 0 && news.length > 0 ? true : undefined;
  return { applied, olds: olds.length, news: news.length };
}

/** Where `part` starts in `text`, overlapping occurrences included. */
function occurrences(text: string, part: string): number[] {
  if (part === '') return [];
  const starts: number[] = [];
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) starts.push(at);
  return starts;
}

/** Whether [at, at + length) lies inside [outer, outer + outerLength). */
function within(at: number, length: number, outer: number, outerLength: number): boolean {
  return at >= outer && at + length <= outer + outerLength;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}
