import type { ChatMessage } from '../model-io/protocol.js';
import { IMAGE_TOKENS, type TurnImage } from '../images/image.js';
import { messageLine, Recap, roundLines, type RecapLine } from './recap.js';
import { CHARS_PER_TOKEN } from './token-estimate.js';
import { renderToolEntry, type ToolEntry } from './tool-entry.js';

/**
 * The conversation's entries and their shape, for the context manager: how each renders on the
 * wire (cached, with its size for the estimate; the sizes' sum is a running total, so every
 * change goes through {@link Conversation.push}, {@link Conversation.touch} or a fold), the units a compaction folds (a round, an
 * answer, a user message), what is protected (the task and the active round), and folding whole
 * units into the one recap message right after the system prompt.
 */

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

/** A user message holding only the recap (when no user message follows the folded part). */
interface RecapEntry {
  kind: 'recap';
}

/**
 * `size` is what counts in the estimate: the JSON's length, a non-ASCII character as 4, an image as
 * IMAGE_TOKENS; `digits`, the digits in it (what a request adds weighs them more, see TokenEstimate).
 */
export type Rendered = { withPayload: boolean; message: ChatMessage; size: number; digits: number };
/** `counted`, `countedDigits`: the size and digits the running totals hold for the entry (see {@link Conversation.chars}). */
export type Entry = (MessageEntry | ToolEntry | RecapEntry) & { sent?: boolean; cache?: Rendered; counted?: number; countedDigits?: number; turn: number };
export type Unit = { start: number; end: number; kind: 'round' | 'answer' | 'user' | 'recap' };

/** The note that stands in for a reply that never came, so two user messages never follow each other. */
export const INTERRUPTED_NOTE = '[no reply: the turn was interrupted]';

export class Conversation {
  private list: Entry[];
  recap = new Recap();
  /** The message the recap rides in (a user message right after the system prompt). */
  recapHost: Entry | undefined;
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
    const saved = { entries: [...this.list], recap: this.recap.clone(), host: this.recapHost };
    return () => {
      this.prefixVersion++;
      for (const entry of this.list) this.drop(entry);
      this.list = saved.entries;
      this.recap = saved.recap;
      this.recapHost = saved.host;
      for (const entry of this.list) {
        entry.counted = undefined;
        entry.countedDigits = undefined;
        if (entry.kind !== 'tool') entry.cache = undefined;
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
    for (const entry of gone) this.drop(entry);
    this.list = this.list.filter((entry) => !gone.has(entry));
    return rounds;
  }

  /**
   * Puts the recap in the user message right after the system prompt, or in a user message of its
   * own when none is there; a nudge left right after that message goes too (no two user messages).
   */
  rehost(): void {
    this.prefixVersion++;
    const previous = this.recapHost;
    for (;;) {
      const first = this.list[1];
      const second = this.list[2];
      if (!isUser(first) || !isUser(second)) break;
      // Two user messages in a row at the start: fold the one that is neither the task nor a request.
      const drop = first!.kind === 'recap' ? 1 : second!.kind === 'message' && !second!.prompt ? 2 : this.taskIndex() === 1 ? 2 : 1;
      this.recapLines({ start: drop, end: drop + 1, kind: this.list[drop]!.kind === 'recap' ? 'recap' : 'user' });
      this.drop(this.list[drop]!);
      this.list.splice(drop, 1);
    }
    const first = this.list[1];
    if (first?.kind === 'recap' || (first?.kind === 'message' && first.message.role === 'user')) {
      this.recapHost = first;
    } else {
      const entry: Entry = { kind: 'recap', turn: 0 };
      this.list.splice(1, 0, entry);
      this.recapHost = entry;
    }
    // The recap moved or changed: its old and new host render anew (the old one may be gone).
    if (previous && previous !== this.recapHost && this.list.includes(previous)) this.touch(previous);
    else if (previous) previous.cache = undefined;
    this.touch(this.recapHost);
  }

  private withPayload(entry: ToolEntry): boolean {
    return this.windowIsKnown() || entry.round === this.round;
  }

  /** The entry rendered afresh, with its size. */
  private build(entry: Entry): Rendered {
    if (entry.kind === 'recap') return sized({ role: 'user', content: this.recap.blocks(undefined).before });
    if (entry.kind === 'message') return renderMessage(entry, entry === this.recapHost ? this.recap.blocks(entry.turn) : undefined);
    const withPayload = this.withPayload(entry);
    return { ...sized(renderToolEntry(entry, withPayload)), withPayload };
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
      if (unit.start === task || unit.kind === 'recap') continue;
      batch.push(unit);
      for (let i = unit.start; i < unit.end; i++) saving += this.render(this.list[i]!).size + 1;
      // What the unit costs in the recap instead (a line each, its JSON escaping included).
      for (const line of this.unitLines(unit)) saving -= JSON.stringify(line.text).length - 1;
    }
    return batch;
  }

  /** Adds the recap lines of one unit (see {@link unitLines}). */
  private recapLines(unit: Unit): void {
    for (const line of this.unitLines(unit)) this.recap.add(line);
    const first = this.list[unit.start]!;
    if (unit.kind === 'round' && first.kind === 'message' && first.message.role === 'assistant') this.recap.rounds++;
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

  /** The conversation after the system prompt in units: a round (call + results), an answer, a user message, the recap. */
  private units(): Unit[] {
    const units: Unit[] = [];
    const n = this.list.length;
    for (let i = 1; i < n; ) {
      const entry = this.list[i]!;
      let end = i + 1;
      let kind: Unit['kind'];
      if (entry.kind === 'recap') kind = 'recap';
      else if (entry.kind === 'tool') kind = 'round';
      else if (entry.message.role === 'assistant') kind = entry.message.tool_calls?.length ? 'round' : 'answer';
      else kind = 'user';
      if (kind === 'round') while (end < n && this.list[end]!.kind === 'tool') end++;
      units.push({ start: i, end, kind });
      i = end;
    }
    return units;
  }
}

/** A user message, or the recap (which goes as one). */
export function isUser(entry: Entry | undefined): boolean {
  return entry !== undefined && (entry.kind === 'recap' || (entry.kind === 'message' && entry.message.role === 'user'));
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

function renderMessage(entry: MessageEntry, recap: { before: string; after: string } | undefined): Rendered {
  const images = entry.images;
  if (entry.message.role !== 'user' || (!recap && !images)) return sized(entry.message);
  const wrap = (text: string) => (recap ? [recap.before, text, recap.after].filter((part) => part !== '').join('\n\n') : text);
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
