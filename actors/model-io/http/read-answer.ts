import type { IncomingMessage } from 'node:http';
import type { Failure } from './classify-failure.js';
import { httpError, notAStreamError } from '../errors.js';
import { mapChunk } from '../calls/map-chunk.js';
import type { ChatReply } from '../protocol.js';
import { isRetryableStatus } from './retry-policy.js';
import { SseDecoder, type SseEvent } from './sse-decoder.js';
import type { TurnAssembler } from '../calls/turn-assembler.js';

/** After finish_reason (and the usage, when announced) the stream gets this long to end. */
export const DONE_GRACE_MS = 1_000;
/** After finish_reason, usage the stream announced (chunks with a `usage` field) gets this long. */
export const USAGE_GRACE_MS = 5_000;
/** How much of a body that is not a stream is read to name it. */
const SNIFF_BYTES = 4_096;

/** Thrown inside an attempt to hand its classified failure to the retry loop. */
export class AttemptFailed {
  constructor(readonly failure: Failure) {}
}

export interface AnswerContext {
  signal: AbortSignal;
  status: number;
  /** Called for every chunk and event that arrives: the stream is alive (the idle watch restarts). */
  onLife?(): void;
  /** Called at the first generated delta (text, reasoning or a call): the prefill is over. */
  onGenerated?(): void;
  /** The variable that sets this endpoint's URL (a profile's own), named by a failure. */
  urlVariable?: string;
}

type Kind = 'sse' | 'json' | 'other' | undefined;

const GRACE_OVER = Symbol('grace over');

/**
 * The body of a 200 answer to a chat request, read into the turn: an event stream, or one JSON
 * object from a server that ignored `stream: true`, told apart by the content type or, when that
 * says neither, by the first bytes. Anything else (an HTML error page, plain text) is a failure
 * naming what the server sent. A stream whose reply is complete (finish_reason, and the usage
 * when the stream carries a usage field) ends after {@link DONE_GRACE_MS} even if `[DONE]` and
 * the close never come.
 */
