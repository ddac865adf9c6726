import type { Dialect, Scan, ScanContext, TextItem } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/table.js';
import { unknownMarkup } from '../dialects/unknown-markup.js';
import type { ToolIndex } from './tool-index.js';

export type { TextItem } from '../dialects/dialect.js';

// Text tool calls: models that print their calls instead of using native `tool_calls`, in any
// family of the dialect table (`dialects/table.ts`), only for tools offered in the request.
//
// {@link scanTextCalls} is a pure function of the text so far: it returns what is settled and how
// far, holding back anything that may still become a call (a partial opener, an unclosed block, a
// line that starts like a call). Feeding text in any pieces therefore gives the same items as
// parsing it whole, and the user never sees markup that becomes a call. Prose is settled at once:
// the scan jumps from one possible opener to the next with one regular expression.

export interface ScanResult {
  items: TextItem[];
  /** Characters settled; the rest must be scanned again with more text. */
  consumed: number;
}

/** Which channel is scanned. */
export interface ScanOptions {
  /**
   * `reasoning`: no Python-style lines, where a line such as `read(path="a.ts")` is usually a
   * plan, not a call; every marked or bracketed form still counts (leaked calls).
   */
  channel?: 'text' | 'reasoning';
  /** The text begins the reply (nothing of it was settled before). */
  messageStart?: boolean;
  /** The text begins inside a fenced code block opened earlier in the reply. */
  inFence?: boolean;
  /** The text begins inside `inline code` opened earlier on its line. */
  inInline?: boolean;
}

interface Opener {
  text: string;
  dialect: Dialect;
}

/** The table, then the safety net for call markup no entry knows (tried last). */
const SCANNED = [...DIALECTS, unknownMarkup];
const OPENERS: Opener[] = SCANNED.flatMap((dialect) => dialect.openers.map((text) => ({ text, dialect })));
const LINE_START = DIALECTS.filter((dialect) => dialect.lineStart);
/** Openers by first character, in table order. */
const BY_FIRST = new Map<string, Opener[]>();
for (const opener of OPENERS) {
  const list = BY_FIRST.get(opener.text[0]!) ?? [];
  list.push(opener);
  BY_FIRST.set(opener.text[0]!, list);
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\\/-]/g, '\\$&');
const SYMBOL_STARTS = [...BY_FIRST.keys()].filter((c) => !/[A-Za-z]/.test(c));
const WORD_OPENERS = OPENERS.filter((opener) => /^[A-Za-z]/.test(opener.text));
/** Where a call may start: an opener's first symbol, a word opener, or a line break. */
function candidates(lines: boolean): RegExp {
  const parts = [`[${SYMBOL_STARTS.map(escape).join('')}${lines ? '\\n' : ''}]`, ...WORD_OPENERS.map((opener) => escape(opener.text))];
  return new RegExp(parts.join('|'), 'g');
}
const CANDIDATES_TEXT = candidates(true);
const CANDIDATES_REASONING = candidates(false);

/** True when the text from `i` to its end is a proper prefix of `tag`. */
function partialTag(text: string, i: number, tag: string): boolean {
  const rest = text.length - i;
  return rest > 0 && rest < tag.length && tag.startsWith(text.slice(i));
}

/** A line of `text` starting at `i` that opens or closes a code fence (up to 3 spaces, then ```). */
function fenceLine(text: string, i: number): boolean {
  let j = i;
  while (j < text.length && j - i < 3 && text[j] === ' ') j++;
  return text.startsWith('```', j);
}

/** How many fence lines `text` holds (`atLineStart`: its first character begins a line). */
export function fenceLines(text: string, atLineStart: boolean): number {
  if (!text.includes('```')) return 0;
  let i = atLineStart ? 0 : text.indexOf('\n') + 1;
  if (i === 0 && !atLineStart) return 0;
  let count = 0;
  for (;;) {
    if (fenceLine(text, i)) count++;
    const next = text.indexOf('\n', i);
    if (next === -1) return count;
    i = next + 1;
  }
}

