// One error type for the whole runtime. Errors cross thread and process boundaries flattened to
// plain records, so identity checks use the `code`, never `instanceof`.

/**
 * Why a tool failed, in words the model can act on (actors/tool-executor/tools/tool-error.ts): a
 * ToolError's code, which its ToolResult carries as `errorCode`. The model, the UI and tests branch
 * on these.
 */
export const TOOL_ERROR_CODES = [
  'INVALID_ARGS',
  'UNKNOWN_TOOL',
  'READ_ONLY_MODE',
  'NOT_FOUND',
  'NOT_A_FILE',
  'NOT_A_DIRECTORY',
  'PERMISSION_DENIED',
  'BINARY_FILE',
  'OFFSET_PAST_END',
  'INVALID_REGEX',
  'EDIT_NO_MATCH',
  'EDIT_MANY_MATCHES',
  'EDIT_NOT_UTF8',
  'WRITE_EXISTS',
  'BASH_TIMEOUT',
  'BASH_IDLE_TIMEOUT',
  'BASH_SPAWN_FAILED',
  'SANDBOX_UNAVAILABLE',
  'FETCH_FAILED',
  'FETCH_REFUSED',
  'SEARCH_FAILED',
  'IO_ERROR',
] as const;

/**
 * Every error code reika uses: a closed set, so a new failure is a new member here and each
 * `switch` over codes must handle it. Callers branch on these, users read the message.
 */
export const ERROR_CODES = [
  /** The actor holding the request died (its thread or process ended). */
  'REIKA_ERR_ACTOR_CRASHED',
  /** The actor could not start or was stopped by the crash-loop rule. */
  'REIKA_ERR_ACTOR_FAILED',
  'REIKA_ERR_AUTH',
  'REIKA_ERR_BAD_URL',
  'REIKA_ERR_BUSY',
  /** The work was aborted (its scope, or its caller); cancellation, not a failure. */
  'REIKA_ERR_CANCELLED',
  /** The runtime or the session is shutting down. */
  'REIKA_ERR_CLOSED',
  /** A setting with a malformed or unknown value (actors/config/). */
  'REIKA_ERR_CONFIG',
  /** Reika's own estimate: the request cannot leave the reply its floor even after compaction, so it is not sent (actors/context/window-budget.ts). */
  'REIKA_ERR_CONTEXT_FULL',
  /** The embedded engine counted the rendered request and it is longer than its window (actors/model-io/embedded/errors.ts): the engine's count, after reika's estimate let it through. */
  'REIKA_ERR_CONTEXT_OVERFLOW',
  /** git failed on a checkpoint store (actors/tool-executor/safety/store-git.ts). */
  'REIKA_ERR_CHECKPOINT_GIT',
  /** The folder holds more files than a checkpoint takes (actors/tool-executor/safety/index-stage.ts). */
  'REIKA_ERR_CHECKPOINT_TOO_MANY_FILES',
  'REIKA_ERR_EMBEDDED_UNAVAILABLE',
  /** The front matter of a custom command's or skill's markdown file cannot be read (actors/prompt/front-matter.ts). */
  'REIKA_ERR_FRONT_MATTER',
  /** A handler threw something that is not a ReikaError (its message is kept). */
  'REIKA_ERR_HANDLER',
  /** A hook answered `continue: false`: the turn ended after it (actors/agent/turn-hooks.ts). */
  'REIKA_ERR_HOOK_STOPPED',
  'REIKA_ERR_HTTP',
  /** The model server sent no bytes for the idle limit (actors/model-io/http/http-request.ts); reported as REIKA_ERR_TIMEOUT. */
  'REIKA_ERR_IDLE_TIMEOUT',
  /** An image that cannot be read, is too large, or cannot be recognised here (actors/images/). */
  'REIKA_ERR_IMAGE',
  'REIKA_ERR_INDEXER',
  'REIKA_ERR_INTERNAL',
  'REIKA_ERR_LOOP',
  'REIKA_ERR_MAX_TURNS',
  'REIKA_ERR_MCP_SERVER_GONE',
  'REIKA_ERR_MODEL_FILE',
  'REIKA_ERR_MODEL_NOT_FOUND',
  'REIKA_ERR_MODEL_UNSET',
  'REIKA_ERR_MODEL_UNSUPPORTED',
  /** Nothing is registered under the address. */
  'REIKA_ERR_NO_SUCH_ACTOR',
  'REIKA_ERR_NO_SUCH_FOLDER',
  'REIKA_ERR_NO_SUCH_SESSION',
  'REIKA_ERR_OUT_OF_MEMORY',
  'REIKA_ERR_PROMPT_BLOCKED',
  /** A permission rule reika cannot read (actors/tool-executor/rules/rule.ts). */
  'REIKA_ERR_RULE_SYNTAX',
  'REIKA_ERR_SERVER_UNREACHABLE',
  /** The session asked for by --resume / --continue cannot be opened (cli/open-session.ts). */
  'REIKA_ERR_SESSION_CHOICE',
  'REIKA_ERR_STREAM',
  /** No reply (or no bytes from the model server) within the limit. */
  'REIKA_ERR_TIMEOUT',
  'REIKA_ERR_TOOLS_FIXED',
  'REIKA_ERR_TOOL_NAME',
  'REIKA_ERR_TRANSCRIPT',
  'REIKA_ERR_UNREADABLE_TOOL_CALL',
  /** A command line reika cannot run (cli/session-flags.ts). */
  'REIKA_ERR_USAGE',
  ...TOOL_ERROR_CODES,
] as const;

