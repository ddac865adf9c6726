import { ReikaError } from '../../../runtime/errors.js';
import { authError, badUrl, errorMessageOf, httpError, modelNotFound, serverUnreachable, streamError, timeoutError } from '../errors.js';
import { IdleTimeoutError } from './http-request.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';

/** A failed attempt, classified: the error to report if it is the last, and whether to retry. */
export interface Failure {
  error: ReikaError;
  /** `once`: one quick retry (at the policy's first backoff), then the error. */
  retry: 'no' | 'status' | 'connection' | 'once';
  /** The server's `Retry-After`, in ms. */
  retryAfterMs?: number;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ERR_INVALID_URL']);
const LOST = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET', 'ERR_STREAM_PREMATURE_CLOSE']);

/** A thrown network error, before the answer began or mid-stream (`midStream`) → a failure. */
export function connectionFailure(error: unknown, baseUrl: string, midStream: boolean, urlVariable?: string): Failure {
  if (IdleTimeoutError.isInstance(error)) return { error: timeoutError(error.ms), retry: 'no' };
  if (ReikaError.isInstance(error)) return { error, retry: error.retryable ? 'connection' : 'no' };
  const code = (error as { code?: string })?.code ?? '';
  const message = (error as Error)?.message ?? String(error);
  if (UNREACHABLE.has(code)) {
    // A name that does not resolve or a bad URL will not fix itself: report at once.
    return { error: serverUnreachable(baseUrl, code === 'ECONNREFUSED' ? 'connection refused' : message, urlVariable), retry: code === 'ECONNREFUSED' ? 'connection' : 'no' };
  }
  if (LOST.has(code) || message === 'aborted' || message === 'socket hang up' || /premature close/i.test(message)) {
    const error = midStream ? streamError('the connection was lost mid-stream', true) : serverUnreachable(baseUrl, 'the connection was closed before an answer', urlVariable);
    return { error, retry: 'connection' };
  }
  return { error: streamError(message, false), retry: 'no' };
}

export interface StatusContext {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  url: string;
  baseUrl: string;
  model: string;
  /** The settings that hold the key, the URL and the model, for the sentence that names what to fix. */
  keyVariable?: string;
  urlVariable?: string;
  modelVariable?: string;
  /** Lists the server's models, for the model-not-found sentence (best effort). */
  listModels(): Promise<string[]>;
}

/** A non-2xx answer → a failure. 401/403 and 404 are the user's settings; 429/5xx are transient. */
export async function statusFailure(context: StatusContext): Promise<Failure> {
  const { status, body } = context;
  const message = errorMessageOf(body);
  if (status === 401 || status === 403) return { error: authError(context.baseUrl, status, context.keyVariable), retry: 'no' };
  const aboutModel = /model/i.test(message) && /(not (be )?found|does not exist|no such|unknown|not loaded|invalid)/i.test(message);
  if ((status === 404 || status === 400) && aboutModel && context.model) {
    return { error: modelNotFound(context.model, await context.listModels().catch(() => []), context.modelVariable), retry: 'no' };
  }
  if (status === 404) return { error: badUrl(context.url, context.urlVariable), retry: 'no' };
  const retryable = isRetryableStatus(status);
  return { error: httpError(status, message, retryable), retry: retryable ? 'status' : 'no', retryAfterMs: parseRetryAfter(context.headers['retry-after']) };
}
