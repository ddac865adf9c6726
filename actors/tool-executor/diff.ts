/**
 * Minimal unified diffs for one replaced region, enough for an approval prompt and for the model
 * to see what its edit did. Not a general diff algorithm: edit changes exactly one span.
 */

const CONTEXT = 3;
const MAX_DIFF_LINES = 400;

/**
 * `beforeLines[start..start+removed)` became `afterLines[start..start+added)`; `start` is 0-based.
 */
export function spanDiff(label: string, beforeLines: string[], afterLines: string[], start: number, removed: number, added: number): string {
  const from = Math.max(0, start - CONTEXT);
  const tail = Math.min(CONTEXT, beforeLines.length - (start + removed));
  const out = [`--- ${side('a', label)}`, `+++ ${side('b', label)}`];
  const oldCount = start - from + removed + tail;
  const newCount = start - from + added + tail;
  out.push(`@@ -${from + 1},${oldCount} +${from + 1},${newCount} @@`);
  for (let i = from; i < start; i++) out.push(` ${beforeLines[i]}`);
  for (let i = start; i < start + removed; i++) out.push(`-${beforeLines[i]}`);
  for (let i = start; i < start + added; i++) out.push(`+${afterLines[i]}`);
  for (let i = 0; i < tail; i++) out.push(` ${beforeLines[start + removed + i]}`);
  return clip(out);
}

/** `a/src/x.ts` for a project path; an absolute path (outside the project) stays as it is. */
function side(prefix: 'a' | 'b', label: string): string {
  return label.startsWith('/') ? label : `${prefix}/${label}`;
}

/** The diff of a new file: every line added. */
export function creationDiff(label: string, content: string): string {
  const lines = content === '' ? [] : content.replace(/\n$/, '').split('\n');
  return clip([`--- /dev/null`, `+++ ${side('b', label)}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((line) => `+${line}`)]);
}

function clip(lines: string[]): string {
  if (lines.length <= MAX_DIFF_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more diff lines`].join('\n');
}
