import { charWidth } from '../../../cli/tui/text-width.js';

/**
 * A tiny terminal emulator for tests: enough of VT100/xterm (print with auto-wrap and the
 * pending-wrap column, CR, LF with scrolling, CSI A/B/C/D/G/H/J/K, SGR and private modes ignored)
 * to check that the renderer's cursor arithmetic leaves the screen as intended.
 */
export class VirtualTerminal {
  readonly grid: string[][];
  /** Lines scrolled off the top. */
  readonly scrollback: string[] = [];
  row = 0;
  col = 0;
  private pendingWrap = false;

  constructor(
    readonly columns = 80,
    readonly rows = 24,
  ) {
    this.grid = Array.from({ length: rows }, () => Array<string>(columns).fill(' '));
  }

  write(data: string): void {
    let i = 0;
    while (i < data.length) {
      const ch = data[i]!;
      if (ch === '\x1b') {
        const match = /^\x1b\[([?0-9;]*)([ -/]*)([@-~])/.exec(data.slice(i));
        if (!match) {
          i++;
          continue;
        }
        this.csi(match[1]!, match[3]!);
        i += match[0].length;
        continue;
      }
      if (ch === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else if (ch === '\n') {
        this.lineFeed();
        this.pendingWrap = false;
      } else if (ch === '\b') {
        this.col = Math.max(0, this.col - 1);
      } else if (ch >= ' ') {
        const code = data.codePointAt(i)!;
        const char = String.fromCodePoint(code);
        this.print(char, charWidth(code));
        i += char.length;
        continue;
      }
      i++;
    }
  }

  /** The visible screen, trailing spaces trimmed, trailing empty lines dropped. */
  text(): string {
    const lines = this.grid.map((row) => row.join('').replace(/\s+$/, ''));
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /** Scrollback plus screen. */
  all(): string {
    return [...this.scrollback, this.text()].join('\n');
  }

  private print(char: string, width: number): void {
    if (width === 0) return;
    if (this.pendingWrap || this.col + width > this.columns) {
      this.col = 0;
      this.lineFeed();
      this.pendingWrap = false;
    }
    this.grid[this.row]![this.col] = char;
    if (width === 2 && this.col + 1 < this.columns) this.grid[this.row]![this.col + 1] = '';
    this.col += width;
    if (this.col >= this.columns) {
      this.col = this.columns - 1;
      this.pendingWrap = true;
    }
  }

  private lineFeed(): void {
    if (this.row < this.rows - 1) this.row++;
    else {
      this.scrollback.push(this.grid.shift()!.join('').replace(/\s+$/, ''));
      this.grid.push(Array<string>(this.columns).fill(' '));
    }
  }

  private csi(params: string, final: string): void {
    if (params.startsWith('?')) return;
    const n = (index: number, fallback = 1) => {
      const value = Number(params.split(';')[index] || fallback);
      return Number.isFinite(value) && value > 0 ? value : fallback;
    };
    // SGR does not clear a pending wrap (as in xterm and tmux); cursor movement does.
    if ('ABCDGH'.includes(final)) this.pendingWrap = false;
    switch (final) {
      case 'A':
        this.row = Math.max(0, this.row - n(0));
        break;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + n(0));
        break;
      case 'C':
        this.col = Math.min(this.columns - 1, this.col + n(0));
        break;
      case 'D':
        this.col = Math.max(0, this.col - n(0));
        break;
      case 'G':
        this.col = Math.min(this.columns - 1, n(0) - 1);
        break;
      case 'H':
        this.row = Math.min(this.rows - 1, n(0) - 1);
        this.col = Math.min(this.columns - 1, n(1) - 1);
        break;
      case 'J':
        if (params === '2' || params === '3') for (const row of this.grid) row.fill(' ');
        else {
          this.grid[this.row]!.fill(' ', this.col);
          for (let r = this.row + 1; r < this.rows; r++) this.grid[r]!.fill(' ');
        }
        break;
      case 'K':
        this.grid[this.row]!.fill(' ', this.col);
        break;
      default:
        break;
    }
  }
}