/** Backticks in `text` from `from` to `to` (odd: inline code is open). */
function ticks(text: string, from: number, to: number): number {
  let count = 0;
  for (let k = text.indexOf('`', from); k !== -1 && k < to; k = text.indexOf('`', k + 1)) count++;
  return count;
}

/**
 * Whether `i` is inside code: a fence opened before it, or inline code on its line; `options`
 * says where the text begins (state carried from the text settled before it).
 */
function codeAt(text: string, i: number, atLineStart: boolean, options: ScanOptions): boolean {
  if ((fenceLines(text.slice(0, i), atLineStart) % 2 === 1) !== (options.inFence ?? false)) return true;
  const line = text.lastIndexOf('\n', i - 1) + 1;
  const carried = line === 0 && !atLineStart && options.inInline ? 1 : 0;
  return (ticks(text, line, i) + carried) % 2 === 1;
}

/** Tries every family whose opener is at `i` (and the line-start ones when `lineStart`). */
function scanAt(text: string, i: number, context: ScanContext, lineStart: boolean, fences: boolean): Scan {
  for (const opener of BY_FIRST.get(text[i]!) ?? []) {
    if (!fences && opener.text.startsWith('```')) continue;
    let scan: Scan;
    if (text.startsWith(opener.text, i)) scan = opener.dialect.scan(text, i, opener.text, context);
    else if (!context.final && partialTag(text, i, opener.text)) scan = { state: 'incomplete' };
    else continue;
    if (scan.state !== 'none') return scan;
  }
  if (lineStart) {
    for (const dialect of LINE_START) {
      const scan = dialect.scan(text, i, '', context);
      if (scan.state !== 'none') return scan;
    }
  }
  return { state: 'none' };
}

/**
 * Scans `text` for calls. `atLineStart` says whether `text` begins a line (Python-style calls
 * must stand on their own line); `final` says no more text will come.
 */
export function scanTextCalls(text: string, atLineStart: boolean, tools: ToolIndex, final: boolean, options: ScanOptions = {}): ScanResult {
  if (tools.names.size === 0) return { items: text ? [{ type: 'text', text }] : [], consumed: text.length };
  const channel = options.channel ?? 'text';
  const lines = channel === 'text';
  const context: ScanContext = {
    tools,
    final,
    channel,
    messageStart: options.messageStart ? 0 : -1,
    inner: (body, at) => scanAt(body, at, context, true, false),
    codeAt: (at) => codeAt(text, at, atLineStart, options),
  };
  const items: TextItem[] = [];
  let settled = 0; // text before this index is plain text not yet pushed
  const pushText = (to: number) => {
    if (to > settled) items.push({ type: 'text', text: text.slice(settled, to) });
  };
  const pattern = lines ? CANDIDATES_TEXT : CANDIDATES_REASONING;
  let i = 0;
  let held = -1; // where an incomplete call begins
  while (i < text.length) {
    const lineStart = lines && (i === 0 ? atLineStart : text[i - 1] === '\n');
    let at = i;
    if (lineStart) {
      while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
      if (at >= text.length) {
        if (!final) held = i;
        break;
      }
    } else {
      pattern.lastIndex = i;
      const found = pattern.exec(text);
      if (!found) {
        i = text.length;
        break;
      }
      if (text[found.index] === '\n') {
        i = found.index + 1;
        continue;
      }
      at = i = found.index;
    }
    const scan = scanAt(text, at, context, lineStart, true);
    if (scan.state === 'incomplete') {
      held = i;
      break;
    }
    if (scan.state === 'items') {
      pushText(at);
      items.push(...scan.items);
      settled = i = scan.end;
      continue;
    }
    i = at + 1;
  }
  let consumed = held === -1 ? text.length : held;
  if (!final && held === -1) {
    // A word opener (`functools[`) may be arriving: hold its beginning back.
    for (const opener of WORD_OPENERS) {
      for (let k = Math.min(opener.text.length - 1, text.length); k > 0; k--) {
        if (opener.text.startsWith(text.slice(text.length - k))) {
          consumed = Math.min(consumed, text.length - k);
          break;
        }
      }
    }
  }
  consumed = Math.max(consumed, settled);
  pushText(consumed);
  return { items, consumed };
}

