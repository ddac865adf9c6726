import type { Envelope } from './envelope.js';

/** Why an actor's thread or process ended. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** The uncaught error or the last lines of stderr, when there are any. */
  detail?: string;
}

/**
 * The supervisor's side of one actor incarnation. The actor's code never sees this: it talks to a
 * {@link HostPort}, whichever transport carries it.
 */
export interface Transport {
  readonly kind: 'thread' | 'process' | 'local';
  /** OS process id for process actors. */
  readonly pid?: number;
  send(message: Envelope): void;
  onMessage(listener: (message: Envelope) => void): void;
  /** Called once when the incarnation ends, for whatever reason. */
  onExit(listener: (info: ExitInfo) => void): void;
  /** Ends the incarnation (at once when `force`, else after a graceful shutdown); resolves when it is gone. */
  terminate(force?: boolean): Promise<void>;
}

/** The actor's side: what the host inside the thread or process uses. */
export interface HostPort {
  post(message: Envelope): void;
  onMessage(listener: (message: Envelope) => void): void;
  /** Called when the supervisor is gone (the pipe closed). */
  onDisconnect(listener: () => void): void;
}

/** Where an actor's code lives and how to run it. */
export interface ActorSpec {
  /** The address, e.g. `model-io`, `tool-executor`, `subagent/3`. */
  name: string;
  /**
   * What a user reads in a sentence about it (`the process that runs the tools`): crash and
   * restart errors reach the model and the terminal, where an actor name means nothing.
   * Default: `the NAME actor`.
   */
  title?: string;
  kind: 'thread' | 'process';
  /** Absolute path or file URL of a module whose default export is an ActorDefinition. */
  module: string | URL;
  /** Passed to the definition's `setup`; must be cloneable (and msgpack-able for processes). */
  options?: unknown;
  /** Extra environment for process actors. */
  env?: NodeJS.ProcessEnv;
  /** Working directory for process actors. */
  cwd?: string;
  /**
   * A process actor's nice value (Linux and macOS; ignored where it cannot be set): background
   * processes that boot beside the session's start (MCP servers) must not take CPU from it. What
   * the process starts inherits it.
   */
  nice?: number;
  /** Restart after a crash (default true). */
  restart?: boolean;
  /** Ping interval; an actor that misses pongs for `hangAfterMs` is killed and restarted. */
  heartbeatMs?: number;
  hangAfterMs?: number;
}
