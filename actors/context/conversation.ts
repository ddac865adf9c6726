import type { ChatMessage } from '../model-io/protocol.js';
import { IMAGE_TOKENS, type TurnImage } from '../images/image.js';
import { fileOf, messageLine, Recap, roundLines, type RecapLine } from './recap.js';
import { CHARS_PER_TOKEN } from './token-estimate.js';
import { renderToolEntry, type ToolEntry } from './tool-entry.js';

// The conversation's entries and their shape, for the context manager: how each renders on the
// wire (cached, with its size for the estimate; the sizes' sum is a running total, so every
// change goes through {@link Conversation.push}, {@link Conversation.touch} or a fold), the units a compaction folds (a round, an
// answer, a user message), what is protected (the task and the active round), and folding whole
// units into the recap, which rides in the newest message, after what the event kept (recap.ts).

export interface MessageEntry {
  kind: 'message';
  message: ChatMessage;
  /** Images of this user message; `live` while the turn that attached them runs. */
  images?: { list: TurnImage[]; live: boolean };
  /** A user's request (not a nudge). */
  prompt?: boolean;
  /** The tool round an assistant message with a call opens or continues (one call per message). */
  round?: number;
}

/**
 * `size` is what counts in the estimate: the JSON's length, a non-ASCII character as 4, an image as
 * IMAGE_TOKENS; `digits`, the digits in it (what a request adds weighs them more, see TokenEstimate).
 */
export type Rendered = { withPayload: boolean; message: ChatMessage; size: number; digits: number };
/** `counted`, `countedDigits`: the size and digits the running totals hold for the entry (see {@link Conversation.chars}). */
/** `recap`: the recap this message shows after what it says (frozen once placed: see recap.ts), and its host id there. */
export type Entry = (MessageEntry | ToolEntry) & { sent?: boolean; cache?: Rendered; counted?: number; countedDigits?: number; turn: number; recap?: { id: number; text: string } };
export type Unit = { start: number; end: number; kind: 'round' | 'answer' | 'user' };

/** The note that stands in for a reply that never came, so two user messages never follow each other. */
export const INTERRUPTED_NOTE = '[no reply: the turn was interrupted]';

export class Conversation {
  private list: Entry[];
  recap = new Recap();
  /** Host ids given so far (each message that shows a recap gets one). */
  private hosts = 0;
  /** Where the current compaction event first removed an entry (see {@link keptChars}). */
  private firstChange = Infinity;
  /** Tool rounds so far (an assistant message with calls opens one). */
  round = 0;
  /** Turns so far (a user's request opens one). */
  turn = 0;
  /** With the window unknown, only the newest round's results carry payloads (asks the context manager). */
  private readonly windowIsKnown: () => boolean;
  /**
   * Bumped by every change to what a request already sent (an entry sent changed or gone, the
   * recap moved, the system prompt replaced) or in front of it: while it stays the same, the next
   * request starts with the last one (what the token estimate anchors on the server's count).
   */
  prefixVersion = 0;
  /** The running total: the `counted` sizes of all entries (see {@link chars}). */
  private total = 0;
  /** The running total of the digits in them (see {@link digits}). */
  private digitTotal = 0;
  /** Entries added or changed since the total last counted them. */
  private readonly stale = new Set<Entry>();
  /** What the tool entries were counted with: whether the window was known, and the round then. */
  private countedWith: { windowKnown: boolean; round: number } = { windowKnown: false, round: 0 };

  constructor(system: string, windowKnown: () => boolean = () => false) {
    this.windowIsKnown = windowKnown;
    this.list = [];
    this.push({ kind: 'message', message: { role: 'system', content: system }, turn: 0 });
  }

  /** The entries in order (the first is the system prompt); changed only through this class. */
  get entries(): readonly Entry[] {
    return this.list;
  }

  get last(): Entry {
    return this.list[this.list.length - 1]!;
  }

  push(entry: Entry): void {
    this.list.push(entry);
    this.stale.add(entry);
  }

  /** A new system prompt (a mode switch), sent or not as the one it replaces. */
  setSystem(system: string): void {
    const old = this.list[0]!;
    this.drop(old);
    this.prefixVersion++;
    this.list[0] = { kind: 'message', message: { role: 'system', content: system }, sent: old.sent, turn: 0 };
    this.stale.add(this.list[0]);
  }

  /** `entry` (one of {@link entries}) changed in place: it renders anew and is counted again. */
  touch(entry: Entry): void {
    if (entry.sent) this.prefixVersion++;
    entry.cache = undefined;
    this.stale.add(entry);
  }

  render(entry: Entry): Rendered {
    if (entry.kind === 'tool') {
      const withPayload = this.withPayload(entry);
      if (!entry.cache || entry.cache.withPayload !== withPayload) entry.cache = this.build(entry);
      return entry.cache;
    }
    if (!entry.cache) entry.cache = this.build(entry);
    return entry.cache;
  }

