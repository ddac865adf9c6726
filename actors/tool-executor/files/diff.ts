import type { ChangedSpan } from './changed-spans.js';

// Unified diffs of one change, as `git apply` takes them: an approval prompt shows them and the
// model reads them, so they must be the exact patch. Lines keep their CR (a CRLF file's patch
// applies to it), a last line without a newline is marked `\ No newline at end of file`, and the
// hunk's counts are the lines it holds. Not a general diff algorithm: edit changes one span, so
// the hunk is what lies between the common leading and trailing lines.

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

/**
 * The diff of several changes of one file (a multi-edit): a hunk per group of changed lines, each
 * with its own context, instead of one hunk from the first change to the last. `spans` say where
 * the texts differ (`changed-spans.ts`); outside them they are equal.
 */
export function spansDiff(label: string, before: string, after: string, spans: readonly ChangedSpan[]): EditDiff {
  // Each span widened to whole lines; spans that then share a line become one.
  const whole: ChangedSpan[] = [];
  for (const span of spans) {
    const back = span.from - (before.lastIndexOf('\n', span.from - 1) + 1);
    // The texts are equal after the span: both ends at a line start, or both go to the next line end.
    const next = before.indexOf('\n', span.to);
    const forward = atLineStart(before, span.to) && atLineStart(after, span.newTo) ? 0 : (next === -1 ? before.length : next + 1) - span.to;
    const wide = { from: span.from - back, to: span.to + forward, newFrom: span.newFrom - back, newTo: span.newTo + forward };
    const previous = whole[whole.length - 1];
    if (previous && wide.from <= previous.to) {
      previous.to = Math.max(previous.to, wide.to);
      previous.newTo = previous.to + (wide.newTo - wide.to);
    } else whole.push(wide);
  }
  const a = splitLines(before);
  const b = splitLines(after);
  const aStarts = lineStarts(before);
  const bStarts = lineStarts(after);
  // Line ranges [a0, a1) → [b0, b1), without the equal lines at their ends.
  const changes: { a0: number; a1: number; b0: number; b1: number }[] = [];
  for (const span of whole) {
    let a0 = lineAt(aStarts, span.from);
    let a1 = span.to >= before.length ? a.length : lineAt(aStarts, span.to);
    let b0 = lineAt(bStarts, span.newFrom);
    let b1 = span.newTo >= after.length ? b.length : lineAt(bStarts, span.newTo);
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) (a0++, b0++);
    while (a1 > a0 && b1 > b0 && a[a1 - 1] === b[b1 - 1]) (a1--, b1--);
    if (a0 < a1 || b0 < b1) changes.push({ a0, a1, b0, b1 });
  }
  const out = [`--- ${side('a', label)}`, `+++ ${side('b', label)}`];
  let removed = 0;
  let added = 0;
  for (let i = 0; i < changes.length; ) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]!.a0 - changes[j]!.a1 <= 2 * CONTEXT) j++;
    const first = changes[i]!;
    const last = changes[j]!;
    const from = Math.max(0, first.a0 - CONTEXT);
    const tail = Math.min(CONTEXT, a.length - last.a1);
    const bFrom = first.b0 - (first.a0 - from);
    out.push(`@@ -${range(from, last.a1 + tail - from)} +${range(bFrom, last.b1 + tail - bFrom)} @@`);
    for (let k = from; k < first.a0; k++) push(out, ' ', a[k]!);
    for (let c = i; c <= j; c++) {
      const change = changes[c]!;
      if (c > i) for (let k = changes[c - 1]!.a1; k < change.a0; k++) push(out, ' ', a[k]!);
      for (let k = change.a0; k < change.a1; k++) push(out, '-', a[k]!);
      for (let k = change.b0; k < change.b1; k++) push(out, '+', b[k]!);
      removed += change.a1 - change.a0;
      added += change.b1 - change.b0;
    }
    for (let k = last.a1; k < last.a1 + tail; k++) push(out, ' ', a[k]!);
    i = j + 1;
  }
  return { text: clip(out), line: (changes[0]?.a0 ?? 0) + 1, removed, added };
}

function atLineStart(text: string, at: number): boolean {
  return at === 0 || text[at - 1] === '\n';
}

/** Offsets where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The 0-based line holding offset `at`. */
function lineAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
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