/** Past this many held-back characters, rescans are rationed (see `push`). */
const LARGE_HOLD = 2048;
/** Markers that can end a held call; a large hold is rescanned when one arrives. */
const CLOSERS = ['</tool_call>', '</function>', '<|END_ACTION|>', '<|END_THINKING|>', '<|action_end|>', '<|call|>', '<|tool_call_end|>', '<|tool_calls_section_end|>', '▁end｜>', '_end|>', '<|python_end|>', '</function_calls>', '```', '<tool_call|>', '</function_call>', '<|eot_id|>', '<|eom_id|>', '</arg_value>', '[TOOL_CALLS]', '>>>', 'invoke>', 'calls>', '<end_function_call>', '<|tools_suffix|>', '<|close|>', 'call_end｜>', 'calls_end｜>'];

/** The incremental driver: push text as it streams, `end()` when the stream is over. */
export class TextCallParser {
  private buffer = '';
  private atLineStart = true;
  /** Some of the reply was settled already. */
  private started = false;
  /** Buffer length when it was last scanned and held back whole. */
  private heldAt = 0;
  /** The settled text left a code fence open, or inline code open on its last line. */
  private inFence = false;
  private inInline = false;

  /** The options for a buffer that begins the reply. */
  private readonly firstOptions: ScanOptions;

  constructor(
    private readonly tools: ToolIndex,
    private readonly options: ScanOptions = {},
  ) {
    this.firstOptions = { ...options, messageStart: true };
  }

  push(text: string): TextItem[] {
    this.buffer += text;
    // A large block still being written (a whole file as a call argument) would be rescanned on
    // every delta: quadratic. Rescan it only when a closing marker may have arrived or it grew by
    // half; `end()` always scans, so the items are the same, only possibly found a little later.
    if (this.heldAt > LARGE_HOLD && this.buffer.length < this.heldAt * 1.5) {
      const tail = this.buffer.slice(Math.max(0, this.buffer.length - text.length - 30));
      if (!CLOSERS.some((closer) => tail.includes(closer))) return [];
    }
    return this.run(false);
  }

  end(): TextItem[] {
    return this.run(true);
  }

  /** Text held back so far (a possible call still being written). */
  get pending(): string {
    return this.buffer;
  }

  private run(final: boolean): TextItem[] {
    if (this.buffer.length === 0) return [];
    const options = this.started ? this.options : this.firstOptions;
    const { items, consumed } = scanTextCalls(this.buffer, this.atLineStart, this.tools, final, this.inFence || this.inInline ? { ...options, inFence: this.inFence, inInline: this.inInline } : options);
    if (consumed > 0) {
      const tick = this.buffer.indexOf('`');
      if (tick !== -1 && tick < consumed) {
        if (fenceLines(this.buffer.slice(0, consumed), this.atLineStart) % 2 === 1) this.inFence = !this.inFence;
        const line = this.buffer.lastIndexOf('\n', consumed - 1) + 1;
        this.inInline = ((line === 0 && this.inInline ? 1 : 0) + ticks(this.buffer, line, consumed)) % 2 === 1;
      } else if (this.inInline && this.buffer.lastIndexOf('\n', consumed - 1) !== -1) {
        this.inInline = false;
      }
      this.started = true;
      this.atLineStart = this.buffer[consumed - 1] === '\n';
      this.buffer = this.buffer.slice(consumed);
    }
    this.heldAt = consumed === 0 ? this.buffer.length : 0;
    return items;
  }
}