  /**
   * Serialised size of the messages array (brackets and commas included): a running total,
   * updated for the entries added, changed or removed since it was last asked, so a request
   * does not walk the whole conversation (compaction and the payload cuts ask it many times).
   */
  chars(): number {
    const windowKnown = this.windowIsKnown();
    const was = this.countedWith;
    // Whether a tool result carries its payload depends on the window and the round (see render).
    if (windowKnown !== was.windowKnown) {
      for (const entry of this.list) this.stale.add(entry);
      this.prefixVersion++;
    } else if (!windowKnown && this.round !== was.round) this.staleSince(was.round);
    this.countedWith = { windowKnown, round: this.round };
    for (const entry of this.stale) {
      const { size, digits } = this.render(entry);
      this.total += size - (entry.counted ?? 0);
      this.digitTotal += digits - (entry.countedDigits ?? 0);
      entry.counted = size;
      entry.countedDigits = digits;
    }
    this.stale.clear();
    return this.total + 2 + Math.max(0, this.list.length - 1);
  }

  /** The digits in the messages array (a running total, as {@link chars}). */
  digits(): number {
    this.chars();
    return this.digitTotal;
  }

  /** The same size by a full walk, each entry rendered afresh (what {@link chars} must always equal). */
  recount(): number {
    let total = 2 + Math.max(0, this.list.length - 1);
    for (const entry of this.list) total += this.build(entry).size;
    return total;
  }

  /** Index of the current turn's request (-1 when there is none). */
  taskIndex(): number {
    for (let i = this.list.length - 1; i > 0; i--) {
      const entry = this.list[i]!;
      if (entry.kind === 'message' && entry.prompt) return i;
    }
    return -1;
  }

  /**
   * Index where the protected part starts: the active round (the newest reply's calls, one
   * message each, with their results) when it belongs to this turn, else the task.
   */
  protectedFrom(): number {
    const task = this.taskIndex();
    let from = -1;
    for (let i = this.list.length - 1; i > Math.max(0, task); i--) {
      const entry = this.list[i]!;
      if (entry.kind !== 'message' || entry.message.role !== 'assistant' || !entry.message.tool_calls?.length) continue;
      if (from !== -1 && entry.round !== (this.list[from] as MessageEntry).round) break;
      from = i;
    }
    if (from !== -1) return from;
    return task > 0 ? task : this.list.length;
  }

  /** A way back to this state, for a fold that turned out not to save anything. */
  snapshot(): () => void {
    const saved = { entries: [...this.list], recap: this.recap.clone(), recaps: this.list.map((entry) => entry.recap) };
    return () => {
      this.prefixVersion++;
      for (const entry of this.list) this.drop(entry);
      this.list = saved.entries;
      this.recap = saved.recap;
      for (const [i, entry] of this.list.entries()) {
        entry.recap = saved.recaps[i];
        entry.counted = undefined;
        entry.countedDigits = undefined;
        entry.cache = undefined;
        this.stale.add(entry);
      }
    };
  }

  /**
   * Folds the oldest units that may go (before the protected part, not the task) into the recap,
   * as many as should save `chars` characters (at least one when there is one). Returns the
   * rounds folded, or undefined when nothing could be.
   */
  foldOldest(chars: number): number | undefined {
    const batch = this.foldable(chars);
    if (batch.length === 0) return undefined;
    const gone = new Set<Entry>();
    let rounds = 0;
    for (const unit of batch) {
      if (unit.kind === 'round') rounds++;
      this.recapLines(unit);
      for (let i = unit.start; i < unit.end; i++) gone.add(this.list[i]!);
    }
    this.remove(gone);
    this.foldToValidStart();
    return rounds;
  }

  /**
   * After a fold the conversation must still open as strict templates demand: a user message
   * right after the system prompt (the task, or an earlier request), and never two user messages
   * in a row where the fold took the answer between them. The unit in the way is folded too.
   */
  private foldToValidStart(): void {
    for (;;) {
      const task = this.taskIndex();
      const first = this.list[1];
      if (first === undefined) return;
      let at: number;
      if (!isUser(first)) at = 1;
      else if (isUser(this.list[2])) at = task === 1 ? 2 : 1;
      else return;
      if (at === task || at >= this.protectedFrom()) return;
      const unit = this.units().find((candidate) => candidate.start === at)!;
      this.recapLines(unit);
      this.remove(new Set(this.list.slice(unit.start, unit.end)));
    }
  }

  /** A compaction event starts: {@link keptChars} counts from its first change. */
  beginEvent(): void {
    this.firstChange = Infinity;
  }

