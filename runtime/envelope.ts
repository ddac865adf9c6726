import type { ErrorRecord } from './errors.js';

/**
 * Everything that travels between the supervisor and an actor. Plain records tagged by `type`,
 * so they survive structured clone and msgpackr unchanged and read well in logs.
 */
export type Envelope =
  | RequestEnvelope
  | { type: 'delta'; id: string; body: unknown }
  | { type: 'end'; id: string; body: unknown }
  | { type: 'fail'; id: string; error: ErrorRecord }
  /** The caller gave up on one request (timeout, its own signal, caller died). */
  | { type: 'cancel'; id: string }
  /** Stop all work of a scope (a turn). Sent once to each actor that holds such work. */
  | { type: 'abort'; scope: string; reason: string }
  | { type: 'ready' }
  /**
   * The actor is ending this incarnation (what it fronts is gone, e.g. an MCP server that exited):
   * requests routed from now on wait for the next incarnation instead of reaching this one.
   */
  | { type: 'going' }
  | { type: 'ping'; seq: number }
  | { type: 'pong'; seq: number }
  | { type: 'shutdown' };

export interface RequestEnvelope {
  type: 'request';
  /** Correlation id (nanoid); every delta/end/fail of the reply carries it. */
  id: string;
  from: string;
  to: string;
  /** The abort scope (usually a turn id); requests made while handling inherit it. */
  scope?: string;
  body: unknown;
}

export type EnvelopeOf<T extends Envelope['type']> = Extract<Envelope, { type: T }>;
