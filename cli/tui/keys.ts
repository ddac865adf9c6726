// Decodes raw terminal input (stdin in raw mode) into key events: printable text, named keys,
// and bracketed pastes. Escape sequences that arrive split across reads are held until complete;
// a lone Esc is reported after a short wait, because it is also the first byte of every sequence.

export type KeyName =
  | 'enter'
  | 'newline'
  | 'tab'
  | 'shift-tab'
  | 'backspace'
  | 'delete'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'page-up'
  | 'page-down'
  | 'word-left'
  | 'word-right'
  | 'word-backspace'
  | `ctrl-${'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'k' | 'l' | 'n' | 'o' | 'p' | 'r' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z'}`
  | 'unknown';

export type KeyEvent =
  | { type: 'text'; text: string }
  | { type: 'paste'; text: string }
  | { type: 'key'; name: KeyName; sequence: string };

/** How long a lone Esc waits for the rest of a sequence before it counts as the Esc key. */
export const ESCAPE_WAIT_MS = 25;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const CONTROL: Record<number, KeyName> = {
  0x01: 'ctrl-a',
  0x02: 'ctrl-b',
  0x03: 'ctrl-c',
  0x04: 'ctrl-d',
  0x05: 'ctrl-e',
  0x06: 'ctrl-f',
  0x07: 'ctrl-g',
  0x08: 'backspace',
  0x09: 'tab',
  0x0a: 'newline',
  0x0b: 'ctrl-k',
  0x0c: 'ctrl-l',
  0x0d: 'enter',
  0x0e: 'ctrl-n',
  0x0f: 'ctrl-o',
  0x10: 'ctrl-p',
  0x12: 'ctrl-r',
  0x14: 'ctrl-t',
  0x15: 'ctrl-u',
  0x16: 'ctrl-v',
  0x17: 'ctrl-w',
  0x18: 'ctrl-x',
  0x19: 'ctrl-y',
  0x1a: 'ctrl-z',
  0x7f: 'backspace',
};

/** CSI sequences without modifiers, by their final part. */
const CSI: Record<string, KeyName> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  Z: 'shift-tab',
  '1~': 'home',
  '7~': 'home',
  '4~': 'end',
  '8~': 'end',
  '3~': 'delete',
  '5~': 'page-up',
  '6~': 'page-down',
};

export class KeyDecoder {
  private pending = '';
  private paste: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `onKey` receives every event in order. */
  constructor(private readonly onKey: (event: KeyEvent) => void) {}

