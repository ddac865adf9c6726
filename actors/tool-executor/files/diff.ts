/**
 * Unified diffs of one change, as `git apply` takes them: an approval prompt shows them and the
 * model reads them, so they must be the exact patch. Lines keep their CR (a CRLF file's patch
 * applies to it), a last line without a newline is marked `\ No newline at end of file`, and the
 * hunk's counts are the lines it holds. Not a general diff algorithm: edit changes one span, so
 * the hunk is what lies between the common leading and trailing lines.
 */

const CONTEXT = 3;
const MAX_DIFF_LINES = 400;
const NO_NEWLINE = '\\ No newline at end of file';

/** The diff of an edit, and where its changed lines are. */
export interface EditDiff {
  text: string;
  /** 1-based line of the first changed line (in the old file; the same in the new one). */
  line: number;
  removed: number;
  added: number;
}

/** `before` became `after`; both are the whole file's text. */
export function editDiff(label: string, before: string, after: string): EditDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const from = Math.max(0, prefix - CONTEXT);
  const tail = Math.min(CONTEXT, suffix);
  const aEnd = a.length - suffix;
  const bEnd = b.length - suffix;
  const out = [`--- ${side('a', label)}`, `+++ ${side('b', label)}`, `@@ -${range(from, aEnd + tail - from)} +${range(from, bEnd + tail - from)} @@`];
  for (let i = from; i < prefix; i++) push(out, ' ', a[i]!);
  for (let i = prefix; i < aEnd; i++) push(out, '-', a[i]!);
  for (let i = prefix; i < bEnd; i++) push(out, '+', b[i]!);
  for (let i = aEnd; i < aEnd + tail; i++) push(out, ' ', a[i]!);
  return { text: clip(out), line: prefix + 1, removed: aEnd - prefix, added: bEnd - prefix };
}

/** The diff of a new file: every line added. */
export function creationDiff(label: string, content: string): string {
  const lines = splitLines(content);
  const out = [`--- /dev/null`, `+++ ${side('b', label)}`];
  // An empty file has no hunk (git names one only in its extended `new file` header).
  if (lines.length > 0) out.push(`@@ -0,0 +${range(0, lines.length)} @@`);
  for (const line of lines) push(out, '+', line);
  return clip(out);
}

/** Lines with their `\n` (the last one may lack it), so a missing final newline is a difference too. */
function splitLines(text: string): string[] {
  const lines = text.split('\n').map((line) => `${line}\n`);
  const last = lines.pop()!;
  if (last !== '\n') lines.push(last.slice(0, -1));
  return lines;
}

function push(out: string[], mark: ' ' | '-' | '+', line: string): void {
  if (line.endsWith('\n')) out.push(mark + line.slice(0, -1));
  else out.push(mark + line, NO_NEWLINE);
}

/** `start,count` of a hunk side; an empty side names the line before it (`0,0` at the top). */
function range(from: number, count: number): string {
  return `${count === 0 ? from : from + 1},${count}`;
}

/** `a/src/x.ts` for a project path; an absolute path (outside the project) stays as it is. */
function side(prefix: 'a' | 'b', label: string): string {
  return label.startsWith('/') ? label : `${prefix}/${label}`;
}

function clip(lines: string[]): string {
  if (lines.length <= MAX_DIFF_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more diff lines`].join('\n');
}
