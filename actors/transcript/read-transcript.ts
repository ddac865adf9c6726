import { readFileSync } from 'node:fs';
import { ReikaError } from '../../runtime/errors.js';
import { TRANSCRIPT_VERSION, type SessionHeader, type TranscriptEvent } from './transcript-event.js';

export interface Transcript {
  header: SessionHeader;
  /** The events after the header, in order. */
  events: TranscriptEvent[];
  /** Bytes up to the end of the last whole line (where appending goes on). */
  validBytes: number;
  /** Set when a torn last line was skipped: how many bytes it had. */
  torn?: number;
}

/**
 * Reads a transcript back. A last line without its newline is a write cut short (a crash
 * mid-event): it is skipped, and `torn` says so. Anything else that does not parse — a header of
 * another format version, a damaged line in the middle — is refused with one sentence (code
 * `REIKA_ERR_TRANSCRIPT`), never half-read.
 */
export function readTranscript(path: string, id: string): Transcript {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ReikaError('REIKA_ERR_TRANSCRIPT', `session ${id} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  const text = bytes.subarray(0, end).toString('utf8');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const events: TranscriptEvent[] = [];
  for (let i = 0; i < lines.length; i++) {
    let event: TranscriptEvent;
    try {
      event = JSON.parse(lines[i]!) as TranscriptEvent;
    } catch {
      throw new ReikaError('REIKA_ERR_TRANSCRIPT', `session ${id} is damaged (line ${i + 1} of its transcript is not an event)`);
    }
    if (typeof event !== 'object' || event === null || typeof event.type !== 'string') {
      throw new ReikaError('REIKA_ERR_TRANSCRIPT', `session ${id} is damaged (line ${i + 1} of its transcript is not an event)`);
    }
    events.push(event);
  }
  const header = events.shift();
  if (header?.type !== 'session') throw new ReikaError('REIKA_ERR_TRANSCRIPT', `session ${id} is damaged (its transcript has no header)`);
  if (header.v !== TRANSCRIPT_VERSION) {
    const who = typeof header.reika === 'string' ? `reika ${header.reika}` : 'another reika';
    throw new ReikaError('REIKA_ERR_TRANSCRIPT', `session ${id} was written by ${who} in transcript format ${String(header.v)}; this reika reads format ${TRANSCRIPT_VERSION} only`);
  }
  return { header, events, validBytes: end, ...(end < bytes.length ? { torn: bytes.length - end } : {}) };
}