  /**
   * The size of what the event kept as it was sent, from its first change on: what an engine that
   * held the previous request must find again (or prefill again when it cannot move cached chunks).
   */
  keptChars(): number {
    let chars = 0;
    for (let i = this.firstChange; i < this.list.length; i++) {
      const entry = this.list[i]!;
      if (entry.sent) chars += this.render(entry).size + 1;
    }
    return chars;
  }

  /** The size of every message sent before and still there (what an engine that held the last request holds of the next). */
  sentChars(): number {
    let chars = 0;
    for (const entry of this.list) if (entry.sent) chars += this.render(entry).size + 1;
    return chars;
  }

  /** Entries leave the conversation; a message that showed a recap gives its lines back to the next one. */
  private remove(gone: ReadonlySet<Entry>): void {
    const first = this.list.findIndex((entry) => gone.has(entry));
    if (first !== -1) this.firstChange = Math.min(this.firstChange, first);
    for (const entry of gone) {
      if (entry.recap) this.recap.release(entry.recap.id);
      this.drop(entry);
    }
    this.list = this.list.filter((entry) => !gone.has(entry));
  }

  /**
   * Shows what the recap holds that no message shows yet, in the newest message, after everything
   * the event kept: the last entry when it was never sent (a tool result of the active round, the
   * user's new request), else a user message of its own at the end (after an empty assistant
   * message when the last one sent is not the model's: never two user messages in a row, nor one
   * right after tool results). `budget`: the recap's characters. Returns whether a recap was placed.
   */
  placeRecap(budget: number): boolean {
    const last = this.last;
    if (last.recap && !last.sent) this.recap.release(last.recap.id);
    if (!this.recap.waiting) return false;
    const todoKept = this.list.some((entry) => entry.kind === 'tool' && entry.name === 'todo');
    const text = this.recap.place(++this.hosts, budget, todoKept);
    if (text === '') {
      if (last.recap && !last.sent) {
        last.recap = undefined;
        this.touch(last);
      }
      return false;
    }
    let host = last;
    if (last.sent || (last.kind === 'message' && last.message.role !== 'user')) {
      const role = last.kind === 'message' ? last.message.role : 'tool';
      if (role !== 'assistant' && role !== 'system') this.push({ kind: 'message', message: { role: 'assistant', content: '' }, turn: this.turn });
      host = { kind: 'message', message: { role: 'user', content: '' }, turn: this.turn };
      this.push(host);
    }
    host.recap = { id: this.hosts, text };
    this.touch(host);
    return true;
  }

  private withPayload(entry: ToolEntry): boolean {
    return this.windowIsKnown() || entry.round === this.round;
  }

  /** The entry rendered afresh, with its size. */
  private build(entry: Entry): Rendered {
    if (entry.kind === 'message') return renderMessage(entry, entry.recap?.text);
    const withPayload = this.withPayload(entry);
    const message = renderToolEntry(entry, withPayload);
    if (entry.recap) message.content = `${message.content as string}\n\n${entry.recap.text}`;
    return { ...sized(message), withPayload };
  }

  /** An entry leaves the conversation: the total no longer holds it. */
  private drop(entry: Entry): void {
    if (entry.sent) this.prefixVersion++;
    this.total -= entry.counted ?? 0;
    this.digitTotal -= entry.countedDigits ?? 0;
    entry.counted = undefined;
    entry.countedDigits = undefined;
    this.stale.delete(entry);
  }

  /**
   * Window unknown, a round opened since `round`: the results of that round lose their payloads
   * and those of the new one gain theirs. Results are in round order, so the scan stops at the first older one.
   */
  private staleSince(round: number): void {
    this.prefixVersion++;
    for (let i = this.list.length - 1; i > 0; i--) {
      const entry = this.list[i]!;
      if (entry.kind !== 'tool') continue;
      if (entry.round < round) return;
      this.stale.add(entry);
    }
  }

  private foldable(chars: number): Unit[] {
    const protectedFrom = this.protectedFrom();
    const task = this.taskIndex();
    const batch: Unit[] = [];
    let saving = 0;
    for (const unit of this.units()) {
      if (unit.end > protectedFrom || saving >= chars) break;
      if (unit.start === task) continue;
      batch.push(unit);
      for (let i = unit.start; i < unit.end; i++) saving += this.render(this.list[i]!).size + 1;
      // What the unit costs in the recap instead (a line each, its JSON escaping included).
      for (const line of this.unitLines(unit)) saving -= JSON.stringify(line.text).length - 1;
    }
    return batch;
  }

