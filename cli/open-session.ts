import { existsSync, readFileSync } from 'node:fs';
import { findProfile, type Config } from '../actors/config/load-config.js';
import { ReikaError, errorClass } from '../runtime/errors.js';
import { readTranscript, type Transcript } from '../actors/transcript/read-transcript.js';
import { resumedSession, type ResumedSession } from '../actors/transcript/resumed-session.js';
import { findSession, listSessions, type StoredSession } from '../actors/transcript/session-catalog.js';
import { SessionRecorder } from '../actors/transcript/session-recorder.js';
import { TranscriptWriter, type WriterOptions } from '../actors/transcript/transcript-writer.js';
import { sessionLine } from './describe-sessions.js';
import { SESSION_VARIABLE } from '../actors/tool-executor/safety/session-id.js';
import { version } from './version.js';

// How a run finds the session it goes on with (`--continue`, `--resume ID`, `/resume`) and the
// recorder its transcript goes to. A session another reika is writing is continued in a copy
// (the same conversation, a file of its own), so two processes never write one file. What can go
// wrong is one sentence: no such session, a damaged transcript or one from another format
// version — followed by the other sessions of the folder.

/** `--continue` (the newest of this folder) or `--resume ID`. */
export type SessionChoice = { continue: true } | { resume: string };

/** A stored session to go on with, found before the configuration is loaded (it may run elsewhere). */
export interface LocatedSession {
  stored: StoredSession;
  /** Where the session runs: its recorded folder, or `cwd` when that folder is gone. */
  root: string;
  notes: string[];
}

/** A refusal the user can act on: one sentence, then the folder's other sessions. */
export class SessionChoiceError extends errorClass('REIKA_ERR_SESSION_CHOICE') {}

/** Finds the session `choice` names; undefined for `--continue` in a folder with none (a note says so). */
export function locateSession(choice: SessionChoice, cwd: string, notes: string[] = []): LocatedSession | undefined {
  let stored: StoredSession;
  if ('continue' in choice) {
    const newest = listSessions(cwd)[0];
    if (!newest) {
      notes.push(`no earlier session in ${cwd}: starting a new one`);
      return undefined;
    }
    stored = newest;
  } else {
    try {
      stored = findSession(choice.resume);
    } catch (error) {
      throw refusal(error, cwd);
    }
  }
  let root = stored.meta.root || cwd;
  if (root !== cwd) {
    if (existsSync(root)) notes.push(`session ${stored.id} ran in ${root}: it goes on there`);
    else {
      notes.push(`session ${stored.id} ran in ${root}, which is gone: it goes on in ${cwd} (its system prompt still names the old folder)`);
      root = cwd;
    }
  }
  return { stored, root, notes };
}

/** The API keys of the configuration: never written to a transcript. */
export function secretsOf(config: Config): string[] {
  return [...config.secrets, ...config.profiles.map((p) => p.apiKey ?? ''), config.subagent.apiKey ?? '', config.vision.apiKey ?? ''].filter((key) => key !== '');
}

export interface OpenedSession {
  recorder: SessionRecorder;
  /** The transcript writer of the resumed session (or of its copy). */
  writer?: TranscriptWriter;
  resume?: ResumedSession;
  /** The writer is a fresh copy (the session is open in another reika): dropped at the end unless the model answers in it. */
  copied?: boolean;
  notes: string[];
}

/**
 * Reads the located session and attaches a recorder to it (or to a copy of it when another reika
 * holds it); without one, a recorder that starts a new transcript at the first turn.
 */
