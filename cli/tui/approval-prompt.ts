import type { ApprovalReply, ApprovalRequest } from '../../actors/tool-executor/protocol.js';
import { visible } from '../visible-text.js';
import type { KeyEvent } from './keys.js';
import type { Style } from './style.js';
import { truncate } from './text-width.js';

export const CHOICES = [
  { decision: 'approve', label: 'Approve', key: 'y' },
  { decision: 'decline', label: 'Decline', key: 'n' },
  { decision: 'always', label: 'Always (this session)', key: 'a' },
] as const;

/**
 * The approval question: what will run or change, shown exactly, and a three-way choice made with
 * ↑/↓ (or ←/→) and Enter, or y / n / a. (Esc, handled by the app, interrupts the turn.) A request
 * whose asker remembers the answer itself (`remembered`) offers approve or decline only.
 */
export class ApprovalPrompt {
  selected = 0;
  private readonly choices: readonly (typeof CHOICES)[number][];

  constructor(
    readonly request: ApprovalRequest,
    private readonly decide: (reply: ApprovalReply) => void,
  ) {
    this.choices = request.remembered === undefined ? CHOICES : CHOICES.filter((choice) => choice.decision !== 'always');
  }

  /** The lines printed once into the transcript: why it asks, then the command or the diff. */
  describe(style: Style): string[] {
    const { request } = this;
    // What the model asked for is shown exactly, but a control or bidi character as an escape.
    const lines = [style.yellow(`? ${request.tool} needs approval: ${visible(request.reason)}`)];
    if (request.command !== undefined) {
      for (const line of request.command.split('\n')) lines.push(`  ${style.bold('$')} ${visible(line)}`);
    }
    if (request.path !== undefined && request.command === undefined) lines.push(`  ${style.bold(visible(request.path))}`);
    if (request.diff !== undefined) {
      for (const raw of request.diff.replace(/\n$/, '').split('\n')) {
        const line = visible(raw.replace(/\r$/, ''));
        const colored = line.startsWith('+') && !line.startsWith('+++') ? style.green(line) : line.startsWith('-') && !line.startsWith('---') ? style.red(line) : style.dim(line);
        lines.push(`  ${colored}`);
      }
    }
    return lines;
  }

  /** The menu drawn in the live area. */
  menu(style: Style, columns: number): string[] {
    // The marker shows the choice without colour too (NO_COLOR drops the reverse video).
    const { remembered } = this.request;
    const items = this.choices.map((choice, i) => {
      const label = `${choice.decision === 'approve' && remembered !== undefined ? `Approve, remembered ${remembered}` : choice.label} (${choice.key})`;
      return i === this.selected ? style.inverse(`› ${label} `) : `  ${label} `;
    });
    const keys = this.choices.map((choice) => choice.key).join(' / ');
    return [` ${items.join(' ')}`, style.dim(truncate(`  ↑/↓ to choose, Enter to confirm · ${keys} · Esc interrupts the turn`, columns - 1))];
  }

  /** Handles one key; returns true when the prompt is finished. */
  key(event: KeyEvent): boolean {
    if (event.type === 'text') {
      const choice = this.choices.find((c) => c.key === event.text.toLowerCase());
      if (choice) return this.finish(choice.decision);
      return false;
    }
    if (event.type !== 'key') return false;
    switch (event.name) {
      case 'up':
      case 'left':
      case 'shift-tab':
        this.selected = (this.selected + this.choices.length - 1) % this.choices.length;
        return false;
      case 'down':
      case 'right':
      case 'tab':
        this.selected = (this.selected + 1) % this.choices.length;
        return false;
      case 'enter':
        return this.finish(this.choices[this.selected]!.decision);
      case 'escape':
        return this.finish('decline');
      default:
        return false;
    }
  }

  private finish(decision: ApprovalReply['decision']): true {
    this.decide(decision === 'decline' ? { decision, note: 'the user declined this action' } : { decision });
    return true;
  }
}

/** The key under which an `always` answer is remembered: the exact command, a fetch's domain, or tool + path. */
export function approvalKey(request: ApprovalRequest): string {
  if (request.domain !== undefined) return `${request.tool}\0domain\0${request.domain}`;
  if (request.command !== undefined) return `${request.tool}\0${request.command}`;
  return `${request.tool}\0${request.path ?? ''}\0${request.reason}`;
}
