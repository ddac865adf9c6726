/**
 * One error type for the whole runtime. Errors cross thread and process boundaries flattened to
 * plain records, so identity checks use the `code`, never `instanceof`.
 */

/** Stable error codes. Callers branch on these, users read the message. */
export type ReikaErrorCode =
  | 'REIKA_ERR_CANCELLED'
  | 'REIKA_ERR_TIMEOUT'
  | 'REIKA_ERR_ACTOR_CRASHED'
  | 'REIKA_ERR_ACTOR_FAILED'
  | 'REIKA_ERR_NO_SUCH_ACTOR'
  | 'REIKA_ERR_CLOSED'
  | 'REIKA_ERR_HANDLER'
  | (string & {});

/** The flattened form that crosses boundaries. */
export interface ErrorRecord {
  name: string;
  code: string;
  message: string;
  retryable: boolean;
  cause?: ErrorRecord;
}

const MARK = Symbol.for('reika.error');

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
  return new ReikaError(record.code, record.message, {
    retryable: record.retryable,
    cause: record.cause ? fromErrorRecord(record.cause) : undefined,
  });
}
