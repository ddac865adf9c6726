import type { ChatMessage } from '../model-io/protocol.js';

// The recap a compaction event leaves where it folded whole rounds away (SPEC §5): one line per
// folded call (`name args → summary`), per earlier request of the user and per answer, oldest
// first; below them the files the folded part read or changed (the last call on each) and the
// task list as the model last set it (`todo`), which outlive the lines when the budget drops them.
//
// It rides in the newest message of the event's request, after everything the event kept, never
// in front of it: what an event keeps then stays where the engine holds it, byte for byte, and an
// engine that reuses moved chunks (llama.cpp `--cache-reuse`) finds all of it again. A
// message once sent with its recap keeps it as it was (the text is frozen in it); a later event
// that folds that message shows its lines again in its own recap, and one that keeps it adds only
// what is new.
//
// It is deterministic, built from what reika already holds (the calls, their one-line summaries,
// the model's own words beside its calls), not written by the model. A model-written note would
// cost one more request at the fullest point of the window (prefill is cached, but the note is
// generated at a local engine's 10–50 tokens/s, i.e. 10–60 s per event, and fails or is cut like
// any reply), for facts the summaries mostly carry already; the model's own text beside its calls
// is kept, which is where it writes down what it found.

/** One line of the recap; `file`, the file its call read or changed; `host`, the message showing it (none: still to be shown). */
export interface RecapLine {
  turn: number;
  text: string;
  file?: string;
  host?: number;
}

/** A file the folded part read or changed: the last call on it. */
interface FileLine {
  text: string;
  host?: number;
}

/** A recap line's longest quote of a message (the user's request, an answer, the model's note). */
const QUOTE_CHARS = 240;
/** A string argument longer than this is shortened in a call's line. */
const ARG_CHARS = 80;
/** The files block lists at most this many (the most recently touched). */
const MAX_FILES = 40;
/** Tools whose `path` argument names a file they read or change. */
const FILE_TOOLS = new Set(['read', 'edit', 'write', 'multi_edit', 'multiedit', 'multi-edit', 'patch', 'apply_patch']);

export class Recap {
  private lines: RecapLine[] = [];
  private files = new Map<string, FileLine>();
  private todo: { text: string; host?: number } | undefined;
  /** Lines dropped (oldest first) to stay within the budget, not yet said in a shown recap. */
  private omitted = 0;
  /** Tool rounds folded into this recap so far. */
  rounds = 0;

  clone(): Recap {
    const copy = new Recap();
    copy.lines = this.lines.map((line) => ({ ...line }));
    copy.files = new Map([...this.files].map(([path, file]) => [path, { ...file }]));
    copy.todo = this.todo ? { ...this.todo } : undefined;
    copy.omitted = this.omitted;
    copy.rounds = this.rounds;
    return copy;
  }

  /** Something folded waits to be shown in a recap. */
  get waiting(): boolean {
    return this.omitted > 0 || (this.todo !== undefined && this.todo.host === undefined) || this.lines.some((line) => line.host === undefined) || [...this.files.values()].some((file) => file.host === undefined);
  }

  add(line: RecapLine): void {
    this.lines.push({ turn: line.turn, text: line.text, ...(line.file ? { file: line.file } : {}) });
  }

  /** A folded call on a file (read, edit, write…): the files block keeps the last one on each. */
  file(path: string, text: string): void {
    this.files.delete(path);
    this.files.set(path, { text });
  }

  /** A folded `todo` call's list: the newest one is shown. */
  setTodo(text: string): void {
    this.todo = { text };
  }

  /** The message `host` showed its recap and is gone (folded): what it showed is to be shown again. */
  release(host: number): void {
    for (const line of this.lines) if (line.host === host) line.host = undefined;
    for (const file of this.files.values()) if (file.host === host) file.host = undefined;
    if (this.todo?.host === host) this.todo.host = undefined;
  }

