import { visible } from '../visible-text.js';
import { stripAnsi, type Style } from './style.js';
import { truncate } from './text-width.js';

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
  partial: string;
  startedAt: number;
}

const TAIL_LINES = 3;

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
  return { id, name, args, state: 'running', outputLines: 0, tail: [], partial: '', startedAt: now };
}

/** Adds streamed output: counts lines and keeps the last few for the live tail. */
export function addToolOutput(view: ToolView, text: string): void {
  const parts = (view.partial + text).split('\n');
  view.partial = parts.pop()!;
  for (const line of parts) {
    view.outputLines++;
    view.tail.push(line);
    if (view.tail.length > TAIL_LINES) view.tail.shift();
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

/** `✓ bash npm test — exit 0, 12 lines (output folded)`, cut to the width. */
export function toolLine(view: ToolView, columns: number, style: Style): string {
  const mark = MARK[view.state];
  const colored =
    view.state === 'done' ? style.green(mark) : view.state === 'error' ? style.red(mark) : view.state === 'running' ? style.cyan(mark) : style.yellow(mark);
  // Names from tools may hold control or bidi characters: shown escaped, never acted on.
  const head = visible(`${view.name} ${toolTarget(view.name, view.args)}`);
  const output = view.outputLines + (view.partial ? 1 : 0);
  const folded = view.state !== 'running' && output > 0 ? ` (${output} line${output === 1 ? '' : 's'} of output folded)` : '';
  const summary = view.summary ? ` — ${visible(view.summary.split('\n')[0]!)}` : view.state === 'cancelled' ? ' — cancelled' : '';
  const plain = truncate(`${head}${summary}${folded}`, columns - 3);
  const split = Math.min(head.length, plain.length);
  return `${colored} ${style.bold(plain.slice(0, split))}${style.dim(plain.slice(split))}`;
}

/** The dimmed last lines of a running tool's output, indented under its line. */
export function toolTail(view: ToolView, columns: number, style: Style): string[] {
  const lines = [...view.tail, ...(view.partial ? [view.partial] : [])].slice(-TAIL_LINES);
  return lines.map((line) => style.dim(`  │ ${truncate(visible(stripAnsi(line).replace(/\t/g, '  ').replace(/[\x00-\x1f\x7f]/g, '')), columns - 5)}`));
}