  /** Adds the recap lines of one unit (see {@link unitLines}), the files its calls read or changed, and its task list. */
  private recapLines(unit: Unit): void {
    for (const line of this.unitLines(unit)) this.recap.add(line);
    const first = this.list[unit.start]!;
    if (unit.kind !== 'round' || first.kind !== 'message' || first.message.role !== 'assistant') return;
    this.recap.rounds++;
    for (let i = unit.start + 1; i < unit.end; i++) {
      const entry = this.list[i]!;
      if (entry.kind !== 'tool') continue;
      const call = first.message.tool_calls?.find((candidate) => candidate.id === entry.callId);
      const path = call ? fileOf(call.function.name, call.function.arguments) : undefined;
      // The summary without the path it usually starts with (`src/a.ts: 20 lines` → `read → 20 lines`).
      if (path) this.recap.file(path, `${entry.name} → ${entry.summary.startsWith(`${path}: `) ? entry.summary.slice(path.length + 2) : entry.summary}`);
      if (entry.name === 'todo' && entry.payload !== '') this.recap.setTodo(entry.payload);
    }
  }

  /** The recap lines of one unit: its calls and their summaries, the user's request, the answer. */
  private unitLines(unit: Unit): RecapLine[] {
    const first = this.list[unit.start]!;
    if (unit.kind === 'round' && first.kind === 'message' && first.message.role === 'assistant') {
      const summaries = new Map<string, string>();
      for (let i = unit.start + 1; i < unit.end; i++) {
        const entry = this.list[i]!;
        if (entry.kind === 'tool') summaries.set(entry.callId, entry.summary);
      }
      return roundLines(first.turn, first.message, summaries);
    }
    if (first.kind === 'message' && (unit.kind === 'answer' || (unit.kind === 'user' && first.prompt))) {
      const text = textOf(first.message);
      const line = text === INTERRUPTED_NOTE ? undefined : messageLine(first.turn, unit.kind === 'user' ? 'user' : 'assistant', text);
      return line ? [line] : [];
    }
    return [];
  }

  /** The conversation after the system prompt in units: a round (call + results), an answer, a user message. */
  private units(): Unit[] {
    const units: Unit[] = [];
    const n = this.list.length;
    for (let i = 1; i < n; ) {
      const entry = this.list[i]!;
      let end = i + 1;
      let kind: Unit['kind'];
      if (entry.kind === 'tool') kind = 'round';
      else if (entry.message.role === 'assistant') kind = entry.message.tool_calls?.length ? 'round' : 'answer';
      else kind = 'user';
      if (kind === 'round') while (end < n && this.list[end]!.kind === 'tool') end++;
      units.push({ start: i, end, kind });
      i = end;
    }
    return units;
  }
}

/** A user message. */
export function isUser(entry: Entry | undefined): boolean {
  return entry !== undefined && entry.kind === 'message' && entry.message.role === 'user';
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  return '';
}

/** A message and its size: JSON characters, a character outside ASCII counting 4 (about a token each: CJK, emoji); and its digits. */
export function sized(message: ChatMessage): Rendered {
  const json = JSON.stringify(message);
  let nonAscii = 0;
  let digits = 0;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code > 0x7f) nonAscii++;
    else if (code >= 0x30 && code <= 0x39) digits++;
  }
  return { withPayload: false, message, size: json.length + 3 * nonAscii, digits };
}

/**
 * The mean weight of a character of `text` in what a request adds (see {@link sized} and
 * TokenEstimate): digits and non-ASCII count 4, characters JSON escapes 2. At most the first `sample` characters are looked at.
 */
export function weightOf(text: string, sample = text.length): number {
  const end = Math.min(text.length, sample);
  if (end === 0) return 1;
  let weight = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    weight += code > 0x7f || (code >= 0x30 && code <= 0x39) ? 4 : code < 0x20 || code === 0x22 || code === 0x5c ? 2 : 1;
  }
  return weight / end;
}

/** A message as it goes on the wire: a user message shows its recap (if it hosts one) before its own text, and its images' notes once they went. */
function renderMessage(entry: MessageEntry, recap: string | undefined): Rendered {
  const images = entry.images;
  if (entry.message.role !== 'user' || (!recap && !images)) return sized(entry.message);
  const wrap = (text: string) => (recap ? [recap, text].filter((part) => part !== '').join('\n\n') : text);
  const text = textOf(entry.message);
  if (!images) return sized({ role: 'user', content: wrap(text) });
  if (!images.live) return sized({ role: 'user', content: wrap([text, ...images.list.map((image) => image.note)].join('\n\n')) });
  const message: ChatMessage = {
    role: 'user',
    content: [{ type: 'text', text: wrap(text) }, ...images.list.map((image) => ({ type: 'image_url' as const, image_url: { url: image.url } }))],
  };
  const sizedText = sized({ role: 'user', content: wrap(text) });
  return { withPayload: false, message, size: sizedText.size + images.list.length * IMAGE_TOKENS * CHARS_PER_TOKEN, digits: sizedText.digits };
}