  /** Feeds one read from stdin. */
  feed(chunk: string | Buffer): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.drain();
    if (this.pending !== '' && this.paste === undefined) {
      // An incomplete escape sequence: wait briefly, then take what we have as keys.
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, ESCAPE_WAIT_MS);
    }
  }

  /** Reports whatever is held as plain keys (a lone Esc becomes `escape`). */
  flush(): void {
    if (this.paste !== undefined) return;
    const rest = this.pending;
    this.pending = '';
    if (rest.startsWith('\x1b')) {
      this.key('escape', '\x1b');
      if (rest.length > 1) this.feed(rest.slice(1));
    } else if (rest) {
      this.feed(rest);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private key(name: KeyName, sequence: string): void {
    this.onKey({ type: 'key', name, sequence });
  }

  private drain(): void {
    let text = '';
    const flushText = () => {
      if (text) this.onKey({ type: 'text', text });
      text = '';
    };
    while (this.pending.length > 0) {
      if (this.paste !== undefined) {
        const end = this.pending.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible partial end marker for the next read.
          const keep = partialSuffix(this.pending, PASTE_END);
          this.paste += this.pending.slice(0, this.pending.length - keep);
          this.pending = this.pending.slice(this.pending.length - keep);
          return;
        }
        const pasted = this.paste + this.pending.slice(0, end);
        this.paste = undefined;
        this.pending = this.pending.slice(end + PASTE_END.length);
        this.onKey({ type: 'paste', text: pasted.replace(/\r\n?/g, '\n') });
        continue;
      }
      const code = this.pending.charCodeAt(0);
      if (code === 0x1b) {
        flushText();
        const consumed = this.escape();
        if (consumed === 0) return; // incomplete: wait for more
        continue;
      }
      if (code < 0x20 || code === 0x7f) {
        flushText();
        this.key(CONTROL[code] ?? 'unknown', this.pending[0]!);
        this.pending = this.pending.slice(1);
        continue;
      }
      // A run of printable text (surrogate pairs stay together).
      let end = 1;
      while (end < this.pending.length) {
        const next = this.pending.charCodeAt(end);
        if (next < 0x20 || next === 0x7f || next === 0x1b) break;
        end++;
      }
      text += this.pending.slice(0, end);
      this.pending = this.pending.slice(end);
    }
    flushText();
  }

  /** Decodes one sequence at the start of `pending`; returns characters consumed, 0 if incomplete. */
  private escape(): number {
    const input = this.pending;
    if (input.length === 1) return 0;
    const second = input[1]!;
    if (second === '[') {
      // CSI: parameters 0x30–0x3f, intermediates 0x20–0x2f, one final byte 0x40–0x7e.
      let i = 2;
      while (i < input.length && input.charCodeAt(i) >= 0x20 && input.charCodeAt(i) <= 0x3f) i++;
      if (i >= input.length) return 0;
      const final = input.charCodeAt(i);
      if (final < 0x40 || final > 0x7e) {
        this.take(i, 'unknown');
        return i;
      }
      const sequence = input.slice(0, i + 1);
      this.pending = input.slice(i + 1);
      if (sequence === PASTE_START) {
        this.paste = '';
        return i + 1;
      }
      this.key(csiName(sequence.slice(2)), sequence);
      return i + 1;
    }
    if (second === 'O') {
      if (input.length < 3) return 0;
      const sequence = input.slice(0, 3);
      this.pending = input.slice(3);
      const name: KeyName = ({ A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' } as Record<string, KeyName>)[input[2]!] ?? 'unknown';
      this.key(name, sequence);
      return 3;
    }
    // Alt+key: Esc followed by one key.
    const sequence = input.slice(0, 2);
    this.pending = input.slice(2);
    if (second === '\r' || second === '\n') this.key('newline', sequence);
    else if (second === '\x7f' || second === '\b') this.key('word-backspace', sequence);
    else if (second === 'b' || second === 'B') this.key('word-left', sequence);
    else if (second === 'f' || second === 'F') this.key('word-right', sequence);
    else if (second === '\x1b') {
      // Esc Esc: the first is a lone Esc, the second starts over.
      this.pending = input.slice(1);
      this.key('escape', '\x1b');
      return 1;
    } else this.key('unknown', sequence);
    return 2;
  }

  private take(length: number, name: KeyName): void {
    const sequence = this.pending.slice(0, length);
    this.pending = this.pending.slice(length);
    this.key(name, sequence);
  }
}

function csiName(body: string): KeyName {
  const plain = CSI[body];
  if (plain) return plain;
  // Modified keys: `1;5C` (Ctrl+→), `1;3D` (Alt+←), `13;2u` / `27;2;13~` (Shift+Enter).
  const modified = /^1;(\d+)([A-HZ])$/.exec(body);
  if (modified) {
    const mod = Number(modified[1]) - 1;
    const base = CSI[modified[2]!] ?? 'unknown';
    const ctrlOrAlt = (mod & 4) !== 0 || (mod & 2) !== 0;
    if (ctrlOrAlt && base === 'left') return 'word-left';
    if (ctrlOrAlt && base === 'right') return 'word-right';
    return base;
  }
  if (/^(13;\d+u|27;\d+;13~)$/.test(body)) return 'newline';
  const tilde = /^(\d+);\d+~$/.exec(body);
  if (tilde) return CSI[`${tilde[1]}~`] ?? 'unknown';
  return 'unknown';
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) if (marker.startsWith(text.slice(text.length - n))) return n;
  return 0;
}
