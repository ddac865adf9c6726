import { onAbort } from '../../runtime/abort.js';
import type { ApprovalReply, ApprovalRequest } from '../../actors/approver/protocol.js';
import { ApprovalPrompt } from './approval-prompt.js';
import type { Screen } from './screen.js';
import type { StreamText } from './stream-text.js';
import type { Style } from './style.js';

interface Entry {
  prompt: ApprovalPrompt;
  /** Takes the question away unanswered (its turn was aborted, or reika is leaving). */
  decline(): void;
  removeAbort(): void;
}

const INTERRUPTED: ApprovalReply = { decision: 'decline', note: 'the turn was interrupted' };

/**
 * Questions waiting for the person, one shown at a time (parallel subagents may ask together).
 * Each question's lines go into the transcript when it is shown; the answer is echoed under them.
 * An aborted turn declines its open questions.
 */
export class ApprovalQueue {
  private readonly entries: Entry[] = [];

  constructor(
    private readonly screen: Screen,
    private readonly stream: StreamText,
    private readonly style: Style,
    /** Writes an "Always" answer's rules to the chosen settings file; returns the line to show. */
    private readonly rememberRules?: (scope: 'local' | 'user', rules: readonly string[]) => string,
  ) {}

  /** The question on screen, if any. */
  get current(): ApprovalPrompt | undefined {
    return this.entries[0]?.prompt;
  }

  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalReply> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(INTERRUPTED);
      const entry: Entry = {
        prompt: new ApprovalPrompt(request, (reply) => {
          entry.removeAbort();
          this.entries.splice(this.entries.indexOf(entry), 1);
          this.screen.commit(this.style.dim(`  → ${this.echo(request, reply)}`));
          this.showNext();
          resolve(reply);
        }),
        decline: () => {
          entry.removeAbort();
          const index = this.entries.indexOf(entry);
          if (index >= 0) this.entries.splice(index, 1);
          if (index === 0) this.showNext();
          else this.screen.schedule();
          resolve(INTERRUPTED);
        },
        removeAbort: () => {},
      };
      entry.removeAbort = onAbort(signal, entry.decline);
      this.entries.push(entry);
      if (this.entries.length === 1) this.showNext();
    });
  }

  /** What the answer did, in a few words: `approved`, `declined: why`, or the rule an "Always" wrote. */
  private echo(request: ApprovalRequest, reply: ApprovalReply): string {
    if (reply.decision === 'approve') return 'approved';
    if (reply.decision === 'decline') return reply.note?.startsWith('the user declined this action: ') ? `declined: ${reply.note.slice('the user declined this action: '.length)}` : 'declined';
    if (!reply.scope || !request.rules?.length || !this.rememberRules) return 'approved for this session';
    try {
      return `approved; always: ${this.rememberRules(reply.scope, request.rules)}`;
    } catch (error) {
      return `approved for this session; the rule was not written: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Declines every open question (leaving reika). */
  declineAll(): void {
    for (const entry of [...this.entries]) entry.decline();
  }

  private showNext(): void {
    const next = this.entries[0];
    if (next) {
      this.stream.end();
      this.screen.commit(...next.prompt.describe(this.style));
    }
    this.screen.render();
  }
}
