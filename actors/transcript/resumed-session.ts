import { UsageLedger, type UsageLedgerState } from '../agent/usage-ledger.js';
import type { ContextOp } from '../context/context-op.js';
import { ReikaError } from '../../runtime/errors.js';
import type { Transcript } from './read-transcript.js';
import { RecentTurns, type RecentTurn } from './recent-turns.js';
import type { FrozenRecord, SessionHeader, SessionSettings } from './transcript-event.js';

/**
 * What a session needs to go on where a transcript stopped: the frozen bootstrap (not rebuilt),
 * the context manager's changes to replay, the usage ledger, the mode and profile it ran with, and
 * whether its last turn was cut off (a crash or SIGKILL mid-turn: the turn is then closed as
 * interrupted before the next one starts).
 */
export interface ResumedSession {
  header: SessionHeader;
  frozen: FrozenRecord;
  contextOps: ContextOp[];
  /** The usage ledger as the transcript's replies left it. */
  usage: UsageLedgerState;
  settings?: SessionSettings;
  turns: number;
  /** The id of a turn that started and never ended. */
  openTurn?: string;
  /** The last turn's prompt and the last answer, to show on resuming. */
  lastPrompt?: string;
  lastAnswer?: string;
  /** The last turns as the terminal showed them, to show again on resuming. */
  recent: RecentTurn[];
}

export function resumedSession(transcript: Transcript): ResumedSession {
  let frozen: FrozenRecord | undefined;
  const contextOps: ContextOp[] = [];
  // Summed as the session summed them while it ran.
  const usage = new UsageLedger();
  let settings: SessionSettings | undefined;
  let turns = 0;
  let openTurn: string | undefined;
  let lastPrompt: string | undefined;
  let lastAnswer: string | undefined;
  const recent = new RecentTurns();
  for (const event of transcript.events) {
    recent.add(event);
    switch (event.type) {
      case 'frozen':
        frozen = event;
        break;
      case 'ctx': {
        const { type: _type, ...op } = event;
        contextOps.push(op as ContextOp);
        if (event.op === 'prepare') usage.countRequest();
        if (event.op === 'usage' && event.usage) usage.record(event.usage);
        if (event.op === 'assistant' && event.text.trim() !== '') lastAnswer = event.text;
        break;
      }
      case 'settings': {
        const { type: _type, ...rest } = event;
        settings = rest;
        break;
      }
      case 'turn-start':
        turns++;
        openTurn = event.turn;
        lastPrompt = event.prompt;
        break;
      case 'turn-end':
        if (openTurn === event.turn) openTurn = undefined;
        break;
      default:
        break;
    }
  }
  if (!frozen || contextOps[0]?.op !== 'init') throw new ReikaError('REIKA_ERR_TRANSCRIPT', `session ${transcript.header.id} is damaged (its transcript lacks the frozen system prompt)`);
  return { header: transcript.header, frozen, contextOps, usage: usage.snapshot(), recent: recent.list, ...(settings ? { settings } : {}), turns, ...(openTurn ? { openTurn } : {}), ...(lastPrompt !== undefined ? { lastPrompt } : {}), ...(lastAnswer !== undefined ? { lastAnswer } : {}) };
}
