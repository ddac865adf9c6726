import type { TranscriptEvent } from './transcript-event.js';

// The last turns of a stored session as the terminal showed them — the prompt, then the answer's
// text and one line per tool call, in order — so a resumed session opens where the user left it
// (`cli/tui/app.ts` replays them through the same views a live turn uses).

/** Turns shown on resuming. */
export const RECENT_TURNS = 3;

export type RecentStep =
  | { type: 'text'; text: string }
  | { type: 'tool'; id: string; name: string; args: Record<string, unknown>; status?: 'done' | 'error' | 'declined' | 'cancelled'; summary?: string };

export interface RecentTurn {
  prompt: string;
  steps: RecentStep[];
  /** How the turn ended (`interrupted`: cut off, or closed so on resuming); absent while it runs. */
  status?: string;
  /** Why it failed, when it did. */
  error?: string;
}

/** Collects the turns of a transcript's events, keeping the last `keep`. */
export class RecentTurns {
  private readonly turns: RecentTurn[] = [];
  private readonly calls = new Map<string, Extract<RecentStep, { type: 'tool' }>>();

  constructor(private readonly keep = RECENT_TURNS) {}

  add(event: TranscriptEvent): void {
    const turn = this.turns.at(-1);
    switch (event.type) {
      case 'turn-start':
        this.turns.push({ prompt: event.prompt, steps: [] });
        this.calls.clear();
        if (this.turns.length > this.keep) this.turns.shift();
        return;
      case 'turn-end':
        if (!turn) return;
        turn.status = event.status;
        if (event.error) turn.error = event.error;
        return;
      case 'ctx':
        if (!turn) return;
        if (event.op === 'assistant') {
          if (event.text.trim() !== '') turn.steps.push({ type: 'text', text: event.text });
          event.calls.forEach((call, i) => {
            const step = { type: 'tool' as const, id: call.id, name: call.name, args: call.arguments };
            turn.steps.push(step);
            this.calls.set(call.id, step);
            const historyId = event.ids[i];
            if (historyId) this.calls.set(historyId, step);
          });
        } else if (event.op === 'tool-result') {
          const step = this.calls.get(event.result.callId);
          if (step) {
            step.status = event.result.status ?? 'done';
            step.summary = event.result.summary;
          }
        }
        return;
      default:
        return;
    }
  }

  get list(): RecentTurn[] {
    return this.turns.map((turn) => ({ ...turn, steps: turn.steps.map((step) => ({ ...step })) }));
  }
}
