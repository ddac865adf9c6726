import { describeCompaction } from '../../actors/context/describe-compaction.js';
import { visible } from '../visible-text.js';
import type { AgentEvent, TurnResult } from '../../actors/agent/events.js';
import type { CacheTotals } from '../../actors/agent/cache-ledger.js';
import { shownSummary } from '../tool-summary.js';

/** The `--json` object (also the last line of `--stream`); docs/headless.md is its schema. */
export interface HeadlessResult {
  status: TurnResult['status'];
  answer: string;
  /** The session's turns, this one included (1 for a fresh run; `--continue` counts on from the stored ones). */
  turns: number;
  /** Chat requests this turn made. */
  requests: number;
  toolCalls: TurnResult['toolCalls'];
  usage: {
    promptTokens: number;
    completionTokens: number;
    cachedTokens: number;
    /** Prompt tokens the engine evaluated (its own count where it gives one). */
    prefilledTokens?: number;
    /** Requests that prefilled more than they appended, with the cause when known. */
    reprefills?: Array<{ request: number; prefilledTokens: number; appendedTokens: number; cause: string; detail: string }>;
    requests: (TurnResult['requestUsage'][number])[];
  };
  compactions: number;
  model?: string;
  /** How the model wrote its tool calls (`native` or a text dialect's name); absent without calls. */
  dialect?: string;
  /** The calls that needed a person's approval and were declined (headless has nobody to ask); absent when none. */
  declined?: TurnResult['toolCalls'];
  /** The model's task list as the task left it; absent when it kept none. */
  todo?: TurnResult['todo'];
  durationMs: number;
  error?: { code: string; message: string };
}

/** `earlierTurns`: the stored session's turns before this one (`--continue`), 0 for a fresh run. */
export function toHeadlessResult(result: TurnResult, model: string | undefined, durationMs: number, cache?: CacheTotals, earlierTurns = 0): HeadlessResult {
  const declined = result.toolCalls.filter((call) => call.status === 'declined');
  const figures = cache && cache.requests > 0 ? { prefilledTokens: cache.prefilledTokens, reprefills: cache.reprefills.map((entry) => ({ request: entry.request, prefilledTokens: entry.prefilledTokens, appendedTokens: entry.appendedTokens ?? 0, cause: entry.reprefill!.cause, detail: entry.reprefill!.detail })) } : {};
  return {
    status: result.status,
    answer: result.answer,
    turns: earlierTurns + 1,
    requests: result.requests,
    toolCalls: result.toolCalls,
    usage: { promptTokens: result.usage.promptTokens, completionTokens: result.usage.completionTokens, cachedTokens: result.usage.cachedTokens, ...figures, requests: result.requestUsage },
    compactions: result.compactions,
    ...(model ? { model } : {}),
    ...(result.dialect ? { dialect: result.dialect } : {}),
    ...(declined.length > 0 ? { declined } : {}),
    ...(result.todo ? { todo: result.todo } : {}),
    durationMs,
    ...(result.error ? { error: result.error } : {}),
  };
}

/** One progress line for stderr in plain mode, or undefined for events that print nothing. */
export function progressLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'bootstrap':
      return `reika: indexed ${plural(event.files, 'file')}${event.capped ? ' (capped)' : ''}, ${event.repoMapError ? `no repo map (${event.repoMapError})` : `repo map of ${plural(event.repoMapFiles, 'file')}`} (${event.ms} ms)${(event.problems ?? []).map((problem) => `\nreika: skill ${visible(problem)}`).join('')}`;
    case 'tool-call': {
      const { state } = event;
      if (state.status === 'done' || state.status === 'error' || state.status === 'cancelled') {
        const mark = state.status === 'done' ? '✓' : state.status === 'cancelled' ? '⊘' : '✗';
        // One line per call: a subagent's summary is the first 2,400 characters of its report.
        // stderr may be a terminal: names from tools are shown escaped, never acted on.
        return visible(`${mark} ${state.call.name} ${target(state.call.arguments)}— ${shownSummary(state.call.name, state.call.arguments, state.result.summary)}`);
      }
      return undefined;
    }
    case 'compaction':
      return `reika: context compacted: ${describeCompaction(event)} (${event.beforeTokens} → ${event.afterTokens} tokens)`;
    case 'retry':
      return `reika: ${event.reason.replace(/[.\s]+$/, '')}; retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s`;
    case 'notice':
      return `reika: ${visible(event.message)}`;
    case 'nudge':
      return undefined;
    case 'usage': {
      const flagged = event.cache?.reprefill;
      return flagged ? `reika: request ${event.cache!.request} prefilled ${event.cache!.prefilledTokens} tokens for ${event.cache!.appendedTokens ?? 0} appended: ${flagged.detail}` : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The stderr line that says what was declined, so a script's log shows it even when the model
 * answered anyway: `reika: 1 action was declined (headless: nobody to approve it): bash rm -rf build …`.
 */
export function declinedLine(result: TurnResult): string | undefined {
  const declined = result.toolCalls.filter((call) => call.status === 'declined');
  if (declined.length === 0) return undefined;
  const shown = declined.slice(0, 3).map((call) => `${call.name} ${target(call.arguments)}`.trim());
  const more = declined.length > 3 ? ` and ${declined.length - 3} more` : '';
  return visible(`${declined.length === 1 ? '1 action was' : `${declined.length} actions were`} declined (headless: nobody to approve ${declined.length === 1 ? 'it' : 'them'}): ${shown.join('; ')}${more} — allow with a permission rule (docs/settings.md) or run interactively`);
}

function target(args: Record<string, unknown>): string {
  const value = args.path ?? args.command ?? args.pattern;
  if (typeof value !== 'string') return '';
  const line = value.split('\n')[0]!;
  return `${line.length > 80 ? `${line.slice(0, 79)}…` : line} `;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