  /**
   * The recap text for the message `host`: what no other message shows yet, the oldest lines
   * dropped to stay within `budget` characters (the files and the task list first take their
   * share). `todoKept`: a newer task list is still in the conversation, so the folded one is not
   * shown. Empty when nothing waits.
   */
  place(host: number, budget: number, todoKept: boolean): string {
    const pending = this.lines.filter((line) => line.host === undefined);
    const room = (filesBlock: string, todoBlock: string) => Math.max(0, budget - filesBlock.length - todoBlock.length);
    const todo = this.todo && this.todo.host === undefined && !todoKept ? this.todo : undefined;
    if (this.todo && this.todo.host === undefined) this.todo.host = host;
    const todoBlock = todo ? `\nYour task list as you last set it (todo):\n${todo.text}` : '';
    const files = [...this.files.entries()].filter(([, file]) => file.host === undefined);
    for (const [, file] of files) file.host = host;
    // The oldest lines go first; a file whose last call keeps its line needs no entry of its own, so
    // lines and files block settle together (dropping lines lists their files, which takes room).
    const block = (from: number) => this.filesBlock(files, new Set(pending.slice(from).map((line) => line.file)), budget / 2);
    let drop = fit(pending, room('', todoBlock));
    let filesBlock = block(drop);
    // Each pass only drops more (at most all lines but the newest), so this ends.
    for (let next = Math.max(drop, fit(pending, room(filesBlock, todoBlock))); next !== drop; next = Math.max(drop, fit(pending, room(filesBlock, todoBlock)))) {
      drop = next;
      filesBlock = block(drop);
    }
    if (drop > 0) {
      const dropped = new Set(pending.slice(0, drop));
      this.lines = this.lines.filter((line) => !dropped.has(line));
      this.omitted += drop;
    }
    const shown = pending.slice(drop);
    for (const line of shown) line.host = host;
    if (shown.length === 0 && this.omitted === 0 && filesBlock === '' && todoBlock === '') return '';
    const omitted = this.omitted > 0 ? `\n(… ${this.omitted} older line${this.omitted === 1 ? '' : 's'} of this recap dropped)` : '';
    this.omitted = 0;
    return `[Recap by reika: to fit the context window, older parts of this conversation were folded into these lines (oldest first; they came before the messages still shown in full; the outputs are gone, run a tool again if you need one)${omitted}${shown.map((line) => `\n${line.text}`).join('')}${filesBlock}${todoBlock}\n]`;
  }

  /** The files whose last call has no line shown (`listed` holds those that do), the most recently touched first to go in, within `room` characters. */
  private filesBlock(files: ReadonlyArray<[string, FileLine]>, listed: ReadonlySet<string | undefined>, room: number): string {
    const unlisted = files.filter(([path]) => !listed.has(path));
    let shown: Array<[string, FileLine]> = [];
    for (let i = unlisted.length - 1, used = 0; i >= 0 && shown.length < MAX_FILES; i--) {
      const [path, file] = unlisted[i]!;
      used += path.length + file.text.length + 5;
      if (used > room) break;
      shown = [unlisted[i]!, ...shown];
    }
    if (shown.length === 0) return '';
    const more = unlisted.length > shown.length ? `; ${unlisted.length - shown.length} more not listed` : '';
    return `\nFiles the folded part read or changed whose lines were dropped (the last call on each${more}):${shown.map(([path, file]) => `\n- ${path}: ${file.text}`).join('')}`;
  }
}

/** How many of the oldest `lines` to drop so that the rest take at most `room` characters (the newest always stays). */
function fit(lines: readonly RecapLine[], room: number): number {
  let drop = 0;
  let chars = lines.reduce((sum, line) => sum + line.text.length + 1, 0);
  while (drop < lines.length - 1 && chars > room) chars -= lines[drop++]!.text.length + 1;
  return drop;
}

/** The recap lines of one folded tool round: the model's own note, then one line per call. */
export function roundLines(turn: number, message: Extract<ChatMessage, { role: 'assistant' }>, summaries: ReadonlyMap<string, string>): RecapLine[] {
  const lines: RecapLine[] = [];
  const note = typeof message.content === 'string' ? message.content.trim() : '';
  if (note !== '') lines.push({ turn, text: `- you wrote: ${quote(note)}` });
  for (const call of message.tool_calls ?? []) {
    const summary = summaries.get(call.id) ?? '(no result)';
    const file = fileOf(call.function.name, call.function.arguments);
    lines.push({ turn, text: `- ${call.function.name} ${shortArguments(call.function.arguments)} → ${summary}`, ...(file ? { file } : {}) });
  }
  return lines;
}

/** The file a call read or changed (its `path` argument, for the tools that take one), if any. */
export function fileOf(name: string, json: string): string | undefined {
  if (!FILE_TOOLS.has(name)) return undefined;
  try {
    const value = JSON.parse(json) as unknown;
    const path = typeof value === 'object' && value !== null ? (value as { path?: unknown; file_path?: unknown }).path ?? (value as { file_path?: unknown }).file_path : undefined;
    return typeof path === 'string' && path !== '' ? path : undefined;
  } catch {
    return undefined;
  }
}

/** A recap line for a message that is not a round: the user's request or the model's answer. */
export function messageLine(turn: number, who: 'user' | 'assistant', text: string): RecapLine | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return { turn, text: who === 'user' ? `- the user asked: ${quote(trimmed)}` : `- you answered: ${quote(trimmed)}` };
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return `"${line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS - 1)}…` : line}"`;
}

/** A call's JSON arguments with long strings shortened (`"…(12,345 chars)"`), for one line. */
export function shortArguments(json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return json.length > ARG_CHARS ? `${json.slice(0, ARG_CHARS)}…` : json;
  }
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' && v.length > ARG_CHARS ? `${v.slice(0, ARG_CHARS - 20)}…(${v.length.toLocaleString('en-US')} chars)` : v,
  );
  return text.length > 4 * ARG_CHARS ? `${text.slice(0, 4 * ARG_CHARS)}…` : text;
}