/** Stable error codes. Callers branch on these, users read the message. */
export type ReikaErrorCode = (typeof ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `code` is one of {@link ERROR_CODES}. */
export function isReikaErrorCode(code: unknown): code is ReikaErrorCode {
  return typeof code === 'string' && KNOWN_CODES.has(code);
}

/** The flattened form that crosses boundaries. */
export interface ErrorRecord {
  name: string;
  code: string;
  message: string;
  retryable: boolean;
  cause?: ErrorRecord;
}

const MARK = Symbol.for('reika.error');

/**
 * The base of every error class another file may catch: a subclass takes its code(s) from the set
 * above and a static `isInstance` by code. Fields of a subclass's own (a ToolError's payload) stay
 * on this side of a boundary; the record carries code, message, retryable and cause.
 */
export class ReikaError extends Error {
  readonly code: ReikaErrorCode;
  readonly retryable: boolean;
  readonly [MARK] = true;

  constructor(code: ReikaErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReikaError';
    this.code = code;
    this.retryable = options.retryable ?? false;
  }

  /** True for a ReikaError from any realm, or for its flattened record. */
  static isInstance(value: unknown): value is ReikaError {
    return typeof value === 'object' && value !== null && (MARK in value || (value as ErrorRecord).name === 'ReikaError') && typeof (value as ErrorRecord).code === 'string';
  }

  toRecord(): ErrorRecord {
    return toErrorRecord(this);
  }
}

/** True when the error (or record) says the work was cancelled by an abort. */
export function isCancelled(error: unknown): boolean {
  return ReikaError.isInstance(error) && error.code === 'REIKA_ERR_CANCELLED';
}

export function cancelledError(reason = 'cancelled'): ReikaError {
  return new ReikaError('REIKA_ERR_CANCELLED', reason);
}

/** Flattens anything thrown into a record that survives structured clone and msgpackr. */
export function toErrorRecord(error: unknown): ErrorRecord {
  if (ReikaError.isInstance(error)) {
    const e = error as ReikaError;
    return {
      name: 'ReikaError',
      code: e.code,
      message: e.message,
      retryable: e.retryable,
      ...(e.cause !== undefined ? { cause: toErrorRecord(e.cause) } : {}),
    };
  }
  if (error instanceof Error) {
    const aborted = error.name === 'AbortError';
    return {
      name: error.name,
      code: aborted ? 'REIKA_ERR_CANCELLED' : ((error as { code?: unknown }).code as string | undefined) ?? 'REIKA_ERR_HANDLER',
      message: error.message,
      retryable: false,
    };
  }
  return { name: 'Error', code: 'REIKA_ERR_HANDLER', message: String(error), retryable: false };
}

/** Rebuilds a throwable ReikaError from a record. */
export function fromErrorRecord(record: ErrorRecord): ReikaError {
  // A code from outside the set (a Node error's `ENOENT`, thrown by a handler) arrives as the handler's failure.
  return new ReikaError(isReikaErrorCode(record.code) ? record.code : 'REIKA_ERR_HANDLER', record.message, {
    retryable: record.retryable,
    cause: record.cause ? fromErrorRecord(record.cause) : undefined,
  });
}

/**
 * A ReikaError class of one code, for errors that carry only a message:
 * `class ConfigError extends errorClass('REIKA_ERR_CONFIG') {}`. Its static `isInstance` is true
 * for an error of that code from any realm, or for its flattened record.
 */
export function errorClass<C extends ReikaErrorCode>(code: C) {
  return class extends ReikaError {
    declare readonly code: C;

    constructor(message: string) {
      super(code, message);
    }

    static override isInstance(value: unknown): value is ReikaError & { readonly code: C } {
      return ReikaError.isInstance(value) && value.code === code;
    }
  };
}
