import type { ChatMessage } from '../model-io/protocol.js';
import { IMAGE_TOKENS } from '../images/image.js';
import { messageLine, Recap, roundLines } from './recap.js';
import { CHARS_PER_TOKEN } from './token-estimate.js';
import { renderToolEntry, type ToolEntry } from './tool-entry.js';

/**
 * The conversation's entries and their shape, for the context manager: how each renders on the
 * wire (cached, with its size for the estimate), the units a compaction folds (a round, an
 * answer, a user message), what is protected (the task and the active round), and folding whole
 * units into the one recap message right after the system prompt.
 */

/** An image sent as an image part for one turn; `note` stands in for it afterwards. */
export interface TurnImage {
  /** A `data:` URL. */
  url: string;
  note: string;
}

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

/** `size` is what counts in the estimate: the JSON's length, a non-ASCII character as 4, an image as IMAGE_TOKENS. */
export type Rendered = { withPayload: boolean; message: ChatMessage; size: number };
export type Entry = (MessageEntry | ToolEntry | RecapEntry) & { sent?: boolean; cache?: Rendered; turn: number };
export type Unit = { start: number; end: number; kind: 'round' | 'answer' | 'user' | 'recap' };

/** The note that stands in for a reply that never came, so two user messages never follow each other. */
export const INTERRUPTED_NOTE = '[no reply: the turn was interrupted]';
/** About what one folded message costs in the recap (for sizing a batch of folds). */
const RECAP_LINE_CHARS = 100;

export class Conversation {
  entries: Entry[];
  recap = new Recap();
  /** The message the recap rides in (a user message right after the system prompt). */
  recapHost: Entry | undefined;
  /** Tool rounds so far (an assistant message with calls opens one). */
  round = 0;
  /** Turns so far (a user's request opens one). */
  turn = 0;
  /** With the window unknown, only the newest round's results carry payloads (asks the context manager). */
  private readonly windowIsKnown: () => boolean;

  constructor(system: string, windowKnown: () => boolean = () => false) {
    this.windowIsKnown = windowKnown;
    this.entries = [{ kind: 'message', message: { role: 'system', content: system }, turn: 0 }];
  }

  get last(): Entry {
    return this.entries[this.entries.length - 1]!;
  }

  render(entry: Entry): Rendered {
    if (entry.kind === 'recap') {
      if (!entry.cache) entry.cache = sized({ role: 'user', content: this.recap.blocks(undefined).before });
      return entry.cache;
    }
    if (entry.kind === 'message') {
      if (!entry.cache) entry.cache = renderMessage(entry, entry === this.recapHost ? this.recap.blocks(entry.turn) : undefined);
      return entry.cache;
    }
    const withPayload = this.windowIsKnown() || entry.round === this.round;
    if (!entry.cache || entry.cache.withPayload !== withPayload) entry.cache = { ...sized(renderToolEntry(entry, withPayload)), withPayload };
    return entry.cache;
  }

  /** Serialised size of the messages array (brackets and commas included). */
  chars(): number {
    let total = 2 + Math.max(0, this.entries.length - 1);
    for (const entry of this.entries) total += this.render(entry).size;
    return total;
  }