export function openSession(located: LocatedSession | undefined, config: Config, options: WriterOptions = {}): OpenedSession {
  // The run's checkpoint session (main.ts made it): `reika undo --list` names the stored session by it.
  const checkpoints = process.env[SESSION_VARIABLE];
  const writerOptions: WriterOptions = { ...options, secrets: secretsOf(config), ...(checkpoints ? { checkpoints } : {}) };
  const reika = version();
  if (!located) return { recorder: new SessionRecorder(reika, writerOptions), notes: [] };
  const { stored, root } = located;
  const notes: string[] = [];
  let transcript;
  let resume: ResumedSession;
  try {
    transcript = readTranscript(stored.files.transcript, stored.id);
    resume = resumedSession(transcript);
  } catch (error) {
    throw refusal(error, root, stored.id);
  }
  if (transcript.torn) notes.push(`session ${stored.id}: skipped a torn last line of its transcript (${transcript.torn} bytes, a write cut short by a crash)`);
  const attached = TranscriptWriter.attach(stored.files, stored.id, transcript.validBytes, stored.meta, writerOptions);
  let writer: TranscriptWriter;
  const copied = 'heldBy' in attached;
  if ('heldBy' in attached) {
    const bytes = readFileSync(stored.files.transcript).subarray(0, transcript.validBytes);
    // A turn the other reika is in the middle of is its own: the copy is the session as it stood
    // before that turn began (its prompt, and what it has written of the turn so far, stay out).
    const settled = resume.openTurn === undefined ? undefined : beforeTurn(transcript, bytes, resume.openTurn);
    if (settled) resume = settled.resume;
    const text = bytes.subarray(0, settled?.bytes ?? transcript.validBytes).toString('utf8');
    const copy = text.slice(text.indexOf('\n') + 1);
    writer = TranscriptWriter.create(root, reika, { ...writerOptions, forkedFrom: stored.id, copy, meta: { ...stored.meta, turns: resume.turns } });
    notes.push(`session ${stored.id} is open in another reika (pid ${attached.heldBy}): going on in a copy, session ${writer.id}`);
  } else {
    writer = attached;
  }
  return { recorder: new SessionRecorder(reika, writerOptions, writer, copied), writer, resume, ...(copied ? { copied } : {}), notes };
}

/**
 * The session as it stood before `turn` began: how many of the transcript's `bytes` that is, and
 * what it resumes to. Undefined when the turn is not there, or nothing before it can be resumed.
 */
function beforeTurn(transcript: Transcript, bytes: Buffer, turn: string): { bytes: number; resume: ResumedSession } | undefined {
  const at = transcript.events.findLastIndex((event) => event.type === 'turn-start' && event.turn === turn);
  if (at < 0) return undefined;
  // Each event is a line, after the header's.
  let end = 0;
  for (let line = 0; line <= at; line++) end = bytes.indexOf(0x0a, end) + 1;
  try {
    return { bytes: end, resume: resumedSession({ header: transcript.header, events: transcript.events.slice(0, at), validBytes: end }) };
  } catch {
    return undefined;
  }
}

/** `--profile` not given: the profile the session ran with, if the configuration still has it. */
export function resumedConfig(config: Config, resume: ResumedSession | undefined, profileFlag: string | undefined): Config {
  const name = resume?.settings?.profile;
  if (!name || profileFlag !== undefined) return config;
  const profile = findProfile(config, name);
  return profile ? { ...config, active: profile } : config;
}

/** One line on resuming: which session, how long, what was asked last. */
export function resumeLine(id: string, resume: ResumedSession): string {
  const last = resume.lastPrompt ? ` · last: ${resume.lastPrompt.replace(/\s+/g, ' ').slice(0, 80)}` : '';
  return `resumed session ${id} (${resume.turns} turn${resume.turns === 1 ? '' : 's'}${resume.openTurn ? ', the last one cut off' : ''})${last}`;
}

function refusal(error: unknown, root: string, except?: string): SessionChoiceError {
  const sentence = ReikaError.isInstance(error) || error instanceof Error ? error.message : String(error);
  const others = listSessions(root).filter((s) => s.id !== except);
  const list = others.length === 0 ? `no other sessions of ${root}` : `other sessions of ${root}:\n${others.slice(0, 10).map((s) => `  ${sessionLine(s)}`).join('\n')}`;
  return new SessionChoiceError(`${sentence}\n${list}`);
}