export async function readAnswer(response: IncomingMessage, turn: TurnAssembler, context: AnswerContext): Promise<ChatReply> {
  const { signal, status } = context;
  const type = String(response.headers['content-type'] ?? '');
  // The first bytes decide, whatever the content type says: a proxy's HTML page may come as
  // text/event-stream (it read as an empty stream before: "an empty body", retried).
  let kind: Kind = type.includes('application/json') && !type.includes('text/event-stream') ? 'json' : undefined;
  const held: Buffer[] = [];
  let heldBytes = 0;
  const decoder = new SseDecoder();
  let garbage = 0;
  let events = 0;
  let finished = false;
  let usageSeen = false;
  let usageAnnounced = false;
  const handle = (event: SseEvent): boolean => {
    events++;
    context.onLife?.();
    const data = event.data;
    if (data === '[DONE]') return true;
    if (data === '') return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      if (event.event === 'error') throw new AttemptFailed(streamFailure(undefined, data));
      if (garbage++ === 0) turn.notice(`Ignored a malformed line in the model stream: ${data.length > 80 ? `${data.slice(0, 79)}…` : data}`);
      return false;
    }
    if (event.event === 'error' && !(parsed as { error?: unknown } | null)?.error) parsed = { error: parsed };
    if (parsed && typeof parsed === 'object' && 'usage' in parsed) usageAnnounced = true;
    for (const delta of mapChunk(parsed)) {
      if (delta.kind === 'error') throw new AttemptFailed(streamFailure(delta.status, delta.message));
      if (delta.kind === 'finish') finished = true;
      if (delta.kind === 'text' || delta.kind === 'reasoning' || delta.kind === 'tool') context.onGenerated?.();
      if (delta.kind === 'usage') usageSeen = true;
      turn.push(delta);
    }
    return false;
  };

  const iterator = (response as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let done = false;
  try {
    while (!done) {
      const grace = kind === 'sse' && finished ? (usageSeen || !usageAnnounced ? DONE_GRACE_MS : USAGE_GRACE_MS) : undefined;
      const next = grace === undefined ? await iterator.next() : await withGrace(iterator.next(), grace);
      if (next === GRACE_OVER || next.done || signal.aborted) break;
      context.onLife?.();
      const chunk = next.value;
      if (kind === undefined || kind === 'other') {
        held.push(chunk);
        heldBytes += chunk.length;
        kind ??= sniff(Buffer.concat(held).toString('utf8', 0, 256));
        if (kind === 'other' && heldBytes >= SNIFF_BYTES) break;
        if (kind !== 'sse') continue;
        const start = Buffer.concat(held);
        held.length = 0;
        for (const event of decoder.push(start)) if ((done = handle(event))) break;
        continue;
      }
      if (kind === 'json') {
        held.push(chunk);
        continue;
      }
      for (const event of decoder.push(chunk)) if ((done = handle(event))) break;
    }
  } finally {
    // Stop reading (a grace that ran out leaves a read pending; the caller closes the socket).
    void iterator.return?.().catch(() => {});
  }
  if (signal.aborted) return turn.finish(true);
  if (kind === 'json') {
    const text = Buffer.concat(held).toString('utf8');
    // Labelled JSON, but empty or not JSON at all (a page, a line of text): named as what it is,
    // like any other body that is not a stream; an empty one asked once more (not with the
    // 429/5xx backoff: 5 requests in ~10 s, to fail as 'not valid JSON').
    if (!/^\s*[[{]/.test(text)) throw new AttemptFailed({ error: notAStreamError(status, type, text, context.urlVariable), retry: text.trim() === '' ? 'once' : 'no' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AttemptFailed({ error: httpError(status, 'the answer was not valid JSON', true), retry: 'status' });
    }
    for (const delta of mapChunk(parsed)) {
      if (delta.kind === 'error') throw new AttemptFailed(streamFailure(delta.status, delta.message));
      turn.push(delta);
    }
    return turn.finish(false);
  }
  // A page of something else will not fix itself. An empty body may be a hiccup, but a server
  // that answers nothing mostly does so again: asked once more, quickly (the backoff of 429/5xx
  // took 8–9 s to give up on it).
  if (kind === 'other') throw new AttemptFailed({ error: notAStreamError(status, type, Buffer.concat(held).toString('utf8'), context.urlVariable), retry: 'no' });
  if (kind === 'sse' && !done) for (const event of decoder.end()) if (handle(event)) break;
  if (kind === undefined || events === 0) throw new AttemptFailed({ error: notAStreamError(status, type, '', context.urlVariable), retry: 'once' });
  return turn.finish(false);
}

const FIELDS = ['data:', 'event:', 'id:', 'retry:', 'error:'];

/** What the first bytes of a body say it is (undefined: only blank so far, or a field name cut short). */
function sniff(head: string): Kind {
  const start = head.trimStart();
  if (start === '') return undefined;
  if (start.startsWith('{')) return 'json';
  // An event stream starts with a field (`data:`, `event:`, `id:`, `retry:`, llama.cpp's `error:`) or a comment.
  if (/^(?::|(?:data|event|id|retry|error)(?::|\r|\n|$))/.test(start)) return 'sse';
  // The first read may end inside the field name ("da"): wait for more.
  if (FIELDS.some((field) => field.startsWith(start))) return undefined;
  return 'other';
}

function withGrace<T>(promise: Promise<T>, ms: number): Promise<T | typeof GRACE_OVER> {
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<typeof GRACE_OVER>((resolve) => {
    timer = setTimeout(() => resolve(GRACE_OVER), ms);
  });
  // The read left behind when the grace wins settles (or fails) when the socket closes.
  promise.catch(() => {});
  return Promise.race([promise, over]).finally(() => clearTimeout(timer));
}

export function streamFailure(status: number | undefined, message: string): Failure {
  const retryable = status !== undefined && isRetryableStatus(status);
  return { error: httpError(status ?? 200, message, retryable), retry: retryable ? 'status' : 'no' };
}
