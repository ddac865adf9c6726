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

/** The tool message as it goes on the wire, with or without its payload. */
export function renderToolEntry(entry: ToolEntry, withPayload: boolean): ChatMessage {
  let content = entry.summary;
  if (entry.shed) {
    content += `\n${SHED_NOTE}`;
  } else if (withPayload) {
    if (entry.payload !== '') content += `\n\n${entry.payload}`;
    if (entry.cutChars > 0) content += `\n${cutMarker(entry.cutChars)}`;
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

/** Cuts a payload to `keep` characters (head and tail kept, marker between); returns what was removed. */
export function cutPayload(entry: ToolEntry, keep: number): number {
  const total = entry.payload.length;
  if (keep >= total) return 0;
  const head = Math.max(0, Math.floor(keep * 0.75));
  const tail = Math.max(0, keep - head);
  const removed = total - head - tail;
  entry.payload = entry.payload.slice(0, head) + (tail > 0 ? `\n…\n${entry.payload.slice(total - tail)}` : '');
  entry.cutChars += removed;
  return removed;
}
