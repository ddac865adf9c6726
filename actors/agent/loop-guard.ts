import { createHash } from 'node:crypto';
import type { ToolCall } from '../model-io/protocol.js';
import type { ToolResult } from '../tool-executor/protocol.js';

/** The same call with the same result this many times → a note. */
export const REPEAT_NOTE_AT = 2;
/** …this many times → the turn stops. */
export const REPEAT_STOP_AT = 4;
/** The same edit (path + old_string) failing this many times → a note; then a stop. */
export const FAILED_EDIT_NOTE_AT = 2;
export const FAILED_EDIT_STOP_AT = 3;

export type GuardVerdict = { action: 'ok' } | { action: 'note'; message: string } | { action: 'stop'; message: string };

/**
 * Name plus arguments with keys sorted at every level: equal calls give equal keys. A call whose
 * arguments were not JSON is keyed by their text (its parsed arguments are empty for all of them).
 */
export function canonicalKey(call: Pick<ToolCall, 'name' | 'arguments' | 'rawArguments'>): string {
  if (call.rawArguments !== undefined) return `${call.name}(raw ${JSON.stringify(call.rawArguments)})`;
  return `${call.name}(${stableJson(call.arguments)})`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Repeats count within this many of the turn's latest calls. A loop repeats within a few rounds;
 * a long session re-reads a file long after compaction shed the first read, and four such reads
 * over 300 rounds are not a loop.
 */
export const REPEAT_WINDOW_CALLS = 40;

/**
 * Breaks loops across the requests of one turn: the same call giving the same result again, or
 * the same failing edit tried again. First a note to the model, then a stop.
 */
export class LoopGuard {
  /** For each key, the positions (among the calls observed) where it was seen lately. */
  private readonly repeats = new Map<string, number[]>();
  private readonly failedEdits = new Map<string, number[]>();
  private observed = 0;

  /** Looks at one finished call; the strongest verdict of a round wins (see {@link strongest}). */
  observe(call: ToolCall, result: ToolResult): GuardVerdict {
    if (result.status === 'cancelled') return { action: 'ok' };
    const at = this.observed++;
    const digest = createHash('sha1').update(`${result.status}\0${withoutTimings(result.summary)}\0${result.payload}`).digest('hex');
    const key = `${canonicalKey(call)}=>${digest}`;
    const seen = recent(this.repeats, key, at);
    let verdict: GuardVerdict = { action: 'ok' };
    if (seen >= REPEAT_STOP_AT) {
      verdict = { action: 'stop', message: `the model repeated the same ${call.name} call ${seen} times with the same result` };
    } else if (seen >= REPEAT_NOTE_AT) {
      verdict = {
        action: 'note',
        message: `You already made this exact ${call.name} call ${seen - 1} time${seen > 2 ? 's' : ''} in this turn and got the same result. Repeating it will not change anything: use what you have, try something different, or answer.`,
      };
    }
    if (call.name === 'edit' && (result.status === 'error' || result.status === 'declined')) {
      // Arguments that were not JSON (an edit cut off by max_tokens) have no path: such calls are
      // the same edit only when their text is, not because each lacks a path and old_string.
      const broken = call.rawArguments !== undefined;
      const editKey = broken ? `raw\0${call.rawArguments}` : `${String(call.arguments.path)}\0${call.arguments.edits !== undefined ? JSON.stringify(call.arguments.edits) : String(call.arguments.old_string)}`;
      const failed = recent(this.failedEdits, editKey, at);
      const what = broken ? 'the same broken edit call' : `the same edit of ${String(call.arguments.path)}`;
      if (failed >= FAILED_EDIT_STOP_AT) {
        verdict = strongest(verdict, { action: 'stop', message: `${what} failed ${failed} times` });
      } else if (failed >= FAILED_EDIT_NOTE_AT) {
        verdict = strongest(verdict, {
          action: 'note',
          message: broken
            ? 'This edit call was cut off or malformed again the same way: send its arguments as complete JSON (path, old_string, new_string), or make a smaller change.'
            : `This edit of ${String(call.arguments.path)} failed again the same way. Read the file around the place you want to change and copy old_string exactly from it (whitespace included), or make a different change.`,
        });
      }
    }
    return verdict;
  }
}

/**
 * A result summary with its run times taken out: `exit code 0 after 0.1 s` and `… after 0.0 s`
 * are the same result (the same command run again in a loop differs only in how long it took).
 * The durations are those the tools write (`0.1 s`, `2 min`, `2 min 5 s`).
 */
export function withoutTimings(summary: string): string {
  return summary.replace(/\b\d+ min(?: \d+ s)?\b|\b\d+(?:\.\d+)? s\b/g, '<time>');
}

/** Records `key` at position `at` and returns how often it was seen within the window, this time included. */
function recent(seen: Map<string, number[]>, key: string, at: number): number {
  const positions = (seen.get(key) ?? []).filter((position) => at - position < REPEAT_WINDOW_CALLS);
  positions.push(at);
  seen.set(key, positions);
  return positions.length;
}

/** `stop` beats `note` beats `ok`. */
export function strongest(a: GuardVerdict, b: GuardVerdict): GuardVerdict {
  const rank = { ok: 0, note: 1, stop: 2 } as const;
  return rank[b.action] > rank[a.action] ? b : a;
}