  /** Index of the current turn's request (-1 when there is none). */
  taskIndex(): number {
    for (let i = this.entries.length - 1; i > 0; i--) {
      const entry = this.entries[i]!;
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
    for (let i = this.entries.length - 1; i > Math.max(0, task); i--) {
      const entry = this.entries[i]!;
      if (entry.kind !== 'message' || entry.message.role !== 'assistant' || !entry.message.tool_calls?.length) continue;
      if (from !== -1 && entry.round !== (this.entries[from] as MessageEntry).round) break;
      from = i;
    }
    if (from !== -1) return from;
    return task > 0 ? task : this.entries.length;
  }

  /** A way back to this state, for a fold that turned out not to save anything. */
  snapshot(): () => void {
    const saved = { entries: [...this.entries], recap: this.recap.clone(), host: this.recapHost };
    return () => {
      this.entries = saved.entries;
      this.recap = saved.recap;
      this.recapHost = saved.host;
      for (const entry of this.entries) if (entry.kind !== 'tool') entry.cache = undefined;
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
      for (let i = unit.start; i < unit.end; i++) gone.add(this.entries[i]!);
    }
    this.entries = this.entries.filter((entry) => !gone.has(entry));
    return rounds;
  }

  /**
   * Puts the recap in the user message right after the system prompt, or in a user message of its
   * own when none is there; a nudge left right after that message goes too (no two user messages).
   */
  rehost(): void {
    const previous = this.recapHost;
    for (;;) {
      const first = this.entries[1];
      const second = this.entries[2];
      if (!isUser(first) || !isUser(second)) break;
      // Two user messages in a row at the start: fold the one that is neither the task nor a request.
      const drop = first!.kind === 'recap' ? 1 : second!.kind === 'message' && !second!.prompt ? 2 : this.taskIndex() === 1 ? 2 : 1;
      this.recapLines({ start: drop, end: drop + 1, kind: this.entries[drop]!.kind === 'recap' ? 'recap' : 'user' });
      this.entries.splice(drop, 1);
    }
    const first = this.entries[1];
    if (first?.kind === 'recap' || (first?.kind === 'message' && first.message.role === 'user')) {
      this.recapHost = first;
    } else {
      const entry: Entry = { kind: 'recap', turn: 0 };
      this.entries.splice(1, 0, entry);
      this.recapHost = entry;
    }
    if (previous) previous.cache = undefined;
    this.recapHost.cache = undefined;
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
      for (let i = unit.start; i < unit.end; i++) saving += this.render(this.entries[i]!).size + 1;
      saving -= RECAP_LINE_CHARS * (unit.end - unit.start);
    }
    return batch;
  }

  /** The recap lines of one unit: its calls and their summaries, the user's request, the answer. */
  private recapLines(unit: Unit): void {
    const first = this.entries[unit.start]!;
    if (unit.kind === 'round' && first.kind === 'message' && first.message.role === 'assistant') {
      const summaries = new Map<string, string>();
      for (let i = unit.start + 1; i < unit.end; i++) {
        const entry = this.entries[i]!;
        if (entry.kind === 'tool') summaries.set(entry.callId, entry.summary);
      }
      for (const line of roundLines(first.turn, first.message, summaries)) this.recap.add(line);
      this.recap.rounds++;
    } else if (first.kind === 'message' && (unit.kind === 'answer' || (unit.kind === 'user' && first.prompt))) {
      const text = textOf(first.message);
      const line = text === INTERRUPTED_NOTE ? undefined : messageLine(first.turn, unit.kind === 'user' ? 'user' : 'assistant', text);
      if (line) this.recap.add(line);
    }
  }

  /** The conversation after the system prompt in units: a round (call + results), an answer, a user message, the recap. */
  private units(): Unit[] {
    const units: Unit[] = [];
    const n = this.entries.length;
    for (let i = 1; i < n; ) {
      const entry = this.entries[i]!;
      let end = i + 1;
      let kind: Unit['kind'];
      if (entry.kind === 'recap') kind = 'recap';
      else if (entry.kind === 'tool') kind = 'round';
      else if (entry.message.role === 'assistant') kind = entry.message.tool_calls?.length ? 'round' : 'answer';
      else kind = 'user';
      if (kind === 'round') while (end < n && this.entries[end]!.kind === 'tool') end++;
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

/** A message and its size: JSON characters, a character outside ASCII counting 4 (about a token each: CJK, emoji). */
export function sized(message: ChatMessage): Rendered {
  const json = JSON.stringify(message);
  let nonAscii = 0;
  for (let i = 0; i < json.length; i++) if (json.charCodeAt(i) > 0x7f) nonAscii++;
  return { withPayload: false, message, size: json.length + 3 * nonAscii };
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
  return { withPayload: false, message, size: sized({ role: 'user', content: wrap(text) }).size + images.list.length * IMAGE_TOKENS * CHARS_PER_TOKEN };
}
