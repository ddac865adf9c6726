import type { ChatMessage } from '../model-io/protocol.js';

/**
 * One tool result as the context manager holds it: the one-line `summary` always goes to the
 * model; the `payload` goes until it is shed (compaction) or cut (too large to fit).
 */
export interface ToolEntry {
  kind: 'tool';
  callId: string;
  name: string;
  summary: string;
  payload: string;
  /** The tool round (one assistant message with calls) this result belongs to. */
  round: number;
  /** Replaced by its summary in a compaction event (the payload is then released: ''). */
  shed: boolean;
  /** Characters removed from the payload because it did not fit the window. */
  cutChars: number;
  /**
   * A cut by lines: how many lines of the output it kept at the start and at the end, and how many
   * the output had (the payload is those lines with the cut's marker between them).
   */
  kept?: { head: number; tail: number; lines: number };
  /** Notes to the model that ride in this result (see `ContextManager.addNudge`); never shed. */
  notes?: string[];
}

/** A tool result as the turn hands it over. */
export interface ToolResultInput {
  callId: string;
  name: string;
  summary: string;
  payload: string;
  status?: 'done' | 'error' | 'declined' | 'cancelled';
}

/** Marker appended when a payload was shed: the model knows the output existed and how to get it back. */
export const SHED_NOTE = '[output dropped from the context to save space; run the tool again if you need it]';

/** Says the cut was made by reika for context, not by the tool, so the model can ask for less. */
export function cutMarker(removed: number): string {
  return `[… ${removed} characters cut here by reika to fit the context window (not by the tool); read a narrower range to see them]`;
}

/**
 * The marker that stands where whole lines were cut: which lines, and how to read just them (a read
 * shows the file's line numbers around it; a command's output is numbered from its first line).
 */
export function cutLinesMarker(from: number, to: number, lines: number, removed: number): string {
  return `[… lines ${from}–${to} of ${lines} of this output (${removed.toLocaleString('en-US')} characters) cut here by reika to fit the context window (not by the tool); to see them, read a narrower range (offset/limit) or run the command again through sed -n '${from},${to}p']`;
}

/** The tool message as it goes on the wire, with or without its payload. */
export function renderToolEntry(entry: ToolEntry, withPayload: boolean): ChatMessage {
  let content = entry.summary;
  if (entry.shed) {
    content += `\n${SHED_NOTE}`;
  } else if (withPayload) {
    if (entry.payload !== '') content += `\n\n${entry.payload}`;
    if (entry.cutChars > 0 && entry.kept === undefined) content += `\n${cutMarker(entry.cutChars)}`;
  } else if (entry.payload !== '') {
    content += `\n${SHED_NOTE}`;
  }
  for (const note of entry.notes ?? []) content += `\n\n${note}`;
  return { role: 'tool', tool_call_id: entry.callId, content };
}

/** Drops a payload for good (a compaction event); the summary and a note stand in for it. */
export function shedPayload(entry: ToolEntry): void {
  entry.shed = true;
  entry.payload = '';
}

/**
 * Cuts a payload to about `keep` characters, three quarters from its head and the rest from its
 * tail; returns what was removed. Whole lines go, the marker naming them in their place; a payload
 * whose lines are too long for that (one minified line) is cut by characters, the marker after it.
 * A payload cut before is cut again inside what the first cut kept, so the lines removed stay one range.
 */
export function cutPayload(entry: ToolEntry, keep: number): number {
  const total = entry.payload.length;
  if (keep >= total) return 0;
  const headBudget = Math.max(0, Math.floor(keep * 0.75));
  const byLines = cutLines(entry, headBudget, keep - headBudget);
  if (byLines !== undefined) return byLines;
  const head = headBudget;
  const tail = Math.max(0, keep - head);
  const removed = total - head - tail;
  entry.payload = entry.payload.slice(0, head) + (tail > 0 ? `\n…\n${entry.payload.slice(total - tail)}` : '');
  entry.cutChars += removed;
  entry.kept = undefined;
  return removed;
}

/** The cut by whole lines of {@link cutPayload}; undefined when not a line of the head and of the tail fits. */
function cutLines(entry: ToolEntry, headBudget: number, tailBudget: number): number | undefined {
  const before = entry.kept;
  if (before === undefined) return firstCut(entry, headBudget, tailBudget);
  const all = entry.payload.split('\n');
  // What the earlier cut kept, without its marker: its head lines, then its tail lines.
  const lines = [...all.slice(0, before.head), ...all.slice(before.head + 1)];
  const headLimit = before.head;
  const tailLimit = before.tail;
  const count = before.lines;
  // Without its marker, what the earlier cut kept may fit already.
  if (lines.reduce((sum, line) => sum + line.length + 1, 0) <= headBudget + tailBudget) return 0;
  let head = 0;
  for (let used = 0; head < headLimit && used + lines[head]!.length + 1 <= headBudget; head++) used += lines[head]!.length + 1;
  let tail = 0;
  for (let used = 0; tail < Math.min(tailLimit, lines.length - head - 1) && used + lines[lines.length - 1 - tail]!.length + 1 <= tailBudget; tail++) used += lines[lines.length - 1 - tail]!.length + 1;
  if (head === 0 || tail === 0) return undefined;
  // Line i of `lines` as numbered in the whole output.
  const original = (i: number) => (i < headLimit ? i + 1 : count - (lines.length - i) + 1);
  let removed = 0;
  for (let i = head; i < lines.length - tail; i++) removed += lines[i]!.length + 1;
  entry.cutChars += removed;
  const marker = cutLinesMarker(original(head), original(lines.length - tail - 1), count, entry.cutChars);
  entry.payload = [...lines.slice(0, head), marker, ...lines.slice(lines.length - tail)].join('\n');
  entry.kept = { head, tail, lines: count };
  return removed;
}

/** The first cut of a payload by lines, found from both ends without splitting it (a 200 KB output is cut in every long session). */
function firstCut(entry: ToolEntry, headBudget: number, tailBudget: number): number | undefined {
  const text = entry.payload;
  // The head: whole lines (each with its newline) within the budget.
  let headEnd = 0;
  let head = 0;
  for (let next = text.indexOf('\n'); next !== -1 && next + 1 <= headBudget; next = text.indexOf('\n', headEnd)) {
    headEnd = next + 1;
    head++;
  }
  // The tail: whole lines from the end, at least one line left between it and the head.
  let tailStart = text.length;
  let tail = 0;
  for (let before = text.lastIndexOf('\n', tailStart - 1); before >= headEnd && text.length - before - 1 <= tailBudget; before = text.lastIndexOf('\n', tailStart - 2)) {
    tailStart = before + 1;
    tail++;
    if (tailStart - 2 < headEnd) break;
  }
  if (head === 0 || tail === 0 || tailStart <= headEnd) return undefined;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  const removed = tailStart - headEnd;
  entry.cutChars += removed;
  entry.payload = `${text.slice(0, headEnd)}${cutLinesMarker(head + 1, lines - tail, lines, entry.cutChars)}\n${text.slice(tailStart)}`;
  entry.kept = { head, tail, lines };
  return removed;
}
