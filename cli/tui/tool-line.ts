import { visible } from '../visible-text.js';
import { shownSummary } from '../tool-summary.js';
import { stripAnsi, type Style } from './style.js';
import { splitRow, textWidth, truncate } from './text-width.js';

/** What the UI keeps about one tool call while it runs and after. */
export interface ToolView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  state: 'running' | 'awaiting-approval' | 'done' | 'error' | 'declined' | 'cancelled';
  summary?: string;
  /** Output seen so far; only the tail is drawn, the rest stays folded. */
  outputLines: number;
  tail: string[];
  /** The line being written (its start, up to {@link LINE_KEEP} characters). */
  partial: string;
  /** The last output ended with a `\r`: a line end if `\n` follows, else the line is written over. */
  crPending: boolean;
  /** The whole output (up to {@link OUTPUT_KEEP_CHARS}), for `/last`. */
  output: string;
  /** Characters of output past what `output` keeps. */
  outputDropped: number;
  startedAt: number;
}

const TAIL_LINES = 3;
/** Characters of an unfinished line kept for the tail, which shows one row of it. */
const LINE_KEEP = 1024;
/** Output kept per call for `/last`; more is counted, not kept (the model's payload has its own cap). */
export const OUTPUT_KEEP_CHARS = 256 * 1024;

/** The one-word-ish target of a call: the path, pattern, command or task. */
export function toolTarget(name: string, args: Record<string, unknown>): string {
  const str = (key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
  switch (name) {
    case 'read': {
      const offset = typeof args.offset === 'number' ? `:${args.offset}` : '';
      return `${str('path') ?? '?'}${offset}`;
    }
    case 'list':
      return str('path') ?? '.';
    case 'glob':
      return str('path') ? `${str('pattern')} in ${str('path')}` : (str('pattern') ?? '?');
    case 'grep':
      return `/${str('pattern') ?? ''}/${str('path') ? ` in ${str('path')}` : ''}${str('glob') ? ` (${str('glob')})` : ''}`;
    case 'edit':
    case 'write':
      return str('path') ?? '?';
    case 'bash':
      return (str('command') ?? '').split('\n')[0]! + ((str('command') ?? '').includes('\n') ? ' …' : '');
    case 'subagent':
      return str('task')?.split('\n')[0] ?? '';
    default: {
      const first = Object.values(args).find((v) => typeof v === 'string') as string | undefined;
      return first?.split('\n')[0] ?? '';
    }
  }
}

export function newToolView(id: string, name: string, args: Record<string, unknown>, now: number): ToolView {
  return { id, name, args, state: 'running', outputLines: 0, tail: [], partial: '', crPending: false, output: '', outputDropped: 0, startedAt: now };
}

/**
 * Adds streamed output: counts lines and keeps the last few for the live tail. A carriage return
 * writes the line over, as in a terminal, so a progress bar's tail is its latest state; the work
 * per delta is the delta's (re-splitting the whole unfinished line made 20,000 progress updates
 * cost 54 s of the terminal's thread).
 */
export function addToolOutput(view: ToolView, text: string): void {
  const room = OUTPUT_KEEP_CHARS - view.output.length;
  view.output += text.slice(0, Math.max(0, room));
  view.outputDropped += Math.max(0, text.length - Math.max(0, room));
  const pieces = text.split('\n');
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) {
      view.outputLines++;
      view.tail.push(view.partial);
      if (view.tail.length > TAIL_LINES) view.tail.shift();
      view.partial = '';
      view.crPending = false;
    }
    let piece = pieces[i]!;
    if (piece === '') continue;
    if (view.crPending) {
      view.partial = '';
      view.crPending = false;
    }
    if (piece.endsWith('\r')) {
      view.crPending = true;
      piece = piece.slice(0, -1);
    }
    const cr = piece.lastIndexOf('\r');
    if (cr >= 0) {
      view.partial = '';
      piece = piece.slice(cr + 1);
    }
    if (view.partial.length < LINE_KEEP) view.partial += piece.slice(0, LINE_KEEP - view.partial.length);
  }
}

const MARK: Record<ToolView['state'], string> = {
  running: '●',
  'awaiting-approval': '?',
  done: '✓',
  error: '✗',
  declined: '⊘',
  cancelled: '■',
};

/**
 * `✓ bash npm test — exit 0, 12 lines (output folded)`. A running call's line is cut to the width
 * (it is redrawn in the live area); a finished one is word-wrapped under its mark, so the summary
 * is whole on a narrow terminal too.
 */
export function toolLine(view: ToolView, columns: number, style: Style, wrap = false): string {
  const mark = MARK[view.state];
  const colored =
    view.state === 'done' ? style.green(mark) : view.state === 'error' ? style.red(mark) : view.state === 'running' ? style.cyan(mark) : style.yellow(mark);
  // Names from tools may hold control or bidi characters: shown escaped, never acted on.
  const target = toolTarget(view.name, view.args);
  const head = visible(target === '' ? view.name : `${view.name} ${target}`);
  const output = view.outputLines + (view.partial ? 1 : 0);
  const folded = view.state !== 'running' && output > 0 ? ` (${output} line${output === 1 ? '' : 's'} of output folded · /last shows it)` : '';
  const summary = view.summary ? ` — ${visible(shownSummary(view.name, view.args, view.summary))}` : view.state === 'cancelled' ? ' — cancelled' : '';
  const text = `${head}${summary}${folded}`;
  const paint = (row: string, from: number) => {
    const split = Math.max(0, Math.min(head.length - from, row.length));
    return `${style.bold(row.slice(0, split))}${style.dim(row.slice(split))}`;
  };
  if (!wrap) return `${colored} ${paint(truncate(text, columns - 3), 0)}`;
  const rows: string[] = [];
  let rest = text;
  let from = 0;
  while (true) {
    if (textWidth(rest) <= columns - 3) {
      rows.push(`${rows.length === 0 ? `${colored} ` : '  '}${paint(rest, from)}`);
      return rows.join('\n');
    }
    const [row, tail] = splitRow(rest, columns - 3);
    rows.push(`${rows.length === 0 ? `${colored} ` : '  '}${paint(row, from)}`);
    from += rest.length - tail.length;
    rest = tail;
  }
}

/** The dimmed last lines of a running tool's output, indented under its line. */
export function toolTail(view: ToolView, columns: number, style: Style): string[] {
  const lines = [...view.tail, ...(view.partial ? [view.partial] : [])].slice(-TAIL_LINES);
  return lines.map((line) => style.dim(`  │ ${truncate(visible(stripAnsi(line).replace(/\t/g, '  ').replace(/[\x00-\x1f\x7f]/g, '')), columns - 5)}`));
}
