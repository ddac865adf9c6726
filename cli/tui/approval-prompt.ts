import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import { visible } from '../visible-text.js';
import type { KeyEvent } from './keys.js';
import type { Style } from './style.js';
import { textWidth, truncate } from './text-width.js';

/** One answer of the menu; `scope`: where an "Always" writes its rule; `reason`: a decline that says why. */
export interface Choice {
  decision: ApprovalReply['decision'];
  label: string;
  key: string;
  scope?: 'local' | 'user';
  reason?: true;
}

const APPROVE: Choice = { decision: 'approve', label: 'Approve', key: 'y' };
const DECLINE: Choice = { decision: 'decline', label: 'Decline', key: 'n' };
const DECLINE_WHY: Choice = { decision: 'decline', label: 'Decline, say why', key: 'r', reason: true };

/**
 * The answers a request offers: approve or decline (also with a one-line reason for the model);
 * "Always" writes the request's rules to the project's `.reika/settings.local.json` or the user's
 * settings when it has rules to write, else lasts the session; none when the asker remembers the
 * answer itself.
 */
export function choicesFor(request: ApprovalRequest): Choice[] {
  if (request.remembered !== undefined || request.everyTime) return [APPROVE, DECLINE, DECLINE_WHY];
  if (request.rules && request.rules.length > 0) {
    return [APPROVE, DECLINE, { decision: 'always', label: 'Always here', key: 'a', scope: 'local' }, { decision: 'always', label: 'Always, every project', key: 'u', scope: 'user' }, DECLINE_WHY];
  }
  return [APPROVE, DECLINE, { decision: 'always', label: 'Always (this session)', key: 'a' }, DECLINE_WHY];
}

/**
 * The approval question: what will run or change, shown exactly, and a choice made with ↑/↓ (or
 * ←/→) and Enter, or its key. "Decline, say why" turns the menu into a one-line entry whose text
 * the model gets with the decline (Enter sends it, Esc goes back to the menu). Esc in the menu,
 * handled by the app, interrupts the turn.
 */
export class ApprovalPrompt {
  selected = 0;
  readonly choices: readonly Choice[];
  /** The reason being typed, while "Decline, say why" is open. */
  private reason: string | undefined;

  constructor(
    readonly request: ApprovalRequest,
    private readonly decide: (reply: ApprovalReply) => void,
  ) {
    this.choices = choicesFor(request);
  }

  /** True while the reason is being typed (Esc then goes back to the menu instead of interrupting). */
  get typing(): boolean {
    return this.reason !== undefined;
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
    if (request.rules && request.rules.length > 0 && request.remembered === undefined) {
      lines.push(style.dim(`  "Always" allows ${request.rules.map((rule) => visible(rule)).join(', ')}`));
    }
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
    if (this.reason !== undefined) {
      return [` ${style.bold('Why not?')} › ${visible(this.reason)}${style.inverse(' ')}`, style.dim(truncate('  Enter declines and tells the model why · Esc goes back to the choices', columns - 1))];
    }
    // The marker shows the choice without colour too (NO_COLOR drops the reverse video).
    const { remembered } = this.request;
    const items = this.choices.map((choice, i) => {
      const label = `${choice.decision === 'approve' && remembered !== undefined ? `Approve, remembered ${remembered}` : choice.label} (${choice.key})`;
      const plain = i === this.selected ? `› ${label} ` : `  ${label} `;
      return { width: textWidth(plain), text: i === this.selected ? style.inverse(plain) : plain };
    });
    // As many answers per row as the terminal is wide: a narrow one gets two rows, not a wrapped line.
    const rows: string[][] = [[]];
    let used = 1;
    for (const item of items) {
      if (rows.at(-1)!.length > 0 && used + 1 + item.width > columns - 1) {
        rows.push([]);
        used = 1;
      }
      used += (rows.at(-1)!.length > 0 ? 1 : 0) + item.width;
      rows.at(-1)!.push(item.text);
    }
    const keys = this.choices.map((choice) => choice.key).join(' / ');
    return [...rows.map((row) => ` ${row.join(' ')}`), style.dim(truncate(`  ↑/↓ to choose, Enter to confirm · ${keys} · Esc interrupts the turn`, columns - 1))];
  }

  /** Handles one key; returns true when the prompt is finished. */
  key(event: KeyEvent): boolean {
    if (this.reason !== undefined) return this.typeReason(event);
    if (event.type === 'text') {
      const choice = this.choices.find((c) => c.key === event.text.toLowerCase());
      if (choice) return this.choose(choice);
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
        return this.choose(this.choices[this.selected]!);
      case 'escape':
        return this.finish({ decision: 'decline', note: 'the user declined this action' });
      default:
        return false;
    }
  }

  private typeReason(event: KeyEvent): boolean {
    if (event.type === 'text' || event.type === 'paste') {
      this.reason += event.text.replace(/[\r\n]+/g, ' ');
      return false;
    }
    switch (event.name) {
      case 'backspace':
        this.reason = [...this.reason!].slice(0, -1).join('');
        return false;
      case 'word-backspace':
      case 'ctrl-w':
        this.reason = this.reason!.replace(/\S+\s*$/, '');
        return false;
      case 'ctrl-u':
        this.reason = '';
        return false;
      case 'escape':
        this.reason = undefined;
        return false;
      case 'enter': {
        const why = this.reason!.trim();
        return this.finish({ decision: 'decline', note: why === '' ? 'the user declined this action' : `the user declined this action: ${why}` });
      }
      default:
        return false;
    }
  }

  private choose(choice: Choice): boolean {
    if (choice.reason) {
      this.reason = '';
      return false;
    }
    if (choice.decision === 'decline') return this.finish({ decision: 'decline', note: 'the user declined this action' });
    return this.finish(choice.scope ? { decision: choice.decision, scope: choice.scope } : { decision: choice.decision });
  }

  private finish(reply: ApprovalReply): true {
    this.decide(reply);
    return true;
  }
}

/** The key under which an `always` answer is remembered: the exact command, a fetch's domain, or tool + path. */
export function approvalKey(request: ApprovalRequest): string {
  if (request.domain !== undefined) return `${request.tool}\0domain\0${request.domain}`;
  if (request.command !== undefined) return `${request.tool}\0${request.command}`;
  return `${request.tool}\0${request.path ?? ''}\0${request.reason}`;
}
