import type { ApprovalRequest } from '../../actors/approver/protocol.js';
import { visible } from '../visible-text.js';
import type { Screen } from './screen.js';
import type { TurnOutcome, UiEvent } from './session-port.js';
import { prefillLabel, spinnerLine } from './spinner.js';
import type { StreamText } from './stream-text.js';
import type { Style } from './style.js';
import { truncate } from './text-width.js';
import { addToolOutput, newToolView, toolLine, toolTail, type ToolView } from './tool-line.js';

/** Diff lines shown under a finished edit; the rest is folded. */
const DIFF_LINES = 12;

/**
 * One turn on screen: its events go into the transcript (streamed text and reasoning, one line
 * per finished tool call, notices), while running tools, their output tails and the spinner stay
 * in the live area.
 */
export class TurnView {
  readonly startedAt: number;
  phase: string;
  aborted = false;
  private readonly tools = new Map<string, ToolView>();

  constructor(
    private readonly screen: Screen,
    private readonly stream: StreamText,
    private readonly style: Style,
    private readonly now: () => number,
    starting: boolean,
    /** Each finished call, for `/last`. */
    private readonly onFinished: (view: ToolView) => void = () => {},
  ) {
    this.startedAt = now();
    this.phase = starting ? 'starting' : 'thinking';
  }

  handle(event: UiEvent): void {
    const { style } = this;
    switch (event.type) {
      case 'text':
        this.phase = 'writing';
        this.stream.write('text', event.text);
        break;
      case 'reasoning':
        this.phase = 'thinking';
        this.stream.write('reasoning', event.text);
        break;
      case 'tool-start':
        this.stream.end();
        this.phase = `running ${event.name}`;
        this.tools.set(event.id, newToolView(event.id, event.name, event.args, this.now()));
        break;
      case 'tool-output': {
        const view = this.tools.get(event.id);
        if (view) addToolOutput(view, event.text);
        break;
      }
      case 'tool-end': {
        const view = this.tools.get(event.id) ?? newToolView(event.id, event.name, {}, this.now());
        this.tools.delete(event.id);
        view.state = event.status;
        view.summary = event.summary;
        this.screen.commit(toolLine(view, this.screen.columns, style, true));
        this.onFinished(view);
        if (event.meta?.diff && event.status === 'done') this.screen.commit(...this.diffLines(event.meta.diff));
        this.phase = 'thinking';
        break;
      }
      case 'notice':
        this.stream.end();
        this.screen.note(`! ${visible(event.message)}`, style.yellow);
        break;
      case 'retry':
        this.stream.end();
        this.screen.note(`retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`, style.dim);
        break;
      case 'waiting':
        this.phase = `waiting for ${event.what}`;
        break;
      case 'prefill':
        this.phase = prefillLabel(event);
        break;
      case 'usage':
      case 'todo':
        break;
    }
    this.screen.schedule();
  }

  /** Closes the turn in the transcript: unfinished tools end cancelled, then how it ended. */
  finish(outcome: TurnOutcome): void {
    const { style } = this;
    this.stream.end();
    for (const view of this.tools.values()) {
      view.state = 'cancelled';
      this.screen.commit(toolLine(view, this.screen.columns, style, true));
      this.onFinished(view);
    }
    this.tools.clear();
    if (outcome.status === 'aborted' || this.aborted) this.screen.commit(style.yellow('■ interrupted'), '');
    else if (outcome.status === 'error') {
      this.screen.note(`✗ ${outcome.error ?? 'the turn failed'}`, style.red);
      this.screen.commit('');
    }
  }

  /**
   * Running tools with their output tails, then the spinner. While a question is open the spinner
   * goes, and so does the line of the call it asks about (the question shows the command already).
   */
  liveLines(columns: number, question?: ApprovalRequest): string[] {
    const { style } = this;
    const lines: string[] = [];
    for (const view of this.tools.values()) {
      if (question && view.name === question.tool && (question.command === undefined || view.args.command === question.command)) continue;
      lines.push(toolLine(view, columns, style), ...toolTail(view, columns, style));
    }
    if (!question) lines.push(style.cyan(truncate(spinnerLine(this.phase, this.now(), this.startedAt), columns - 1)));
    return lines;
  }

  private diffLines(diff: string): string[] {
    const { style } = this;
    // A CRLF file's patch keeps its CRs (so it applies); the terminal must not see them, nor other controls.
    const lines = diff.replace(/\n$/, '').split('\n').map((line) => visible(line.replace(/\r$/, '')));
    const shown = lines.slice(0, DIFF_LINES).map((line) => `  ${line.startsWith('+') ? style.green(line) : line.startsWith('-') ? style.red(line) : style.dim(line)}`);
    if (lines.length > DIFF_LINES) shown.push(style.dim(`  … ${lines.length - DIFF_LINES} more diff lines folded`));
    return shown;
  }
}
